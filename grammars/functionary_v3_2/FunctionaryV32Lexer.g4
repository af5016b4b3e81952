// MeetKai Functionary v3.2 (llama.cpp FUNCTIONARY_V3_2): the output is a series of messages, each
// "recipient\n" then its body; the generation prompt ends with ">>>", and every later message
// starts with ">>>":
//
//   all
//   Let me check.>>>get_weather
//   {"city": "Paris"}>>>get_time
//   {"tz": "UTC"}
//
// Recipient "all" is the user: its body is content, up to the next ">>>". Any other recipient is a
// call to that function, whose body is one raw JSON object; blank space after it is dropped. The
// call ends where the object ends (callEnd implicit: at the next message, content, or the end).
// The name token takes its line break along (a body like "get weather" is not a name).
//
// Modes: the default mode is a message boundary - the start of the output, or right after a call's
// object - so that the lexer is back in the default mode when a call ends (an implicit call end at
// the end of the output needs that); an "all" message's body is FV_TEXT.
//
// The first recipient has no ">>>" before it in the output (it is in the prompt). "all\n" there is
// dropped. A first recipient that is a function name cannot open a call here - a call must begin
// before its name, and nothing precedes the name - so an output that starts with "NAME\n{...}"
// is content (runtime limitation, see README.md); the output may instead include the prompt's
// ">>>" (as llama.cpp's newest parser reads generation prompt + output), and then it is a call.
// "python" with raw code instead of JSON (llama.cpp wraps it as {"code": ...}) cannot be
// expressed either and stays content, ">>>python\n" included.
lexer grammar FunctionaryV32Lexer;
import JsonValue;

fragment FV_NAME_F   : ~[<>{}[\]()"'`,=;\\ \t\r\n]+ ;
fragment FV_PY_RAW_F : '>>>python\n' [ \t\r\n]* ~[{ \t\r\n] ;

// ---- a message boundary: the start of the output, or after a call's object -----------------------
B_WS         : [ \t\r\n]+ ;
B_ALL        : '>>>'? 'all\n' -> mode(FV_TEXT) ;
B_CALL       : '>>>' -> type(CALL_OPEN), mode(FV_NAME) ;
B_PY_RAW     : FV_PY_RAW_F -> type(PY_RAW), mode(FV_TEXT) ;
B_CHAR       : ~[> \t\r\n] -> type(TEXT), mode(FV_TEXT) ;
B_GT         : '>' -> type(GT), mode(FV_TEXT) ;

// ---- content: the body of an "all" message -------------------------------------------------------
mode FV_TEXT;
TEXT         : ~'>'+ ;
GT           : '>' ;
ALL_MSG      : '>>>all\n' ;
CALL_OPEN    : '>>>' -> mode(FV_NAME) ;
PY_RAW       : FV_PY_RAW_F ;

// ---- a call: the recipient and its line break, then one JSON object ------------------------------
mode FV_NAME;
FV_NAME_TEXT : FV_NAME_F [ \t]* '\n' -> mode(FV_ARGS) ;

mode FV_ARGS;
FV_ARGS_WS   : [ \t\r\n]+ ;
FV_ARGS_OPEN : [{[] -> mode(DEFAULT_MODE), pushMode(JV_NEST) ;
