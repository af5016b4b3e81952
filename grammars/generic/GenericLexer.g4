// llama.cpp's generic convention (COMMON_CHAT_FORMAT_GENERIC), for templates it does not
// recognise: the system prompt asks for JSON and a grammar forces the whole output to be one
// object, with exactly one of these keys:
//
//   {"tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "call_0001"}]}
//   {"tool_call": {"name": "get_weather", "arguments": {"city": "Paris"}}}
//   {"response": "Paris is sunny."}
//
// tool_calls (parallel calls; each object may carry the model's "id", which is kept) is the shared
// CallArrayItems grammar after the opener; tool_call is one call object; response is the reply,
// whose string value is the content (a non-string value is content as written, JSON text). The
// opener of each form is one token, '{' "key" ':' (and '[' or '{' for the call forms), so any other
// JSON or text is plain content. Blank space before the object and after its closing brace is
// dropped. A model id is kept when it comes before the arguments; llama.cpp's schema puts it after
// them, and by then the call's first delta has gone out with a generated id (README.md).
//
// The response string's characters are content as written: escape sequences (\n, \", \u00e9...)
// are NOT decoded - no role decodes a JSON string piece into content (runtime limitation, see
// README.md).
lexer grammar GenericLexer;
import CallArrayItems, JsonCall, JsonValue;

fragment GN_WS_F  : [ \t\r\n]+ ;
fragment GN_KEY_F : GN_WS_F? ':' GN_WS_F? ;

// ---- content: anything that is not one of the three objects ------------------------------------
TEXT            : ~[{ \t\r\n]+ ;
WS              : GN_WS_F ;
LBRACE          : '{' ;
CALLS_OPEN      : GN_WS_F? '{' GN_WS_F? '"tool_calls"' GN_KEY_F '[' -> pushMode(GN_END), pushMode(CAI_FIRST) ;
EMPTY_CALLS     : GN_WS_F? '{' GN_WS_F? '"tool_calls"' GN_KEY_F '[' GN_WS_F? ']' GN_WS_F? '}' GN_WS_F? ;
CALL_OPEN       : GN_WS_F? '{' GN_WS_F? '"tool_call"' GN_KEY_F '{' -> pushMode(GN_CALL_END), pushMode(JC_KEY) ;
RESPONSE_OPEN   : GN_WS_F? '{' GN_WS_F? '"response"' GN_KEY_F -> pushMode(GN_END), pushMode(GN_VALUE) ;

// ---- the outer object's closing brace --------------------------------------------------------
mode GN_END;
GN_END_WS       : GN_WS_F ;
GN_END_CLOSE    : '}' GN_WS_F? -> popMode ;

// ---- tool_call: after the call object, the outer brace ends the call ---------------------------
mode GN_CALL_END;
GN_CALL_END_WS  : GN_WS_F ;
GN_CALL_CLOSE   : '}' GN_WS_F? -> popMode ;

// ---- response: a string (its characters are content) or any other JSON value (content as written)
mode GN_VALUE;
GN_STR_OPEN     : '"' -> mode(GN_STR) ;
GN_NEST_OPEN    : [{[] -> mode(JV_NEST) ;
GN_ATOM         : ('true' | 'false' | 'null' | '-'? [0-9] [0-9.eE+\-]*) -> popMode ;

mode GN_STR;
GN_STR_CHARS    : ~["\\]+ ;
GN_STR_ESC      : '\\' ( ["\\/bfnrt] | 'u' [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] ) ;
GN_STR_CLOSE    : '"' -> popMode ;
