// Llama 3.x / Llama 4 JSON tool calls (FORMATS.md 3.3):
//
//   Let me look that up. <|python_tag|>{"name": "get_weather", "parameters": {"city": "Paris"}}; {"name": ...}
//
// There is no marker that must precede a call: a '{' opens one only where it is followed (after
// optional whitespace) by a "name", "arguments" or "parameters" key, or by '"type": "function",'
// and one of those; any other '{' is content.
// The opening token therefore spans the '{' and that first key, and the rest of the object is
// the shared JsonCall grammar (so an object whose first key is another one, e.g. "id", is
// content). "; " between calls is a separator, never content: right after a call (mode L_AFTER)
// one ';' is dropped, and the whitespace around it is stripped as a segment edge. The optional
// <|python_tag|> is dropped wherever it appears. Content around calls is kept, each segment
// stripped and the segments joined with one space ("content": "segments" in llama3_json.json).
lexer grammar Llama3JsonLexer;
import JsonCall, JsonValue;

fragment L_WS        : [ \t\r\n]+ ;
// '"type": "function",' may come first (Llama 3.2 writes it; llama.cpp's regex allows it): it is
// part of the opener and says nothing more
fragment L_TYPE_FN   : '"type"' L_WS? ':' L_WS? '"function"' L_WS? ',' L_WS? ;
fragment L_BY_NAME   : '{' L_WS? L_TYPE_FN? '"name"' L_WS? ':' L_WS? ;
fragment L_BY_ARGS   : '{' L_WS? L_TYPE_FN? ('"arguments"' | '"parameters"') L_WS? ':' L_WS? ;
fragment L_TAG       : '<|python_tag|>' ;

// ---- content ------------------------------------------------------------------------------
TEXT         : ~[{<]+ ;
LBRACE       : '{' ;
LT           : '<' ;
PYTHON_TAG   : L_TAG ;
CALL_BY_NAME : L_BY_NAME -> pushMode(L_AFTER), pushMode(JC_NEXT), pushMode(JC_NAME) ;
CALL_BY_ARGS : L_BY_ARGS -> pushMode(L_AFTER), pushMode(JC_NEXT), pushMode(JC_ARGS) ;

// ---- right after a call: one ';' (after optional whitespace) is the separator -------------
// The next call may follow at once; anything else is content and returns to the default mode.
// Whitespace here is content, stripped as the edge of the next segment (kept when a lenient
// fallback turned the call before it into text).
mode L_AFTER;
AFTER_WS           : L_WS ;
AFTER_SEP          : ';' -> popMode ;
AFTER_CALL_BY_NAME : L_BY_NAME -> pushMode(JC_NEXT), pushMode(JC_NAME) ;
AFTER_CALL_BY_ARGS : L_BY_ARGS -> pushMode(JC_NEXT), pushMode(JC_ARGS) ;
AFTER_TAG          : L_TAG -> popMode ;
AFTER_OTHER        : ~[; \t\r\n] -> popMode ;
