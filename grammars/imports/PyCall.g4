// Shared: Python call syntax with keyword arguments whose values are Python literals, for the
// pythonic family (pythonic, llama4_pythonic, olmo3; FORMATS.md 3.4).
//
//   get_weather(city='Paris', days=3, opts={'unit': "C", 'alerts': [True, None]}, at=(1.5, -2))
//
// A host grammar enters on the token that begins a call, with pushMode(PY_CALL_NAME): optional
// whitespace, the (dotted) function name, '(' keyword arguments ')'; the ')' pops back. A '('
// where the name should be is a call without a name (the runtime reports missing_name).
// A keyword argument's value is entered with pushMode(PY_VALUE) and pops when it is complete; a
// nested list, tuple or dict pushes its own modes, so brackets pair by kind and every item is
// followed by a comma or the close. Values are transliterated to JSON token by token (lit.*
// roles, see PyCall.json):
//   strings  '..' ".." '''..''' """..""" (prefix u/U), raw r'..' r".." r'''..''' r"""..""" (prefix r/R)
//            escapes \n \t \r \b \f \v \a \0 \ooo \xhh \uXXXX \UXXXXXXXX \\ \' \" \<newline>;
//            an unknown escape such as \d keeps its backslash, as in Python; in raw strings every
//            backslash is kept
//   atoms    ints (1_000, 0x1F, 0o17, 0b101, signed), floats (1.5, .5, 1., 1e3), True/False/None
//            and the JSON spellings true/false/null
//   lists [..] and tuples (..) become arrays (so does a parenthesised single value (x), which
//   Python reads as x); dicts {..} objects (a non-string key is written as a string of its
//   spelling). A trailing comma is dropped. \N{NAME} escapes are not decoded (kept as written).
// Not accepted (unexpected_text): positional arguments, names or expressions as values, bytes and
// f-strings, a newline inside a one-line string.
lexer grammar PyCall;

fragment PY_WS_F    : [ \t\r\n]+ ;
fragment PY_ID_F    : [a-zA-Z_] [a-zA-Z0-9_]* ;
fragment PY_HEX_F   : [0-9a-fA-F] ;
fragment PY_DIGITS_F : [0-9] ('_'? [0-9])* ;
fragment PY_EXP_F   : [eE] [+\-]? PY_DIGITS_F ;
fragment PY_NUMBER_F
    : [+\-]? ( PY_DIGITS_F ('.' PY_DIGITS_F?)? PY_EXP_F?
             | '.' PY_DIGITS_F PY_EXP_F?
             | '0' [xX] ('_'? PY_HEX_F)+
             | '0' [oO] ('_'? [0-7])+
             | '0' [bB] ('_'? [01])+ )
    ;
