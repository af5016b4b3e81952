// Hermes 2 Pro / Hermes 3 / Qwen 2.5 tool calls (FORMATS.md 3.1):
//
//   Let me check.<tool_call>
//   {"name": "get_weather", "arguments": {"city": "Paris"}}
//   </tool_call>
//
// Modes are the states of the convention. The runtime holds back any token that may still
// grow (e.g. "<tool_ca" at the end of a chunk) and cuts the streamable ones listed in
// hermes.json (runs of content, runs of JSON string characters) so they flow as they arrive.
// The call rules ('<tool_call>' ... '</tool_call>') are the shared HermesCall grammar (qwen3
// uses them too); the call object's members are the shared JsonCall grammar.
lexer grammar HermesLexer;
import HermesCall, JsonCall, JsonValue, HermesLenient;

// ---- content (the call opener HC_OPEN comes from HermesCall) ------------------------------
TEXT       : ~'<'+ ;
LT         : '<' ;
