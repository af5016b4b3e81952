// GigaChat 3 / 3.1 (vLLM and SGLang gigachat3, llama.cpp GIGACHAT_V3): content, then one call as a
// new message whose role line is the plain words "function call":
//
//   I'll check that for you.<|message_sep|>
//
//   function call<|role_sep|>
//   {"name": "get_weather", "arguments": {"city": "Paris"}}
//
// The call begins at <|message_sep|> (whitespace) "function call<|role_sep|>" - or at the words
// alone, as vLLM and SGLang search for them anywhere - or at GigaChat 3.1's <|function_call|>
// token; then whitespace and one call object (members from the shared JsonCall grammar), whose
// closing '}' ends the call. A </s> and blank space after it are dropped; other text after it is
// content. A <|message_sep|> that does not open a call is dropped (the peers cut the content
// there). The header is made of ordinary words, so content rules stop at 'f' as well as '<' and
// the runtime holds back "function c..." until it is or is not the header. No reasoning
// (llama.cpp: supports_thinking = false).
lexer grammar Gigachat3Lexer;
import JsonCall, JsonValue;

fragment G_WS_F   : [ \t\r\n]+ ;
fragment G_HEADER : 'function call<|role_sep|>' ;

// ---- content -----------------------------------------------------------------------------
TEXT          : ~[<f]+ ;
F             : 'f' ;
LT            : '<' ;
MSG_SEP       : '<|message_sep|>' ;
CALL_OPEN     : ( '<|message_sep|>' G_WS_F? )? G_HEADER -> pushMode(G_OBJ) ;
CALL_OPEN_31  : '<|function_call|>' -> pushMode(G_OBJ) ;

// ---- after the header: the call object ---------------------------------------------------------
mode G_OBJ;
G_OBJ_WS      : G_WS_F ;
G_OBJ_OPEN    : '{' -> mode(G_AFTER), pushMode(JC_KEY) ;

// ---- after the call object: </s> and blank space are dropped, then content again ---------------
// (the default mode's rules, repeated so that a marker right after the object is still a marker)
mode G_AFTER;
G_EOS         : G_WS_F? '</s>' G_WS_F? -> popMode ;
G_AFTER_WS    : G_WS_F -> popMode ;
G_AFTER_TEXT  : ~[<f \t\r\n] ~[<f]* -> type(TEXT), popMode ;
G_AFTER_F     : 'f' -> type(F), popMode ;
G_AFTER_LT    : '<' -> type(LT), popMode ;
G_AFTER_SEP   : '<|message_sep|>' -> type(MSG_SEP), popMode ;
G_AFTER_CALL  : ( '<|message_sep|>' G_WS_F? )? G_HEADER -> type(CALL_OPEN), mode(G_OBJ) ;
G_AFTER_CALL_31 : '<|function_call|>' -> type(CALL_OPEN_31), mode(G_OBJ) ;
