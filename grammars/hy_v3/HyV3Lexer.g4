// Hunyuan v3 (Hy3) tool calls, vLLM "hy_v3", SGLang "hunyuan": a <tool_calls> block of calls,
// each a name, <tool_sep>, then arg_key/arg_value pairs:
//
//   <tool_calls>
//   <tool_call>get_weather<tool_sep>
//   <arg_key>city</arg_key>
//   <arg_value>Paris</arg_value>
//   </tool_call>
//   </tool_calls>
//
// The shipping Hy3 tokenizer suffixes every structural token (<tool_calls:opensource>); the
// shared HunyuanTags grammar reads any suffix, and none. Values are raw text typed by the tool
// schema; values of parameters without a schema are strings.
//
// Reasoning (HunyuanTags): <think>...</think>, the start injected into the prompt when
// reasoning_effort asks for thinking. vLLM's default is no_think, so by default the output
// starts outside reasoning and a <think> written in content opens it; with thinking on it
// starts inside (thinkingMode HY_LEAD).
lexer grammar HyV3Lexer;
import HunyuanTags;

TEXT : ~'<'+ ;
LT   : '<' ;
