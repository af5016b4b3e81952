// Shared: a JSON array of call objects [{"name": ..., "arguments": {...}}, ...] after its '['
// (FORMATS.md 3.5, 3.8 and 3.18 shapes; used by apriel, nemotron_v2, generic and firefunction_v2).
//
//   <tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": "get_time", "arguments": {}}]</tool_calls>
//
// The host owns the marker before the array (its call.begin token, so that a malformed first
// call given back as content in lenient mode keeps the marker and error offsets point at it) and
// the '[': it enters CAI_FIRST with mode(...) or pushMode(...) right after the '['. The first
// element's '{' is skipped (the host's marker began that call); the '{' after each comma begins the
// next call, which also ends the one before; the array's ']' ends the last call and pops back to
// the mode under the array (the host's: a close tag, or content). An empty array is the host's to
// recognise, as one token with its marker (no call may begin). '{}' is a call without a name.
// The members of each object are the shared JsonCall grammar (JC_CLOSE stays skip). Roles are
// in CallArrayItems.json; the host imports JsonCall and JsonValue as well.
lexer grammar CallArrayItems;

fragment CAI_WS_F : [ \t\r\n]+ ;

// ---- after the '[': the first call object ----------------------------------------------------
mode CAI_FIRST;
CAI_FIRST_WS    : CAI_WS_F ;
CAI_FIRST_OBJ   : '{' -> mode(CAI_NEXT), pushMode(JC_KEY) ;
CAI_FIRST_EMPTY : '{' CAI_WS_F? '}' -> mode(CAI_NEXT) ;

// ---- after a call object: a comma or the end of the array ------------------------------------
mode CAI_NEXT;
CAI_NEXT_WS     : CAI_WS_F ;
CAI_COMMA       : ',' -> mode(CAI_ITEM) ;
CAI_CLOSE       : ']' -> popMode ;

// ---- after a comma: the next call object -----------------------------------------------------
mode CAI_ITEM;
CAI_ITEM_WS     : CAI_WS_F ;
CAI_ITEM_OBJ    : '{' -> mode(CAI_NEXT), pushMode(JC_KEY) ;
CAI_ITEM_EMPTY  : '{' CAI_WS_F? '}' -> mode(CAI_NEXT) ;
