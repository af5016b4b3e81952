// Xing 4.0 tool calls, TensorRT-LLM "xing4_0" (xing4_0_parser.py): the TeleChat 4 bodies, and
// the JSON call object that the parser reads first (the form its guided decoding writes):
//
//   <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>
//   <tool_call>get_weather<param_key>city</param_key><param_value>Paris</param_value></tool_call>
//   <tool_call>get_weather{"city": "Paris"}</tool_call>
//
// The bodies are the shared TeleChatCalls grammar.
//
// Reasoning (TaggedThink): the chat template puts <think> into the prompt when thinking is on
// (the default; vLLM's xing4_0 reasoning parser), so the output starts inside reasoning
// (thinkingMode TT_LEAD) and </think> ends it; with enable_thinking false the output is content.
// A <think> written in content opens reasoning; a <tool_call> inside reasoning is reasoning text.
lexer grammar Xing40Lexer;
import TeleChatCalls, TaggedThink, JsonCall, JsonValue;

TEXT        : ~'<'+ ;
LT          : '<' ;
CALL_OPEN   : '<tool_call>' -> pushMode(TLC_NAME) ;
THINK_OPEN  : '<think>' -> pushMode(TT_THINK) ;
