// Cohere Command R7B / Command A / Command 4 / North (FORMATS.md 3.26, §4 cohere_command*): optional
// reasoning, then either a text answer or a list of tool calls.
//
//   <|START_THINKING|>I will look up the weather.<|END_THINKING|><|START_ACTION|>[
//       {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris"}},
//       {"tool_call_id": "1", "tool_name": "get_time", "parameters": {"tz": "UTC"}}
//   ]<|END_ACTION|>
//
//   <|START_THINKING|>A greeting.<|END_THINKING|><|START_RESPONSE|>Hello!<|END_RESPONSE|>
//
//   A greeting.<|END_THINKING|><|START_TEXT|>Hello!<|END_TEXT|>        (Command 4 / North, thinking on)
//
// Text between <|START_THINKING|> and <|END_THINKING|> is reasoning; a tool-call marker in it is
// reasoning text. Templates that end the prompt with <|START_THINKING|> open the block there: with
// thinking on (cohere_command.json's thinkingMode CO_THINK_START; off by default, since Command A
// and most prompts do not open it) the output begins inside reasoning, and a leading
// <|START_THINKING|> the model writes anyway is dropped.
//
// Text answers: Command R7B / A wrap them in <|START_RESPONSE|>...<|END_RESPONSE|>, Command 4 and
// North (Ollama cohere, llama.cpp cohere2moe) in <|START_TEXT|>...<|END_TEXT|>. The four markers
// are never content (dropped wherever they stand, so a close marker left over from a prefilled
// block goes too); the text between them is, and an answer cut before its close marker is content
// to the end. A turn carries a text block or an action block; a model that writes both keeps both
// (the text as content, the action as calls), as vLLM's cohere_melody filter reads them. Like the
// action marker, a text marker inside the thinking block is reasoning text: only <|END_THINKING|>
// ends reasoning (llama.cpp and SGLang also end it at <|START_TEXT|> / <|START_ACTION|>).
//
// Calls: <|START_ACTION|>, a JSON list of call objects, <|END_ACTION|>. Each object has the keys
// "tool_name" (the name), "parameters" (the arguments: an object, or a string holding one) and
// "tool_call_id" (the model's "0", "1"...: dropped; ids are generated, OpenAI style, as SGLang
// does: the model's ids restart at "0" every turn, so they are not unique in a conversation);
// other keys are read and dropped. Their values are the shared JsonCall modes (JC_NAME, JC_ARGS,
// JC_ID, JC_SKIP). The marker begins the first call, the '{' after a comma each next one, the
// list's ']' ends the last; an empty list is no call. <|END_ACTION|> may be missing at the end of
// the output (the calls are complete at ']').
lexer grammar CohereCommandLexer;
import JsonCall, JsonValue;

fragment CO_WS_F     : [ \t\r\n]+ ;
fragment CO_STRING_F : '"' ( ~["\\\r\n] | '\\' ~[\r\n] )* '"' ;
fragment CO_COLON_F  : CO_WS_F? ':' CO_WS_F? ;

// ---- content --------------------------------------------------------------------------------
TEXT           : ~'<'+ ;
LT             : '<' ;
THINK_OPEN     : '<|START_THINKING|>' -> pushMode(CO_THINK) ;
RESPONSE_OPEN  : '<|START_RESPONSE|>' ;
RESPONSE_CLOSE : '<|END_RESPONSE|>' ;
TEXT_BLOCK_OPEN  : '<|START_TEXT|>' ;
TEXT_BLOCK_CLOSE : '<|END_TEXT|>' ;
ACTION_OPEN    : '<|START_ACTION|>' -> pushMode(CO_LIST) ;
ACTION_EMPTY   : '<|START_ACTION|>' CO_WS_F? '[' CO_WS_F? ']' -> pushMode(CO_END) ;   // no calls

// ---- start of the output with thinking on: a leading <|START_THINKING|> is not reasoning ----
mode CO_THINK_START;
LEAD_THINK     : CO_WS_F? '<|START_THINKING|>' -> mode(CO_THINK) ;
LEAD_CHAR      : ~'<' -> mode(CO_THINK) ;
LEAD_LT        : '<' -> mode(CO_THINK) ;
LEAD_CLOSE     : '<|END_THINKING|>' -> popMode ;

// ---- reasoning ------------------------------------------------------------------------------
mode CO_THINK;
R_TEXT         : ~'<'+ ;
R_LT           : '<' ;
THINK_CLOSE    : '<|END_THINKING|>' -> popMode ;

// ---- after <|START_ACTION|>: the list's '[' and its first object's '{' ----------------------
mode CO_LIST;
LIST_WS         : CO_WS_F ;
LIST_OPEN       : '[' CO_WS_F? '{' -> mode(CO_NEXT), pushMode(CO_KEY) ;
LIST_OPEN_EMPTY : '[' CO_WS_F? '{' CO_WS_F? '}' -> mode(CO_NEXT) ;   // [{}]: a call without a name

// ---- between call objects -------------------------------------------------------------------
mode CO_NEXT;
NEXT_WS    : CO_WS_F ;
COMMA      : ',' -> mode(CO_ITEM) ;
LIST_CLOSE : ']' -> mode(CO_END) ;

mode CO_ITEM;
ITEM_WS         : CO_WS_F ;
ITEM_OPEN       : '{' -> mode(CO_NEXT), pushMode(CO_KEY) ;
ITEM_OPEN_EMPTY : '{' CO_WS_F? '}' -> mode(CO_NEXT) ;

// ---- after the list: <|END_ACTION|> ---------------------------------------------------------
mode CO_END;
END_WS       : CO_WS_F ;
ACTION_CLOSE : '<|END_ACTION|>' -> popMode ;

// ---- the members of a call object -----------------------------------------------------------
mode CO_KEY;
KEY_WS     : CO_WS_F ;
NAME_KEY   : '"tool_name"' CO_COLON_F -> mode(CO_MEMBER_NEXT), pushMode(JC_NAME) ;
ARGS_KEY   : '"parameters"' CO_COLON_F -> mode(CO_MEMBER_NEXT), pushMode(JC_ARGS) ;
ID_KEY     : '"tool_call_id"' CO_COLON_F -> mode(CO_MEMBER_NEXT), pushMode(JC_ID) ;
OTHER_KEY  : CO_STRING_F CO_COLON_F -> mode(CO_MEMBER_NEXT), pushMode(JC_SKIP) ;

mode CO_MEMBER_NEXT;
MEMBER_WS    : CO_WS_F ;
MEMBER_COMMA : ',' -> mode(CO_KEY) ;
OBJ_CLOSE    : '}' -> popMode ;
