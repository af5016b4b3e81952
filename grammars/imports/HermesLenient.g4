// Shared: the lenient mode of Hermes-shaped formats (hermes, granite4). A format file that names
// "lenientMode": "HERMES_LENIENT" starts there when parsing is lenient: the default mode's rules plus
// the wrappers Hermes-style models slip into instead of <tool_call>. The host imports HermesCall,
// JsonCall and JsonValue too; roles are in HermesLenient.json.
lexer grammar HermesLenient;

//   <tools>{"name": ..., "arguments": {...}}</tools>      <tool>{...}</tool>
//   ```json\n{"name": ..., "arguments": {...}}\n```        (a fenced block holding one call object)
// A wrapper whose object is not a call (no "name") fails as a call, and lenient mode gives its raw
// text back as content.

fragment LN_WS : [ \t\r\n]+ ;

mode HERMES_LENIENT;
LN_TEXT      : ~[<`]+ ;
LN_LT        : '<' ;
LN_TICK      : '`' ;
LN_OPEN      : '<tool_call>' -> pushMode(HC_CALL) ;
LN_TOOLS     : '<tools>' -> pushMode(LN_TOOLS_CALL) ;
LN_TOOL      : '<tool>' -> pushMode(LN_TOOL_CALL) ;
LN_FENCE     : '```' 'json'? [ \t]* '\r'? '\n' [ \t\r\n]* '{' -> pushMode(LN_FENCE_AFTER), pushMode(JC_KEY) ;

mode LN_TOOLS_CALL;
LN_TOOLS_WS   : LN_WS ;
LN_TOOLS_OBJ  : '{' -> mode(LN_TOOLS_AFTER), pushMode(JC_KEY) ;

mode LN_TOOLS_AFTER;
LN_TOOLS_AFTER_WS : LN_WS ;
LN_TOOLS_CLOSE    : '</tools>' -> popMode ;

mode LN_TOOL_CALL;
LN_TOOL_WS    : LN_WS ;
LN_TOOL_OBJ   : '{' -> mode(LN_TOOL_AFTER), pushMode(JC_KEY) ;

mode LN_TOOL_AFTER;
LN_TOOL_AFTER_WS : LN_WS ;
LN_TOOL_CLOSE    : '</tool>' -> popMode ;

mode LN_FENCE_AFTER;
LN_FENCE_WS    : LN_WS ;
LN_FENCE_CLOSE : '```' -> popMode ;
