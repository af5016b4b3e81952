// Fireworks FireFunction v2 (llama.cpp FIREFUNCTION_V2): content, then a JSON array of call
// objects after " functools[" (with its leading space, a preserved token in llama.cpp):
//
//   Let me check. functools[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_time", "arguments": {}}]
//
// The opener is " functools[" followed (after optional whitespace) by the first object's '{', one
// token, so "functools[" in prose that is not followed by an object is content; the leading space
// belongs to the opener (it is not content), and an opener without it (an output that starts with
// "functools[") is accepted too. The array's elements are the shared CallArrayItems grammar: the
// '{' after each comma begins the next call, ']' ends the last. "functools[]" is no call. Text
// after the array is content (llama.cpp's grammar ends the output there). Content rules stop at
// ' ' and 'f' so that the runtime holds back a possible opener and releases it when it is not one.
lexer grammar FirefunctionV2Lexer;
import CallArrayItems, JsonCall, JsonValue;

fragment FF_WS_F   : [ \t\r\n]+ ;
fragment FF_OPEN_F : ' '? 'functools[' FF_WS_F? ;

// ---- content -----------------------------------------------------------------------------
TEXT        : ~[ f]+ ;
SPACE       : ' ' ;
F           : 'f' ;
CALL_OPEN   : FF_OPEN_F '{' -> pushMode(CAI_NEXT), pushMode(JC_KEY) ;
CALL_EMPTY_OBJ : FF_OPEN_F '{' FF_WS_F? '}' -> pushMode(CAI_NEXT) ;
EMPTY_CALLS : FF_OPEN_F ']' ;
