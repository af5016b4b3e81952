// DeepSeek V4 DSML tool calls (FORMATS.md 3.12): as V3.2, with a tool_calls wrapper.
//
//   <｜DSML｜tool_calls>
//   <｜DSML｜invoke name="get_weather">
//   <｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>
//   </｜DSML｜invoke>
//   </｜DSML｜tool_calls>
//
// The invokes are the shared Dsml grammar (grammars/imports/Dsml.g4).
//
// Reasoning (TaggedThink): <think>...</think> precedes the answer; thinking is on by default
// (off only with reasoning_effort "none"), the prompt opening the block, so the output starts
// inside reasoning (thinkingMode TT_LEAD, thinkingDefault true; a <think> the model writes anyway
// is dropped). A DSML tool block starting inside reasoning ends it (parser/deepseek_v4.py, vLLM
// PR #46079): <｜DSML｜tool_calls> there opens the wrapper. Any other DSML marker there (e.g. a
// quoted <｜DSML｜invoke) is reasoning text. With thinking off a <think> in content opens reasoning.
//
// DeepSeek-V4.1 writes the same block with a space at the start of every tag name
// (<｜DSML｜ calls>, <｜DSML｜ invoke ...>, the shared DsmlSpaced grammar). A server still running
// this format for a V4.1 model must not turn its calls into text (peers' V4 parsers do,
// silently), and the two spellings cannot be confused, so a V4.1 block is read here too, in
// content and, ending reasoning, inside it.
lexer grammar DeepseekV4Lexer;
import Dsml, DsmlSpaced, TaggedThink;

// ---- content -----------------------------------------------------------------------------
DSV4_TEXT        : ~'<'+ ;
DSV4_LT          : '<' ;
DSV4_WRAP_OPEN   : '<｜DSML｜tool_calls>' -> pushMode(DSV4_WRAP_M) ;
// the wrapper's first call begins at the wrapper marker, so that a malformed first call given
// back as content (lenient mode) keeps the marker
DSV4_FIRST       : '<｜DSML｜tool_calls>' DSML_WS_F? DSML_INVOKE_OPEN_F -> pushMode(DSV4_WRAP_M), pushMode(DSML_IATTR_M) ;
DSV4_THINK_OPEN  : '<think>' -> pushMode(TT_THINK) ;
DSV4_S_WRAP_OPEN : '<｜DSML｜ calls>' -> pushMode(DSMLS_WRAP_M) ;
DSV4_S_FIRST     : '<｜DSML｜ calls>' DSMLS_WS_F? DSMLS_INVOKE_OPEN_F -> pushMode(DSMLS_WRAP_M), pushMode(DSMLS_IATTR_M) ;

// ---- reasoning (TaggedThink's modes): the wrapper ends it --------------------------------------
mode TT_LEAD;
DSV4_LEAD_WRAP   : '<｜DSML｜tool_calls>' -> type(DSV4_WRAP_OPEN), popMode, pushMode(DSV4_WRAP_M) ;
DSV4_LEAD_FIRST  : '<｜DSML｜tool_calls>' DSML_WS_F? DSML_INVOKE_OPEN_F -> type(DSV4_FIRST), popMode, pushMode(DSV4_WRAP_M), pushMode(DSML_IATTR_M) ;
DSV4_LEAD_S_WRAP : '<｜DSML｜ calls>' -> type(DSV4_S_WRAP_OPEN), popMode, pushMode(DSMLS_WRAP_M) ;
DSV4_LEAD_S_FIRST : '<｜DSML｜ calls>' DSMLS_WS_F? DSMLS_INVOKE_OPEN_F -> type(DSV4_S_FIRST), popMode, pushMode(DSMLS_WRAP_M), pushMode(DSMLS_IATTR_M) ;

mode TT_THINK;
DSV4_THINK_WRAP  : '<｜DSML｜tool_calls>' -> type(DSV4_WRAP_OPEN), popMode, pushMode(DSV4_WRAP_M) ;
DSV4_THINK_FIRST : '<｜DSML｜tool_calls>' DSML_WS_F? DSML_INVOKE_OPEN_F -> type(DSV4_FIRST), popMode, pushMode(DSV4_WRAP_M), pushMode(DSML_IATTR_M) ;
DSV4_THINK_S_WRAP : '<｜DSML｜ calls>' -> type(DSV4_S_WRAP_OPEN), popMode, pushMode(DSMLS_WRAP_M) ;
DSV4_THINK_S_FIRST : '<｜DSML｜ calls>' DSMLS_WS_F? DSMLS_INVOKE_OPEN_F -> type(DSV4_S_FIRST), popMode, pushMode(DSMLS_WRAP_M), pushMode(DSMLS_IATTR_M) ;

// ---- inside the wrapper: invokes and whitespace ---------------------------------------------
mode DSV4_WRAP_M;
DSV4_WRAP_WS     : [ \t\r\n]+ ;
DSV4_INVOKE      : DSML_INVOKE_OPEN_F -> pushMode(DSML_IATTR_M) ;
DSV4_WRAP_CLOSE  : '</｜DSML｜tool_calls>' -> popMode ;
