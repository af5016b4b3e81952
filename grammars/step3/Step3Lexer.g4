// Step-3 tool calls (FORMATS.md 3.21): special-token section, then steptml XML per call.
//
//   <｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_weather">
//   <steptml:parameter name="city">Paris</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>
//
// (fullwidth bars U+FF5C and underscores, not U+2581). Whitespace is allowed between the pieces.
// A call is <｜tool_call_begin｜> ... <｜tool_call_end｜> (the first one with the section marker). Parameter values are raw text typed by
// the tool schema; they may contain '<' and even a literal </steptml:parameter>: a close tag only
// ends the value when the next parameter or </steptml:invoke> follows it (whitespace between),
// so the close token carries that look-ahead.
//
// Reasoning (FORMATS.md 4, vLLM step3 reasoning parser): the prompt opens the think block, the
// model writes only </think>, and everything before it is reasoning. So thinking is on by default
// and the output starts in S3_THINK_M ("thinkingMode"); with thinking off it starts as content.
// Inside the block a <think> the model repeats anyway is dropped; everything else is reasoning
// text, <｜tool_calls_begin｜> included: a call written while thinking is quoted, never made.
// Output without </think> is reasoning to the end.
lexer grammar Step3Lexer;

fragment S3_WS_F : [ \t\r\n]+ ;

// ---- content -----------------------------------------------------------------------------
S3_TEXT          : ~'<'+ ;
S3_LT            : '<' ;
S3_SECTION_OPEN  : '<｜tool_calls_begin｜>' -> pushMode(S3_SECTION_M) ;
// the section's first call begins at the section marker, so that a malformed first call given
// back as content (lenient mode) keeps the marker
S3_FIRST_CALL    : '<｜tool_calls_begin｜>' S3_WS_F? '<｜tool_call_begin｜>' -> pushMode(S3_SECTION_M), pushMode(S3_HEAD_M) ;

// ---- reasoning ---------------------------------------------------------------------------
mode S3_THINK_M;
S3_R_TEXT        : ~'<'+ ;
S3_R_LT          : '<' ;
S3_R_REOPEN      : '<think>' ;
S3_THINK_CLOSE   : '</think>' -> popMode ;

// ---- inside the section: calls and whitespace -----------------------------------------------
mode S3_SECTION_M;
S3_SECTION_WS    : S3_WS_F ;
S3_CALL_OPEN     : '<｜tool_call_begin｜>' -> pushMode(S3_HEAD_M) ;
// a <｜tool_sep｜> between two calls (vLLM's parallel-call test writes one; a Rust Step-3 parser
// reads it as a separator) separates nothing: skipped
S3_SECTION_SEP   : '<｜tool_sep｜>' ;
S3_SECTION_CLOSE : '<｜tool_calls_end｜>' -> popMode ;

// ---- call head: function<｜tool_sep｜><steptml:invoke ---------------------------------------
// Three heads are read: the template's 'function<｜tool_sep｜>' right before the invoke; the same
// with the function's name and a newline after the separator ('function<｜tool_sep｜>NAME\n<steptml:invoke',
// vLLM's test writes it; the name that counts is the invoke's); and no head at all, the invoke right
// after <｜tool_call_begin｜> (vLLM's tests and its streaming parser, a Rust Step-3 parser).
mode S3_HEAD_M;
S3_HEAD_WS       : S3_WS_F ;
S3_TYPE_SEP      : 'function' S3_WS_F? '<｜tool_sep｜>' -> mode(S3_INVOKE_M) ;
S3_BARE_INVOKE   : '<steptml:invoke' -> mode(S3_IATTR_M) ;

mode S3_INVOKE_M;
S3_INVOKE_WS     : S3_WS_F ;
S3_INVOKE_OPEN   : '<steptml:invoke' -> mode(S3_IATTR_M) ;
S3_HEAD_NAME     : ~[<>"\u005C \t\r\n]+ -> mode(S3_INVOKE2_M) ;

// after the head's name: whitespace, then the invoke
mode S3_INVOKE2_M;
S3_INVOKE2_WS    : S3_WS_F ;
S3_INVOKE2_OPEN  : '<steptml:invoke' -> mode(S3_IATTR_M) ;

// ---- invoke attributes: name="NAME" ---------------------------------------------------------
mode S3_IATTR_M;
S3_IATTR_WS      : S3_WS_F ;
S3_NAME_ATTR     : 'name' [ \t]* '=' [ \t]* -> mode(S3_INAME_M) ;
S3_IATTR_END     : '>' -> mode(S3_BODY_M) ;

mode S3_INAME_M;
S3_NAME          : '"' ~["\\<>\r\n]* '"' -> mode(S3_IATTR_TAIL_M) ;

mode S3_IATTR_TAIL_M;
S3_ITAIL_WS      : S3_WS_F ;
S3_ITAIL_END     : '>' -> mode(S3_BODY_M) ;

// ---- invoke body: parameters ----------------------------------------------------------------
mode S3_BODY_M;
S3_BODY_WS       : S3_WS_F ;
S3_PARAM_OPEN    : '<steptml:parameter' S3_WS_F 'name="' -> mode(S3_KEY_M) ;
S3_INVOKE_CLOSE  : '</steptml:invoke>' -> mode(S3_AFTER_M) ;

mode S3_KEY_M;
S3_KEY           : ~["<>\r\n]+ -> mode(S3_KTAIL_M) ;

mode S3_KTAIL_M;
S3_KEY_END       : '"' [ \t]* '>' -> mode(S3_VALUE_M) ;

mode S3_VALUE_M;
S3_V_TEXT        : ~'<'+ ;
S3_V_LT          : '<' ;
S3_P_CLOSE_NEXT  : '</steptml:parameter>' S3_WS_F? '<steptml:parameter' S3_WS_F 'name="' -> mode(S3_KEY_M) ;
S3_P_CLOSE_LAST  : '</steptml:parameter>' S3_WS_F? '</steptml:invoke>' -> mode(S3_AFTER_M) ;

// ---- after </steptml:invoke>: the call's end marker -----------------------------------------
mode S3_AFTER_M;
S3_AFTER_WS      : S3_WS_F ;
S3_CALL_CLOSE    : '<｜tool_call_end｜>' -> popMode ;
