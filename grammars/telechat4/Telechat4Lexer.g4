// TeleChat 4 tool calls, TensorRT-LLM "telechat4" (telechat4_parser.py): a name and
// param_key/param_value pairs, or a name and a JSON arguments object, in <tool_call> tags:
//
//   <tool_call>get_weather<param_key>city</param_key><param_value>Paris</param_value></tool_call>
//   <tool_call>get_weather{"city": "Paris"}</tool_call>
//
// The bodies are the shared TeleChatCalls grammar, which also reads the JSON call object
// <tool_call>{"name": ..., "arguments": {...}}</tool_call>: TensorRT-LLM's own guided decoding for
// this parser writes that form (its structure_info), though its telechat4 parser cannot read it.
//
// Reasoning (TaggedThink): the chat template puts <think> into the prompt when thinking is on
// (the default; vLLM and SGLang "telechat4" reasoning parsers), so the output starts inside
// reasoning (thinkingMode TT_LEAD) and </think> ends it; with enable_thinking false the output
// is content. A <think> written in content opens reasoning. A <tool_call> inside reasoning is
// reasoning text, as in those parsers.
lexer grammar Telechat4Lexer;
import TeleChatCalls, TaggedThink, JsonCall, JsonValue;

TEXT        : ~'<'+ ;
LT          : '<' ;
CALL_OPEN   : '<tool_call>' -> pushMode(TLC_NAME) ;
THINK_OPEN  : '<think>' -> pushMode(TT_THINK) ;
