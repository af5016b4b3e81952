// Shared: the argument pairs of a GLM-4.5 / GLM-4.7 call after its name (FORMATS.md 3.13),
// used by glm45 and glm47:
//
//   <arg_key>city</arg_key>
//   <arg_value>Paris</arg_value>
//   </tool_call>
//
// A host grammar enters GA_BODY (with mode(GA_BODY), on the stack pushed by its '<tool_call>')
// once the name is read; '</tool_call>' (GA_CALL_CLOSE, call.end) pops back. Whitespace may
// separate pairs, the last pair from '</tool_call>', and key from value; so may a literal
// backslash-n (two characters), as some GLM outputs write (SGLang's GLM detectors read it).
// The key is the text between the key tags (stripped; an empty key is not a key); the value is the
// raw text between the value tags, streamed as it arrives (GA_VALUE_TEXT excludes '<', a lone '<'
// is GA_VALUE_LT) and typed by the tool schema. Roles are in GlmArgs.json.
lexer grammar GlmArgs;

fragment GA_SPACE : [ \t\r\n] ;
// characters of a function name (used by the host grammars): anything but blanks, tag and quote
// characters, brackets, ',', '=', ';'
fragment GA_NAME_CHAR : ~[<>{}[\]()"'`,=;\\ \t\r\n] ;

// ---- between pairs: whitespace, a key, or the end of the call ------------------------------
mode GA_BODY;
GA_BODY_WS     : [ \t\r\n]+ ;
GA_BODY_ESC_NL : '\\n' ;
GA_KEY_OPEN    : '<arg_key>' -> mode(GA_KEY) ;
GA_CALL_CLOSE  : '</tool_call>' -> popMode ;

// ---- the key --------------------------------------------------------------------------------
mode GA_KEY;
GA_KEY_TEXT    : ~'<'+ -> mode(GA_KEY_END) ;

mode GA_KEY_END;
GA_KEY_CLOSE   : '</arg_key>' -> mode(GA_BETWEEN) ;

// ---- between key and value --------------------------------------------------------------------
mode GA_BETWEEN;
GA_BETWEEN_WS  : ( GA_SPACE | '\\n' )+ ;
GA_VALUE_OPEN  : '<arg_value>' -> mode(GA_VALUE) ;

// ---- the raw value ----------------------------------------------------------------------------
mode GA_VALUE;
GA_VALUE_TEXT  : ~'<'+ ;
GA_VALUE_LT    : '<' ;
GA_VALUE_CLOSE : '</arg_value>' -> mode(GA_BODY) ;
