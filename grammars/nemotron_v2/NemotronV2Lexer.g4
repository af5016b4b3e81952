// NVIDIA Nemotron Nano v2 (llama.cpp NEMOTRON_V2, vLLM nemotron_nano_v2): <think> reasoning, then
// content and a JSON list of calls between <TOOLCALL> tags:
//
//   <think>
//   The user wants the weather.
//   </think>
//   Let me check.<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Paris"}}, {"name": ...}]</TOOLCALL>
//
// The list is the shared CallArrayItems grammar: <TOOLCALL> begins the first call, the '{' after
// each comma the next, ']' ends the last; </TOOLCALL> follows. vLLM also takes a single call object
// without the brackets (<TOOLCALL>{"name": ...}</TOOLCALL>); so does this grammar. An empty list
// (<TOOLCALL>[]</TOOLCALL>) is no call. Text before and after is content.
//
// Reasoning (TaggedThink): the template ends the prompt with <think>\n when thinking is on (the
// default; /no_think or enable_thinking=false closes it), so the output begins inside reasoning
// (thinkingMode TT_LEAD, a leading <think> dropped); with no </think> the whole output is
// reasoning. A <TOOLCALL> inside reasoning is reasoning text (llama.cpp). In content, <think>
// opens reasoning. Blank space right after </think> is not content (llama.cpp skips it).
lexer grammar NemotronV2Lexer;
import CallArrayItems, JsonCall, JsonValue, TaggedThink;

fragment NV_WS_F : [ \t\r\n]+ ;

// ---- content -----------------------------------------------------------------------------
TEXT        : ~'<'+ ;
LT          : '<' ;
THINK_OPEN  : '<think>' -> pushMode(TT_THINK) ;
CALL_OPEN   : '<TOOLCALL>' -> pushMode(NV_LIST) ;
EMPTY_CALLS : '<TOOLCALL>' NV_WS_F? '[' NV_WS_F? ']' NV_WS_F? '</TOOLCALL>' ;

// ---- reasoning (TaggedThink's modes): </think> takes the blank space after it along, as in
// llama.cpp (which skips whitespace after the end tag) -------------------------------------------
mode TT_LEAD;
LEAD_CLOSE  : '</think>' NV_WS_F? -> popMode ;

mode TT_THINK;
THINK_CLOSE : '</think>' NV_WS_F? -> popMode ;

// ---- after <TOOLCALL>: the list's '[', or a single call object --------------------------------
mode NV_LIST;
NV_LIST_WS  : NV_WS_F ;
NV_LIST_OPEN : '[' -> mode(NV_AFTER), pushMode(CAI_FIRST) ;
NV_BARE_OBJ : '{' -> mode(NV_BARE_END), pushMode(JC_KEY) ;

// ---- after the list: the close tag ---------------------------------------------------------------
mode NV_AFTER;
NV_AFTER_WS : NV_WS_F ;
NV_CLOSE    : '</TOOLCALL>' -> popMode ;

// ---- after a single call object: the close tag ends the call -------------------------------------
mode NV_BARE_END;
NV_BARE_WS  : NV_WS_F ;
NV_BARE_CLOSE : '</TOOLCALL>' -> popMode ;
