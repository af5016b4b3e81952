// Shared: the body of a TeleChat 4 / Xing 4.0 call after its '<tool_call>' (telechat4, xing4_0;
// TensorRT-LLM telechat4_parser.py, xing4_0_parser.py). Three bodies:
//
//   <tool_call>get_weather<param_key>city</param_key><param_value>Paris</param_value></tool_call>
//   <tool_call>get_weather{"city": "Paris"}</tool_call>
//   <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>
//
// A host enters TLC_NAME with '<tool_call>' -> pushMode(TLC_NAME); '</tool_call>' pops back.
// - Pairs: whitespace may separate the name, the pairs, and key from value; keys are the text
//   between the key tags, values the raw text between the value tags (typed by the tool schema).
// - A name and a JSON object: the object is the arguments, or (TensorRT-LLM unwraps it) an object
//   whose first member is "arguments"/"parameters" holds them: {"arguments": {...}}.
// - A JSON call object, read by the shared JsonCall grammar (import JsonCall and JsonValue too).
// Roles are in TeleChatCalls.json.
lexer grammar TeleChatCalls;

fragment TLC_WS      : [ \t\r\n] ;
fragment TLC_NAME_CH : ~[<>{}[\]()"'`,=;\\ \t\r\n] ;

// ---- after <tool_call>: a name or a JSON call object ------------------------------------------
mode TLC_NAME;
TLC_NAME_WS    : TLC_WS+ ;
TLC_NAME_TEXT  : TLC_NAME_CH+ -> mode(TLC_AFTER_NAME) ;
TLC_CALL_OBJ   : '{' -> mode(TLC_END), pushMode(JC_KEY) ;

// ---- after the name: pairs, a JSON arguments object, or the end ----------------------------------
mode TLC_AFTER_NAME;
TLC_AFTER_WS   : TLC_WS+ ;
TLC_AFTER_KEY  : '<param_key>' -> mode(TLC_KEY) ;
TLC_AFTER_CLOSE: '</tool_call>' -> popMode ;
TLC_ARGS_OBJ   : '{' -> mode(TLC_END), pushMode(JV_NEST) ;
TLC_ARGS_WRAP  : '{' TLC_WS* ( '"arguments"' | '"parameters"' ) TLC_WS* ':' TLC_WS* -> mode(TLC_WRAPPED) ;

// ---- {"arguments": {...}}: the inner object, then the outer '}' ----------------------------------
mode TLC_WRAPPED;
TLC_WRAP_OBJ   : '{' -> mode(TLC_WRAP_END), pushMode(JV_NEST) ;

mode TLC_WRAP_END;
TLC_WRAP_WS    : TLC_WS+ ;
TLC_WRAP_CLOSE : '}' -> mode(TLC_END) ;

// ---- after a JSON body: the close tag ---------------------------------------------------------
mode TLC_END;
TLC_END_WS     : TLC_WS+ ;
TLC_END_CLOSE  : '</tool_call>' -> popMode ;

// ---- the pairs --------------------------------------------------------------------------------
mode TLC_BODY;
TLC_BODY_WS    : TLC_WS+ ;
TLC_KEY_OPEN   : '<param_key>' -> mode(TLC_KEY) ;
TLC_CALL_CLOSE : '</tool_call>' -> popMode ;

mode TLC_KEY;
TLC_KEY_TEXT   : ~'<'+ -> mode(TLC_KEY_END) ;

mode TLC_KEY_END;
TLC_KEY_CLOSE  : '</param_key>' -> mode(TLC_BETWEEN) ;

mode TLC_BETWEEN;
TLC_BETWEEN_WS : TLC_WS+ ;
TLC_VALUE_OPEN : '<param_value>' -> mode(TLC_VALUE) ;

mode TLC_VALUE;
TLC_VALUE_TEXT : ~'<'+ ;
TLC_VALUE_LT   : '<' ;
TLC_VALUE_CLOSE: '</param_value>' -> mode(TLC_BODY) ;
