// GigaChat 3.5 tool calls (SGLang and llama.cpp gigachat35, vLLM's gigachat35 parser): GCML, a
// DSML-like markup with its own namespace, after the message's text:
//
//   I'll check.
//
//   <｜GCML｜tool_calls>
//   <｜GCML｜invoke name="get_weather">
//   <｜GCML｜parameter name="city" string="true">Moscow</｜GCML｜parameter>
//   <｜GCML｜parameter name="days" string="false">3</｜GCML｜parameter>
//   </｜GCML｜invoke>
//   </｜GCML｜tool_calls>
//
// The bars are U+FF5C. One wrapper holds one invoke per call. string="true": the value is a
// string as written; string="false": JSON (kept as a string when it is not); no string attribute
// (vLLM's parser allows that): typed by the tool schema. Values are raw text and may contain '<',
// a prefix of the close tag and even a literal </｜GCML｜parameter>: a close tag only ends the value
// when the next parameter or </｜GCML｜invoke> follows it (whitespace between). Text around the
// wrapper is content; <|message_sep|> and </s> (the template's message end) are dropped.
//
// Reasoning (TaggedThink): <think>...</think>. The base template defaults to reasoning=False and
// the output is plain; the Reasoning template (or reasoning=True) ends the prompt with <think>,
// so the output starts inside reasoning (thinkingMode TT_LEAD, --thinking on). A <think> the
// model writes in content opens reasoning. A call written inside reasoning is reasoning text.
lexer grammar Gigachat35Lexer;
import TaggedThink;

fragment GC_WS_F          : [ \t\r\n]+ ;
fragment GC_INVOKE_OPEN_F : '<｜GCML｜invoke' ;
fragment GC_PARAM_OPEN_F  : '<｜GCML｜parameter' GC_WS_F 'name="' ;

// ---- content -----------------------------------------------------------------------------
TEXT          : ~'<'+ ;
LT            : '<' ;
WRAP_OPEN     : '<｜GCML｜tool_calls>' -> pushMode(GC_WRAP_M) ;
// the wrapper's first call begins at the wrapper marker, so that a malformed first call given
// back as content (lenient mode) keeps the marker
FIRST_CALL    : '<｜GCML｜tool_calls>' GC_WS_F? GC_INVOKE_OPEN_F -> pushMode(GC_WRAP_M), pushMode(GC_IATTR_M) ;
THINK_OPEN    : '<think>' -> pushMode(TT_THINK) ;
MESSAGE_SEP   : '<|message_sep|>' ;
EOS           : '</s>' ;

// ---- inside the wrapper: invokes and whitespace ---------------------------------------------
mode GC_WRAP_M;
GC_WRAP_WS    : GC_WS_F ;
GC_INVOKE     : GC_INVOKE_OPEN_F -> pushMode(GC_IATTR_M) ;
GC_WRAP_CLOSE : '</｜GCML｜tool_calls>' -> popMode ;

// ---- invoke attributes: name="NAME" ---------------------------------------------------------
mode GC_IATTR_M;
GC_IATTR_WS   : GC_WS_F ;
GC_NAME_ATTR  : 'name' [ \t]* '=' [ \t]* -> mode(GC_INAME_M) ;
GC_IATTR_END  : '>' -> mode(GC_BODY_M) ;

mode GC_INAME_M;
GC_NAME       : '"' ~["\\<>\r\n]* '"' -> mode(GC_ITAIL_M) ;

mode GC_ITAIL_M;
GC_ITAIL_WS   : GC_WS_F ;
GC_ITAIL_END  : '>' -> mode(GC_BODY_M) ;

// ---- invoke body: parameters ----------------------------------------------------------------
mode GC_BODY_M;
GC_BODY_WS    : GC_WS_F ;
GC_PARAM_OPEN : GC_PARAM_OPEN_F -> mode(GC_KEY_M) ;
GC_INVOKE_CLOSE : '</｜GCML｜invoke>' -> popMode ;

mode GC_KEY_M;
GC_KEY        : ~["<>\r\n]+ -> mode(GC_KTAIL_M) ;

mode GC_KTAIL_M;
GC_KEY_END    : '"' -> mode(GC_PATTR_M) ;

// ---- parameter attributes after the name: string="true" | string="false" --------------------
mode GC_PATTR_M;
GC_PATTR_WS   : [ \t]+ ;
GC_AS_STRING  : 'string' [ \t]* '=' [ \t]* '"true"' ;
GC_AS_JSON    : 'string' [ \t]* '=' [ \t]* '"false"' ;
GC_PATTR_END  : '>' -> mode(GC_VALUE_M) ;

mode GC_VALUE_M;
GC_V_TEXT     : ~'<'+ ;
GC_V_LT       : '<' ;
GC_P_CLOSE_NEXT : '</｜GCML｜parameter>' GC_WS_F? GC_PARAM_OPEN_F -> mode(GC_KEY_M) ;
GC_P_CLOSE_LAST : '</｜GCML｜parameter>' GC_WS_F? '</｜GCML｜invoke>' -> popMode ;
