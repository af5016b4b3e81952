// LiquidAI LFM2 / LFM2.5 tool calls (FORMATS.md 3.4): a pythonic call list between special tokens.
//
//   Let me check.<|tool_call_start|>[get_weather(location="Paris"), get_time(tz='UTC')]<|tool_call_end|>It is sunny.
//
// The list's '[' begins the first call, each ',' the next one, its ']' ends the last one; the calls
// are the shared PyCall grammar (keyword arguments whose values are Python or JSON literals,
// dotted names kept). A single call without brackets (<|tool_call_start|>f(a=1)<|tool_call_end|>,
// which Ollama accepts) is read too. llama.cpp's "LFM2 with JSON tools" mode (a system prompt
// asking for JSON) writes JSON call objects in the same block instead:
// <|tool_call_start|>[{"name": "get_weather", "arguments": {"location": "Paris"}}]<|tool_call_end|>
// (or one object without brackets); those are the shared JsonCall grammar. Several blocks may
// follow one another. Text outside the blocks is content, as written.
//
// LFM2 often echoes the call list after the block and caps the echo with a second
// <|tool_call_end|> (vLLM lfm2_tool_parser): right after a block, '[' ... <|tool_call_end|> with no
// '<' between is that echo and is dropped (while it may still be one, the text after '[' is held
// back); an orphan <|tool_call_end|> anywhere in content is dropped too.
//
// Reasoning (TaggedThink): the model writes <think>...</think> itself (llama.cpp lfm2.cpp), so by
// default the output starts as content and <think> opens reasoning; with --thinking on (Ollama's
// lfm2-thinking, which starts inside the block and drops a leading <think>) it starts in TT_LEAD.
// A call block written inside reasoning is reasoning text.
//
// Repairs vLLM and SGLang make that are declarative here: a raw line break inside a string literal
// is part of the string (see the end of this file); zero-padded integers (month=07) and keyword
// parameter names (from=1) are read by PyCall as they are.
lexer grammar Lfm2Lexer;
import PyCall, JsonCall, JsonValue, TaggedThink;

fragment L_WS_F : [ \t\r\n] ;

// ---- content ------------------------------------------------------------------------------
TEXT          : ~'<'+ ;
LT            : '<' ;
THINK_OPEN    : '<think>' -> pushMode(TT_THINK) ;
// the first call begins at the block marker: its raw text (lenient mode) and error offsets include it
LIST_OPEN     : '<|tool_call_start|>' L_WS_F* '[' -> pushMode(L_LIST), pushMode(PY_CALL_NAME) ;
BARE_OPEN     : '<|tool_call_start|>' -> pushMode(L_BARE), pushMode(PY_CALL_NAME) ;
JSON_LIST_OPEN : '<|tool_call_start|>' L_WS_F* '[' L_WS_F* '{' -> pushMode(L_JSON_LIST), pushMode(JC_KEY) ;
JSON_BARE_OPEN : '<|tool_call_start|>' L_WS_F* '{' -> pushMode(L_BARE), pushMode(JC_KEY) ;
ORPHAN_END    : '<|tool_call_end|>' ;

// ---- after a call in the list: the next call or the end of the list -----------------------
mode L_LIST;
L_LIST_WS     : L_WS_F+ ;
L_NEXT_CALL   : ',' L_WS_F* -> pushMode(PY_CALL_NAME) ;
L_LIST_CLOSE  : (',' L_WS_F*)? ']' -> mode(L_END) ;

// ---- JSON call objects: ',' and '{' begin the next one, ']' ends the last ----------------------
mode L_JSON_LIST;
L_JSON_WS     : L_WS_F+ ;
L_JSON_NEXT   : ',' L_WS_F* '{' -> pushMode(JC_KEY) ;
L_JSON_CLOSE  : ']' -> mode(L_END) ;

// ---- after the list: the block's end marker -----------------------------------------------
mode L_END;
L_END_WS      : L_WS_F+ ;
L_BLOCK_END   : '<|tool_call_end|>' -> mode(L_AFTER) ;

// ---- after a bare call: the block's end marker ends the call ------------------------------
mode L_BARE;
L_BARE_WS     : L_WS_F+ ;
L_BARE_END    : '<|tool_call_end|>' -> mode(L_AFTER) ;

// ---- right after a block: an echo of the call list is dropped, anything else is content ---
mode L_AFTER;
L_ECHO        : L_WS_F* '[' ~'<'* '<|tool_call_end|>' ;
L_AFTER_WS    : L_WS_F+ ;
L_AFTER_END   : '<|tool_call_end|>' ;
L_AFTER_TEXT  : ~[<[ \t\r\n] -> type(TEXT), popMode ;
L_AFTER_LB    : '[' -> type(TEXT), popMode ;
L_AFTER_LT    : '<' -> type(LT), popMode ;
L_AFTER_THINK : '<think>' -> type(THINK_OPEN), popMode, pushMode(TT_THINK) ;
L_AFTER_LIST  : '<|tool_call_start|>' L_WS_F* '[' -> type(LIST_OPEN), mode(L_LIST), pushMode(PY_CALL_NAME) ;
L_AFTER_BARE  : '<|tool_call_start|>' -> type(BARE_OPEN), mode(L_BARE), pushMode(PY_CALL_NAME) ;
L_AFTER_JSON_LIST : '<|tool_call_start|>' L_WS_F* '[' L_WS_F* '{' -> type(JSON_LIST_OPEN), mode(L_JSON_LIST), pushMode(JC_KEY) ;
L_AFTER_JSON_BARE : '<|tool_call_start|>' L_WS_F* '{' -> type(JSON_BARE_OPEN), mode(L_BARE), pushMode(JC_KEY) ;

// ---- LFM2 writes raw line breaks inside one-line string literals (multi-line shell commands);
// vLLM and SGLang escape them before parsing, so here they are characters of the string (these
// rules join PyCall's string modes for this format only) ------------------------------------------
mode PY_SQ;
L_SQ_BREAK    : [\r\n]+ -> type(PY_SQ_CHARS) ;
mode PY_DQ;
L_DQ_BREAK    : [\r\n]+ -> type(PY_DQ_CHARS) ;
mode PY_RSQ;
L_RSQ_BREAK   : [\r\n]+ -> type(PY_RSQ_CHARS) ;
mode PY_RDQ;
L_RDQ_BREAK   : [\r\n]+ -> type(PY_RDQ_CHARS) ;
