// FunctionGemma tool calls (FORMATS.md 3.24): Gemma 4's call syntax one generation earlier, with
// the plain-text special tokens <start_function_call> / <end_function_call> and <escape> as the
// string delimiter.
//
//   Checking.<start_function_call>call:get_weather{location:<escape>London<escape>,days:3}<end_function_call>
//
// Calls are concatenated with no separator; text before, between and after them is content (a
// stray <end_function_call> there is dropped). Keys are unquoted (or <escape>-quoted); the comma
// between arguments may be missing (vLLM's regex reading accepts that, and its tests write it).
// A top-level value is
//   - <escape>TEXT<escape>: a raw value typed by the tool schema (the 270M model often escapes
//     numbers and booleans, e.g. count:<escape>42<escape>); without a schema it is a string, as
//     written. Everything up to the next <escape> belongs to it, '<' and <end_function_call> included;
//   - a bare number, true/false/null (other bare words are kept as strings);
//   - a nested object {k:...} or array [...] of such literals, strings <escape>-delimited; their
//     brackets pair by kind.
// A call with '{' where the name should be has no name (missing_name).
lexer grammar FunctionGemmaLexer;

fragment FG_WS_F   : [ \t\r\n]+ ;
fragment FG_KEY_F  : ~[:,{}[\]<>|" \t\r\n]+ ;
fragment FG_ATOM_F : [a-zA-Z0-9_.+\-]+ ;
fragment FG_ESC_F  : '<escape>' ;

// ---- content ------------------------------------------------------------------------------
TEXT          : ~'<'+ ;
LT            : '<' ;
CALL_OPEN     : '<start_function_call>' -> pushMode(FG_CALL) ;
STRAY_END     : '<end_function_call>' ;

// ---- call:NAME{ ... }<end_function_call> -----------------------------------------------------
mode FG_CALL;
FG_CALL_WS    : FG_WS_F ;
FG_CALL_KW    : 'call:' -> mode(FG_NAME) ;

mode FG_NAME;
FG_NAME_ID    : [a-zA-Z0-9_.\-]+ -> mode(FG_BRACE) ;
FG_NO_NAME    : '{' -> mode(FG_KEY) ;

mode FG_BRACE;
FG_ARGS_OPEN  : '{' -> mode(FG_KEY) ;

mode FG_KEY;         // after '{' or a comma: a key or '}'
FG_KEY_WS     : FG_WS_F ;
FG_ARG_KEY    : FG_KEY_F -> mode(FG_COLON) ;
FG_QKEY_OPEN  : FG_ESC_F -> mode(FG_QKEY) ;
FG_ARGS_CLOSE : '}' -> mode(FG_END) ;

mode FG_QKEY;        // <escape>key<escape>
FG_QKEY_TEXT  : ~'<'+ -> mode(FG_QKEY_END) ;

mode FG_QKEY_END;
FG_QKEY_CLOSE : FG_ESC_F -> mode(FG_COLON) ;

mode FG_COLON;
FG_COLON_WS   : FG_WS_F ;
FG_COLON_SIGN : ':' -> mode(FG_NEXT), pushMode(FG_VALUE) ;

mode FG_NEXT;        // after a value: a comma, '}', or (comma left out) the next key
FG_NEXT_WS    : FG_WS_F ;
FG_COMMA      : ',' -> mode(FG_KEY) ;
FG_NEXT_CLOSE : '}' -> mode(FG_END) ;
FG_NEXT_KEY   : FG_KEY_F -> type(FG_ARG_KEY), mode(FG_COLON) ;
FG_NEXT_QKEY  : FG_ESC_F -> type(FG_QKEY_OPEN), mode(FG_QKEY) ;

mode FG_END;
FG_END_WS     : FG_WS_F ;
CALL_CLOSE    : '<end_function_call>' -> popMode ;

// ---- a top-level value; pops when complete ---------------------------------------------------
mode FG_VALUE;
FG_V_WS       : FG_WS_F ;
FG_V_ATOM     : FG_ATOM_F -> popMode ;
FG_V_RAW      : FG_ESC_F -> mode(FG_RAW) ;
FG_V_OBJ      : '{' -> mode(FG_OBJ) ;
FG_V_ARR      : '[' -> mode(FG_ARR) ;

// ---- an <escape>-delimited top-level value: raw text typed by the schema ----------------------
mode FG_RAW;
FG_RAW_TEXT   : ~'<'+ ;
FG_RAW_LT     : '<' ;
FG_RAW_END    : FG_ESC_F -> popMode ;

// ---- nested object: after '{' or a comma, a key or '}' -------------------------------------
mode FG_OBJ;
FG_O_WS       : FG_WS_F ;
FG_O_KEY      : FG_KEY_F -> mode(FG_OCOLON) ;
FG_O_STRKEY   : FG_ESC_F -> mode(FG_OCOLON), pushMode(FG_STR) ;
FG_O_CLOSE    : '}' -> popMode ;

mode FG_OCOLON;
FG_OC_WS      : FG_WS_F ;
FG_OC_COLON   : ':' -> mode(FG_OVAL) ;

mode FG_OVAL;
FG_OV_WS      : FG_WS_F ;
FG_OV_ATOM    : FG_ATOM_F -> mode(FG_ONEXT) ;
FG_OV_STR     : FG_ESC_F -> mode(FG_ONEXT), pushMode(FG_STR) ;
FG_OV_OBJ     : '{' -> mode(FG_ONEXT), pushMode(FG_OBJ) ;
FG_OV_ARR     : '[' -> mode(FG_ONEXT), pushMode(FG_ARR) ;

mode FG_ONEXT;
FG_ON_WS      : FG_WS_F ;
FG_ON_COMMA   : ',' -> mode(FG_OBJ) ;
FG_ON_CLOSE   : '}' -> popMode ;

// ---- array: after '[' or a comma, an item or ']' -------------------------------------------
mode FG_ARR;
FG_A_WS       : FG_WS_F ;
FG_A_ATOM     : FG_ATOM_F -> mode(FG_ANEXT) ;
FG_A_STR      : FG_ESC_F -> mode(FG_ANEXT), pushMode(FG_STR) ;
FG_A_OBJ      : '{' -> mode(FG_ANEXT), pushMode(FG_OBJ) ;
FG_A_ARR      : '[' -> mode(FG_ANEXT), pushMode(FG_ARR) ;
FG_A_CLOSE    : ']' -> popMode ;

mode FG_ANEXT;
FG_AN_WS      : FG_WS_F ;
FG_AN_COMMA   : ',' -> mode(FG_ARR) ;
FG_AN_CLOSE   : ']' -> popMode ;

// ---- nested string: everything up to the next <escape>, streamed as it arrives -------------
mode FG_STR;
FG_CHARS      : ~'<'+ ;
FG_LT         : '<' ;
FG_STR_END    : FG_ESC_F -> popMode ;
