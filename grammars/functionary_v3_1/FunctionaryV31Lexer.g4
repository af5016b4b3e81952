// MeetKai Functionary v3.1 on Llama 3.1 (llama.cpp FUNCTIONARY_V3_1_LLAMA_3_1):
//
//   Let me check.<function=get_weather>{"city": "Paris"}</function>
//
// A call is <function=NAME>, the arguments as one raw JSON object, and </function>; calls may sit
// anywhere in the text, which is content before, between and after them (llama.cpp's test:
// "Hell<function=foo>{...}</function>o, world<function=bar>{...}</function>!" has the content
// "Hello, world!"). Whitespace around the object is allowed. The name is one run of name
// characters (llama.cpp: \w+). Llama 3.1's <|python_tag|> form (raw code for the python tool,
// arguments {"code": ...} in llama.cpp) cannot be expressed: there is no text for the name or the
// key, so it stays content, tag included (see README.md).
lexer grammar FunctionaryV31Lexer;
import JsonValue;

fragment FN_WS_F : [ \t\r\n]+ ;

// ---- content -----------------------------------------------------------------------------
TEXT        : ~'<'+ ;
LT          : '<' ;
CALL_OPEN   : '<function=' -> pushMode(FN_NAME) ;

// ---- the name, then '>' ------------------------------------------------------------------------
mode FN_NAME;
FN_NAME_TEXT : ~[<>{}[\]()"'`,=;\\ \t\r\n]+ -> mode(FN_NAME_END) ;

mode FN_NAME_END;
FN_NAME_GT  : '>' -> mode(FN_ARGS) ;

// ---- the arguments: one JSON object ------------------------------------------------------------
mode FN_ARGS;
FN_ARGS_WS  : FN_WS_F ;
FN_ARGS_OPEN : [{[] -> mode(FN_AFTER), pushMode(JV_NEST) ;

mode FN_AFTER;
FN_AFTER_WS : FN_WS_F ;
FN_CLOSE    : '</function>' -> popMode ;
