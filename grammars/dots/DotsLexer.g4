// dots.llm tool calls (FORMATS.md 3.28; vLLM tool_parsers/dots_tool_parser.py, SGLang
// dots_detector.py):
//
//   <dots_function_call>
//   <invoke name="search">
//   <parameter name="query">weather in Shanghai</parameter>
//   </invoke>
//   </dots_function_call>
//
// Several <invoke> elements (one call each) per block, several blocks per output. Names and
// parameter names are quoted ("..." or '...') or bare; values are raw text typed by the tool
// schema, kept verbatim; they may contain '<', a prefix of </parameter> and even a literal
// </parameter>: a close tag only ends the value when the next <parameter or </invoke> follows it
// (whitespace between). Both peers also accept a block whose body is one JSON call object:
//
//   <dots_function_call>{"name": "search", "arguments": {"query": "weather"}}</dots_function_call>
//
// read with the shared JsonCall grammar ("arguments" or "parameters", streamed verbatim). An
// <invoke> outside a block, and a stray </dots_function_call>, are content. No reasoning.
lexer grammar DotsLexer;
import JsonCall, JsonValue;

fragment DOTS_WS_F   : [ \t\r\n]+ ;
fragment DOTS_NAME_EQ : 'name' [ \t]* '=' [ \t]* ;

// ---- content -----------------------------------------------------------------------------
DOTS_TEXT         : ~'<'+ ;
DOTS_LT           : '<' ;
DOTS_BLOCK_OPEN   : '<dots_function_call>' -> pushMode(DOTS_BLOCK_M) ;
// the block's first call begins at the block marker, so that a malformed first call given back
// as content (lenient mode) keeps the marker
DOTS_FIRST_INVOKE : '<dots_function_call>' DOTS_WS_F? '<invoke' -> pushMode(DOTS_BLOCK_M), pushMode(DOTS_IATTR_M) ;
DOTS_FIRST_JSON   : '<dots_function_call>' DOTS_WS_F? '{' -> pushMode(DOTS_AFTER_JSON_M), pushMode(JC_KEY) ;

// ---- inside a block: invokes and whitespace -------------------------------------------------
mode DOTS_BLOCK_M;
DOTS_BLOCK_WS     : DOTS_WS_F ;
DOTS_INVOKE_OPEN  : '<invoke' -> pushMode(DOTS_IATTR_M) ;
DOTS_BLOCK_CLOSE  : '</dots_function_call>' -> popMode ;

// ---- after a JSON call object: whitespace, then the block's close ---------------------------
mode DOTS_AFTER_JSON_M;
DOTS_AFTER_JSON_WS : DOTS_WS_F ;
DOTS_JSON_CLOSE   : '</dots_function_call>' -> popMode ;

// ---- invoke attributes: name="NAME" | name='NAME' | name=NAME -------------------------------
mode DOTS_IATTR_M;
DOTS_IATTR_WS     : DOTS_WS_F ;
DOTS_NAME_ATTR    : DOTS_NAME_EQ -> mode(DOTS_INAME_M) ;
DOTS_IATTR_END    : '>' -> mode(DOTS_BODY_M) ;

mode DOTS_INAME_M;
DOTS_NAME_DQ      : '"' ~["\\<>\r\n]* '"' -> mode(DOTS_ITAIL_M) ;
DOTS_NAME_SQ_OPEN : '\'' -> mode(DOTS_INAME_SQ_M) ;
DOTS_NAME_BARE    : ~["'<>= \t\r\n]+ -> mode(DOTS_ITAIL_M) ;

mode DOTS_INAME_SQ_M;
DOTS_NAME_SQ      : ~['<>\r\n]+ ;
DOTS_NAME_SQ_CLOSE : '\'' -> mode(DOTS_ITAIL_M) ;

mode DOTS_ITAIL_M;
DOTS_ITAIL_WS     : DOTS_WS_F ;
DOTS_ITAIL_END    : '>' -> mode(DOTS_BODY_M) ;

// ---- invoke body: parameters ----------------------------------------------------------------
mode DOTS_BODY_M;
DOTS_BODY_WS      : DOTS_WS_F ;
DOTS_PARAM_OPEN   : '<parameter' DOTS_WS_F DOTS_NAME_EQ -> mode(DOTS_PNAME_M) ;
DOTS_INVOKE_CLOSE : '</invoke>' -> popMode ;

mode DOTS_PNAME_M;
DOTS_KEY_DQ_OPEN  : '"' -> mode(DOTS_KEY_DQ_M) ;
DOTS_KEY_SQ_OPEN  : '\'' -> mode(DOTS_KEY_SQ_M) ;
DOTS_KEY_BARE     : ~["'<>= \t\r\n]+ -> mode(DOTS_PTAIL_M) ;

mode DOTS_KEY_DQ_M;
DOTS_KEY_DQ       : ~["\r\n]+ -> mode(DOTS_KEY_DQ_END_M) ;

mode DOTS_KEY_DQ_END_M;
DOTS_KEY_DQ_CLOSE : '"' -> mode(DOTS_PTAIL_M) ;

mode DOTS_KEY_SQ_M;
DOTS_KEY_SQ       : ~['\r\n]+ -> mode(DOTS_KEY_SQ_END_M) ;

mode DOTS_KEY_SQ_END_M;
DOTS_KEY_SQ_CLOSE : '\'' -> mode(DOTS_PTAIL_M) ;

mode DOTS_PTAIL_M;
DOTS_PTAIL_WS     : [ \t]+ ;
DOTS_PTAIL_END    : '>' -> mode(DOTS_VALUE_M) ;

mode DOTS_VALUE_M;
DOTS_V_TEXT       : ~'<'+ ;
DOTS_V_LT         : '<' ;
DOTS_P_CLOSE_NEXT : '</parameter>' DOTS_WS_F? '<parameter' DOTS_WS_F DOTS_NAME_EQ -> mode(DOTS_PNAME_M) ;
DOTS_P_CLOSE_LAST : '</parameter>' DOTS_WS_F? '</invoke>' -> popMode ;
