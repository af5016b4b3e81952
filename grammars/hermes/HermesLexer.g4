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
import HermesCall, JsonCall, JsonValue;

// ---- content (the call opener HC_OPEN comes from HermesCall) ------------------------------
TEXT       : ~'<'+ ;
LT         : '<' ;

// ---- lenient mode (the format file's "lenientMode"): the default mode's rules, plus the wrappers
// Hermes-style models slip into instead of <tool_call>; used only when parsing is lenient ---------
//   <tools>{"name": ..., "arguments": {...}}</tools>      <tool>{...}</tool>
//   ```json\n{"name": ..., "arguments": {...}}\n```        (a fenced block holding one call object)
// A wrapper whose object is not a call (no "name") fails as a call, and lenient mode gives its raw
// text back as content.
mode HERMES_LENIENT;
LN_TEXT      : ~[<`]+ ;
LN_LT        : '<' ;
LN_TICK      : '`' ;
LN_OPEN      : '<tool_call>' -> pushMode(HC_CALL) ;
LN_TOOLS     : '<tools>' -> pushMode(LN_TOOLS_CALL) ;
LN_TOOL      : '<tool>' -> pushMode(LN_TOOL_CALL) ;
LN_FENCE     : '```' 'json'? [ \t]* '\r'? '\n' [ \t\r\n]* '{' -> pushMode(LN_FENCE_AFTER), pushMode(JC_KEY) ;

mode LN_TOOLS_CALL;
LN_TOOLS_WS   : [ \t\r\n]+ ;
LN_TOOLS_OBJ  : '{' -> mode(LN_TOOLS_AFTER), pushMode(JC_KEY) ;

mode LN_TOOLS_AFTER;
LN_TOOLS_AFTER_WS : [ \t\r\n]+ ;
LN_TOOLS_CLOSE    : '</tools>' -> popMode ;

mode LN_TOOL_CALL;
LN_TOOL_WS    : [ \t\r\n]+ ;
LN_TOOL_OBJ   : '{' -> mode(LN_TOOL_AFTER), pushMode(JC_KEY) ;

mode LN_TOOL_AFTER;
LN_TOOL_AFTER_WS : [ \t\r\n]+ ;
LN_TOOL_CLOSE    : '</tool>' -> popMode ;

mode LN_FENCE_AFTER;
LN_FENCE_WS    : [ \t\r\n]+ ;
LN_FENCE_CLOSE : '```' -> popMode ;
