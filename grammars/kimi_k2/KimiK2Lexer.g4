// Kimi K2 / K2.5 tool calls (FORMATS.md 3.14):
//
//   Let me check.<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_call_begin|>functions.get_time:1<|tool_call_argument_begin|>{"tz": "UTC"}<|tool_call_end|><|tool_calls_section_end|>
//
// The header between <|tool_call_begin|> and <|tool_call_argument_begin|> is the call's id as
// the model wrote it (functions.NAME:N, or NAME:N); kimi_k2.json's nameFromId takes the function
// name out of it. The arguments are one raw JSON object. Whitespace between markers is tolerated
// (some templates put newlines there). Text outside the section is content; the section end
// marker may be missing at the end of the output.
//
// Reasoning (TaggedThink): <think>...</think> when thinking is on. The model writes <think>
// itself, so by default the output starts outside reasoning and <think> opens it; with --thinking
// on (a template that opens the block in the prompt) the output starts inside reasoning
// (thinkingMode TT_LEAD, a leading <think> dropped). <|tool_calls_section_begin|> while reasoning
// ends reasoning and opens the section (card 3.14); any other marker there is reasoning text.
//
// Kimi also strays from the template (llama.cpp's parser, which reads all of this, calls the model
// "crazy"): a call written without the section, <|tool_call_begin|> straight in content; and a
// call whose <|tool_call_end|> never comes, ended by the next <|tool_call_begin|> or by
// <|tool_calls_section_end|> (vLLM's engine ends the call there too). Both are read as calls.
// A <|tool_call_begin|> inside reasoning stays reasoning text (vLLM, SGLang): only the section
// start ends reasoning.
lexer grammar KimiK2Lexer;
import JsonValue, TaggedThink;

// ---- content -----------------------------------------------------------------------------
TEXT          : ~'<'+ ;
LT            : '<' ;
SECTION_BEGIN : '<|tool_calls_section_begin|>' -> pushMode(K2_SECTION) ;
// the first call begins at the section marker: its raw text (lenient mode) and error offsets include it
SECTION_CALL_BEGIN : '<|tool_calls_section_begin|>' [ \t\r\n]* '<|tool_call_begin|>' -> pushMode(K2_SECTION), pushMode(K2_HEADER) ;
THINK_OPEN    : '<think>' -> pushMode(TT_THINK) ;
// a call outside any section; prose that names the marker ('<|tool_call_begin|> opens a call') is
// told apart by its header: a call's is one word, prose goes on with more words (BARE_LOOKALIKE,
// longer, is content)
BARE_CALL_BEGIN : '<|tool_call_begin|>' -> type(CALL_BEGIN), pushMode(K2_HEADER) ;
BARE_LOOKALIKE  : '<|tool_call_begin|>' [ \t\r\n]* ~[< \t\r\n]+ [ \t]+ ~[< \t\r\n] ;

// ---- reasoning (TaggedThink's modes): the section start ends it --------------------------------
mode TT_LEAD;
LEAD_SECTION_BEGIN      : '<|tool_calls_section_begin|>' -> type(SECTION_BEGIN), popMode, pushMode(K2_SECTION) ;
LEAD_SECTION_CALL_BEGIN : '<|tool_calls_section_begin|>' [ \t\r\n]* '<|tool_call_begin|>' -> type(SECTION_CALL_BEGIN), popMode, pushMode(K2_SECTION), pushMode(K2_HEADER) ;

mode TT_THINK;
THINK_SECTION_BEGIN      : '<|tool_calls_section_begin|>' -> type(SECTION_BEGIN), popMode, pushMode(K2_SECTION) ;
THINK_SECTION_CALL_BEGIN : '<|tool_calls_section_begin|>' [ \t\r\n]* '<|tool_call_begin|>' -> type(SECTION_CALL_BEGIN), popMode, pushMode(K2_SECTION), pushMode(K2_HEADER) ;

// ---- inside the section ----------------------------------------------------------------------
mode K2_SECTION;
SECTION_WS    : [ \t\r\n]+ ;
// text between calls is not part of the format; outside a call the runtime cannot reject it, so it
// is content (as written, but for the whitespace before it) rather than mangled code point by code point
SECTION_TEXT  : ~[< \t\r\n] ~'<'* ;
SECTION_LT    : '<' ;
CALL_BEGIN    : '<|tool_call_begin|>' -> pushMode(K2_HEADER) ;
SECTION_END   : '<|tool_calls_section_end|>' -> popMode ;

// ---- the header: the call id, whole (the runtime strips surrounding whitespace) ----------------
mode K2_HEADER;
HEADER        : ~'<'+ ;
ARG_BEGIN     : '<|tool_call_argument_begin|>' -> mode(K2_ARGS) ;

// ---- the arguments: one JSON object (an array lexes too and fails the object check) ----------
mode K2_ARGS;
ARGS_WS       : [ \t\r\n]+ ;
ARGS_OPEN     : [{[] -> mode(K2_AFTER_ARGS), pushMode(JV_NEST) ;
EMPTY_CALL_END : '<|tool_call_end|>' -> type(CALL_END), popMode ;

mode K2_AFTER_ARGS;
AFTER_WS      : [ \t\r\n]+ ;
CALL_END      : '<|tool_call_end|>' -> popMode ;
// <|tool_call_end|> left out: the next call, or the end of the section, ends this one
NEXT_CALL_BEGIN : '<|tool_call_begin|>' -> type(CALL_BEGIN), mode(K2_HEADER) ;
CALL_SECTION_END : '<|tool_calls_section_end|>' -> popMode, popMode ;
