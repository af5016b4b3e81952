// Hunyuan v4 tool calls, vLLM "hy_v4": as Hunyuan v3 without <tool_sep> (the name runs to the
// first <arg_key>), and every structural token carries the checkpoint's suffix:
//
//   <tool_calls:6124c78e><tool_call:6124c78e>get_weather<arg_key:6124c78e>city</arg_key:6124c78e><arg_value:6124c78e>Paris</arg_value:6124c78e></tool_call:6124c78e></tool_calls:6124c78e>
//
// The shared HunyuanTags grammar reads any suffix (':' + non-blank characters other than '>'),
// and none, so no configuration per checkpoint is needed; a <tool_sep> is read too. Values are
// raw text typed by the tool schema; values of parameters without a schema are strings.
//
// Reasoning (HunyuanTags): <think:S>...</think:S>. The template injects <think:S> into the prompt
// and its default reasoning_effort is 'high', so by default the output starts inside reasoning
// (thinkingMode HY_LEAD); reasoning_effort 'no_think' is --thinking off.
lexer grammar HyV4Lexer;
import HunyuanTags;

TEXT : ~'<'+ ;
LT   : '<' ;