fragment PY_ATOM_F  : PY_NUMBER_F | 'True' | 'False' | 'None' | 'true' | 'false' | 'null' ;
fragment PY_ESC_F
    : '\\' ( [\\'"abfnrtv\n]
           | [0-7] [0-7]? [0-7]?
           | 'x' PY_HEX_F PY_HEX_F
           | 'u' PY_HEX_F PY_HEX_F PY_HEX_F PY_HEX_F
           | 'U' PY_HEX_F PY_HEX_F PY_HEX_F PY_HEX_F PY_HEX_F PY_HEX_F PY_HEX_F PY_HEX_F )
    ;
// a backslash before a character that starts no escape: both are kept
fragment PY_BSL_F   : '\\' ~[\\'"abfnrtv\n0-7xuU] ;
fragment PY_SQ_F    : [uU]? '\'' ;
fragment PY_DQ_F    : [uU]? '"' ;
fragment PY_TSQ_F   : [uU]? '\'\'\'' ;
fragment PY_TDQ_F   : [uU]? '"""' ;
fragment PY_RSQ_F   : [rR] '\'' ;
fragment PY_RDQ_F   : [rR] '"' ;
fragment PY_RTSQ_F  : [rR] '\'\'\'' ;
fragment PY_RTDQ_F  : [rR] '"""' ;

// ---- the call: NAME ( key=value, ... ) ------------------------------------------------------
mode PY_CALL_NAME;
PY_NAME_WS   : PY_WS_F ;
PY_NAME      : PY_ID_F ('.' PY_ID_F)* -> mode(PY_CALL_PAREN) ;
PY_NO_NAME   : '(' [ \t\r\n]* -> mode(PY_KWARGS) ;

mode PY_CALL_PAREN;
PY_PAREN     : '(' [ \t\r\n]* -> mode(PY_KWARGS) ;

mode PY_KWARGS;      // after '(' or a comma: a keyword or ')'
PY_KW_WS     : PY_WS_F ;
PY_KEY       : PY_ID_F -> mode(PY_EQ) ;
PY_KW_CLOSE  : ')' -> popMode ;

mode PY_EQ;
PY_EQ_WS     : PY_WS_F ;
PY_EQ_SIGN   : '=' [ \t\r\n]* -> mode(PY_KWNEXT), pushMode(PY_VALUE) ;

mode PY_KWNEXT;      // after a value: a comma or ')'
PY_KWN_WS    : PY_WS_F ;
PY_KW_COMMA  : ',' [ \t\r\n]* -> mode(PY_KWARGS) ;
PY_KWN_CLOSE : ')' -> popMode ;

// ---- a keyword argument's value; pops when complete -----------------------------------------
mode PY_VALUE;
PY_V_WS      : PY_WS_F ;
PY_V_ATOM    : PY_ATOM_F -> popMode ;
PY_V_SQ      : PY_SQ_F   -> mode(PY_SQ) ;
PY_V_DQ      : PY_DQ_F   -> mode(PY_DQ) ;
PY_V_TSQ     : PY_TSQ_F  -> mode(PY_TSQ) ;
PY_V_TDQ     : PY_TDQ_F  -> mode(PY_TDQ) ;
PY_V_RSQ     : PY_RSQ_F  -> mode(PY_RSQ) ;
PY_V_RDQ     : PY_RDQ_F  -> mode(PY_RDQ) ;
PY_V_RTSQ    : PY_RTSQ_F -> mode(PY_RTSQ) ;
PY_V_RTDQ    : PY_RTDQ_F -> mode(PY_RTDQ) ;
PY_V_LIST    : '[' -> mode(PY_LIST) ;
PY_V_TUPLE   : '(' -> mode(PY_TUPLE) ;
PY_V_DICT    : '{' -> mode(PY_DICT) ;

// ---- list: after '[' or a comma, an item or ']' ---------------------------------------------
mode PY_LIST;
PY_L_WS      : PY_WS_F ;
PY_L_ATOM    : PY_ATOM_F -> mode(PY_LNEXT) ;
PY_L_SQ      : PY_SQ_F   -> mode(PY_LNEXT), pushMode(PY_SQ) ;
PY_L_DQ      : PY_DQ_F   -> mode(PY_LNEXT), pushMode(PY_DQ) ;
PY_L_TSQ     : PY_TSQ_F  -> mode(PY_LNEXT), pushMode(PY_TSQ) ;
PY_L_TDQ     : PY_TDQ_F  -> mode(PY_LNEXT), pushMode(PY_TDQ) ;
PY_L_RSQ     : PY_RSQ_F  -> mode(PY_LNEXT), pushMode(PY_RSQ) ;
PY_L_RDQ     : PY_RDQ_F  -> mode(PY_LNEXT), pushMode(PY_RDQ) ;
PY_L_RTSQ    : PY_RTSQ_F -> mode(PY_LNEXT), pushMode(PY_RTSQ) ;
PY_L_RTDQ    : PY_RTDQ_F -> mode(PY_LNEXT), pushMode(PY_RTDQ) ;
PY_L_LIST    : '[' -> mode(PY_LNEXT), pushMode(PY_LIST) ;
PY_L_TUPLE   : '(' -> mode(PY_LNEXT), pushMode(PY_TUPLE) ;
PY_L_DICT    : '{' -> mode(PY_LNEXT), pushMode(PY_DICT) ;
PY_L_CLOSE   : ']' -> popMode ;

mode PY_LNEXT;
PY_LN_WS     : PY_WS_F ;
PY_LN_COMMA  : ',' [ \t\r\n]* -> mode(PY_LIST) ;
PY_LN_CLOSE  : ']' -> popMode ;

// ---- tuple: after '(' or a comma, an item or ')' --------------------------------------------
mode PY_TUPLE;
PY_T_WS      : PY_WS_F ;
PY_T_ATOM    : PY_ATOM_F -> mode(PY_TNEXT) ;
PY_T_SQ      : PY_SQ_F   -> mode(PY_TNEXT), pushMode(PY_SQ) ;
PY_T_DQ      : PY_DQ_F   -> mode(PY_TNEXT), pushMode(PY_DQ) ;
PY_T_TSQ     : PY_TSQ_F  -> mode(PY_TNEXT), pushMode(PY_TSQ) ;
PY_T_TDQ     : PY_TDQ_F  -> mode(PY_TNEXT), pushMode(PY_TDQ) ;
PY_T_RSQ     : PY_RSQ_F  -> mode(PY_TNEXT), pushMode(PY_RSQ) ;
PY_T_RDQ     : PY_RDQ_F  -> mode(PY_TNEXT), pushMode(PY_RDQ) ;
PY_T_RTSQ    : PY_RTSQ_F -> mode(PY_TNEXT), pushMode(PY_RTSQ) ;
PY_T_RTDQ    : PY_RTDQ_F -> mode(PY_TNEXT), pushMode(PY_RTDQ) ;
PY_T_LIST    : '[' -> mode(PY_TNEXT), pushMode(PY_LIST) ;
PY_T_TUPLE   : '(' -> mode(PY_TNEXT), pushMode(PY_TUPLE) ;
PY_T_DICT    : '{' -> mode(PY_TNEXT), pushMode(PY_DICT) ;
PY_T_CLOSE   : ')' -> popMode ;

mode PY_TNEXT;
PY_TN_WS     : PY_WS_F ;
PY_TN_COMMA  : ',' [ \t\r\n]* -> mode(PY_TUPLE) ;
PY_TN_CLOSE  : ')' -> popMode ;

// ---- dict: after '{' or a comma, a key or '}'; then ':' and a value -------------------------
mode PY_DICT;
PY_K_WS      : PY_WS_F ;
PY_K_ATOM    : PY_ATOM_F -> mode(PY_DCOLON) ;
PY_K_SQ      : PY_SQ_F   -> mode(PY_DCOLON), pushMode(PY_SQ) ;
PY_K_DQ      : PY_DQ_F   -> mode(PY_DCOLON), pushMode(PY_DQ) ;
PY_K_TSQ     : PY_TSQ_F  -> mode(PY_DCOLON), pushMode(PY_TSQ) ;
PY_K_TDQ     : PY_TDQ_F  -> mode(PY_DCOLON), pushMode(PY_TDQ) ;
PY_K_RSQ     : PY_RSQ_F  -> mode(PY_DCOLON), pushMode(PY_RSQ) ;
PY_K_RDQ     : PY_RDQ_F  -> mode(PY_DCOLON), pushMode(PY_RDQ) ;
PY_K_RTSQ    : PY_RTSQ_F -> mode(PY_DCOLON), pushMode(PY_RTSQ) ;
PY_K_RTDQ    : PY_RTDQ_F -> mode(PY_DCOLON), pushMode(PY_RTDQ) ;
PY_K_CLOSE   : '}' -> popMode ;

mode PY_DCOLON;
PY_DC_WS     : PY_WS_F ;
PY_DC_COLON  : ':' -> mode(PY_DVAL) ;

mode PY_DVAL;
PY_D_WS      : PY_WS_F ;
PY_D_ATOM    : PY_ATOM_F -> mode(PY_DNEXT) ;
PY_D_SQ      : PY_SQ_F   -> mode(PY_DNEXT), pushMode(PY_SQ) ;
PY_D_DQ      : PY_DQ_F   -> mode(PY_DNEXT), pushMode(PY_DQ) ;
PY_D_TSQ     : PY_TSQ_F  -> mode(PY_DNEXT), pushMode(PY_TSQ) ;
PY_D_TDQ     : PY_TDQ_F  -> mode(PY_DNEXT), pushMode(PY_TDQ) ;
PY_D_RSQ     : PY_RSQ_F  -> mode(PY_DNEXT), pushMode(PY_RSQ) ;
PY_D_RDQ     : PY_RDQ_F  -> mode(PY_DNEXT), pushMode(PY_RDQ) ;
PY_D_RTSQ    : PY_RTSQ_F -> mode(PY_DNEXT), pushMode(PY_RTSQ) ;
PY_D_RTDQ    : PY_RTDQ_F -> mode(PY_DNEXT), pushMode(PY_RTDQ) ;
PY_D_LIST    : '[' -> mode(PY_DNEXT), pushMode(PY_LIST) ;
PY_D_TUPLE   : '(' -> mode(PY_DNEXT), pushMode(PY_TUPLE) ;
PY_D_DICT    : '{' -> mode(PY_DNEXT), pushMode(PY_DICT) ;

mode PY_DNEXT;
PY_DN_WS     : PY_WS_F ;
PY_DN_COMMA  : ',' [ \t\r\n]* -> mode(PY_DICT) ;
PY_DN_CLOSE  : '}' -> popMode ;

// ---- strings: characters stream as they arrive; the closing quote pops -----------------------
mode PY_SQ;
PY_SQ_CHARS  : ~['\\\r\n]+ ;
PY_SQ_ESC    : PY_ESC_F ;
PY_SQ_BSL    : PY_BSL_F ;
PY_SQ_END    : '\'' -> popMode ;

mode PY_DQ;
PY_DQ_CHARS  : ~["\\\r\n]+ ;
PY_DQ_ESC    : PY_ESC_F ;
PY_DQ_BSL    : PY_BSL_F ;
PY_DQ_END    : '"' -> popMode ;

mode PY_TSQ;
PY_TSQ_CHARS : ~['\\]+ ;
PY_TSQ_ESC   : PY_ESC_F ;
PY_TSQ_BSL   : PY_BSL_F ;
PY_TSQ_QUOTE : '\'' '\''? ;
PY_TSQ_END   : '\'\'\'' -> popMode ;

mode PY_TDQ;
PY_TDQ_CHARS : ~["\\]+ ;
PY_TDQ_ESC   : PY_ESC_F ;
PY_TDQ_BSL   : PY_BSL_F ;
PY_TDQ_QUOTE : '"' '"'? ;
PY_TDQ_END   : '"""' -> popMode ;

// raw strings: a backslash and the character after it are both kept (r'\'' is a backslash and a quote)
mode PY_RSQ;
PY_RSQ_CHARS : ~['\\\r\n]+ ;
PY_RSQ_BSL   : '\\' ~[\r\n] ;
PY_RSQ_END   : '\'' -> popMode ;

mode PY_RDQ;
PY_RDQ_CHARS : ~["\\\r\n]+ ;
PY_RDQ_BSL   : '\\' ~[\r\n] ;
PY_RDQ_END   : '"' -> popMode ;

mode PY_RTSQ;
PY_RTSQ_CHARS : ~['\\]+ ;
PY_RTSQ_BSL   : '\\' . ;
PY_RTSQ_QUOTE : '\'' '\''? ;
PY_RTSQ_END   : '\'\'\'' -> popMode ;

mode PY_RTDQ;
PY_RTDQ_CHARS : ~["\\]+ ;
PY_RTDQ_BSL   : '\\' . ;
PY_RTDQ_QUOTE : '"' '"'? ;
PY_RTDQ_END   : '"""' -> popMode ;
