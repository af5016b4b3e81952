// Upstage Solar Open 2 tool calls, vLLM "solar_open2" (solar_open2_tool_parser.py): the name on
// the start sentinel's line, then key/value sentinels:
//
//   <|tool_call:start|>get_weather
//   <|tool_arg:start|>city<|tool_arg:value|>Seoul<|tool_arg:end|>
//   <|tool_call:end|>
//
// The name is the rest of the start line (blanks around it skipped); a call may have no
// arguments ('<|tool_call:start|>get_time\n<|tool_call:end|>'), and the line break after the name
// may be missing before a sentinel. Keys are the text between <|tool_arg:start|> and
// <|tool_arg:value|>, values the raw text up to <|tool_arg:end|>, typed by the tool schema
// (values of parameters without a schema are strings). As in vLLM, a dropped sentinel does not
// swallow what follows: a value also ends at the next <|tool_arg:start|>, at <|tool_call:end|>
// or at the next <|tool_call:start|>, and a call also ends at the next <|tool_call:start|>.
// Only whole sentinels are tags: '<|tool_call:' inside a value is text.
//
// Reasoning: <|think:start|>...<|think:end|>. The template always prefills <|think:start|> and
// leaves it open unless reasoning_effort closes it, so by default the output starts inside
// reasoning (thinkingMode SO_LEAD) and <|think:end|> ends it. A <|tool_call:start|> in
// reasoning ends reasoning and starts a call (vLLM's streaming path does so); a <|think:end|>
// that then follows in content is dropped, as is any stray one (a special token, never text).
lexer grammar SolarOpen2Lexer;

fragment SO_NAME_CH : ~[<>{}[\]()"'`,=;\\ \t\r\n] ;

// ---- content -----------------------------------------------------------------------------
TEXT           : ~'<'+ ;
LT             : '<' ;
CALL_OPEN      : '<|tool_call:start|>' -> pushMode(SO_NAME) ;
THINK_OPEN     : '<|think:start|>' -> pushMode(SO_THINK) ;
STRAY_THINK_END: '<|think:end|>' ;

// ---- the start of an output that begins inside reasoning ---------------------------------------
mode SO_LEAD;
SO_LEAD_WS     : [ \t\r\n]+ ;
SO_LEAD_OPEN   : '<|think:start|>' -> mode(SO_THINK) ;
SO_LEAD_CHAR   : ~[< \t\r\n] -> mode(SO_THINK) ;
SO_LEAD_LT     : '<' -> mode(SO_THINK) ;
SO_LEAD_CLOSE  : '<|think:end|>' -> popMode ;
SO_LEAD_CALL   : '<|tool_call:start|>' -> popMode, pushMode(SO_NAME) ;

// ---- reasoning ----------------------------------------------------------------------------------
mode SO_THINK;
SO_R_TEXT      : ~'<'+ ;
SO_R_LT        : '<' ;
SO_R_CLOSE     : '<|think:end|>' -> popMode ;
SO_R_CALL      : '<|tool_call:start|>' -> popMode, pushMode(SO_NAME) ;

// ---- the name line ------------------------------------------------------------------------------
mode SO_NAME;
SO_NAME_WS     : [ \t]+ ;
SO_NAME_TEXT   : SO_NAME_CH+ ;
SO_NAME_NL     : '\r'? '\n' -> mode(SO_BODY) ;
SO_NAME_ARG    : '<|tool_arg:start|>' -> mode(SO_KEY) ;
SO_NAME_CLOSE  : '<|tool_call:end|>' -> popMode ;

// ---- between arguments ----------------------------------------------------------------------------
mode SO_BODY;
SO_BODY_WS     : [ \t\r\n]+ ;
SO_ARG_OPEN    : '<|tool_arg:start|>' -> mode(SO_KEY) ;
SO_CALL_CLOSE  : '<|tool_call:end|>' -> popMode ;
SO_NEXT_CALL   : '<|tool_call:start|>' -> mode(SO_NAME) ;

// ---- a key, then the value ---------------------------------------------------------------------------
mode SO_KEY;
SO_KEY_TEXT    : ~'<'+ -> mode(SO_KEY_END) ;

mode SO_KEY_END;
SO_VALUE_OPEN  : '<|tool_arg:value|>' -> mode(SO_VALUE) ;

mode SO_VALUE;
SO_VALUE_TEXT  : ~'<'+ ;
SO_VALUE_LT    : '<' ;
SO_VALUE_END   : '<|tool_arg:end|>' -> mode(SO_BODY) ;
SO_VALUE_ARG   : '<|tool_arg:start|>' -> mode(SO_KEY) ;
SO_VALUE_CLOSE : '<|tool_call:end|>' -> popMode ;
SO_VALUE_CALL  : '<|tool_call:start|>' -> mode(SO_NAME) ;
