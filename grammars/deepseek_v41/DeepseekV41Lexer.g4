// DeepSeek-V4.1 DSML tool calls: V4's DSML with a space at the start of every tag name (vLLM
// parser/deepseek_v41.py, SGLang deepseekv41_detector.py, TensorRT-LLM deepseekv41_parser.py):
//
//   Checking.
//
//   <｜DSML｜ calls>
//   <｜DSML｜ invoke name="get_weather">
//   <｜DSML｜ parameter name="city" string="true">杭州</｜DSML｜ parameter>
//   <｜DSML｜ parameter name="count" string="false">42</｜DSML｜ parameter>
//   </｜DSML｜ invoke>
//   </｜DSML｜ calls>
//
// The encoder puts a blank line between content and the block. The block and its invokes are the
// shared DsmlSpaced grammar (an invoke body may also be one JSON object). The unspaced V4 tags
// (<｜DSML｜tool_calls>) are not V4.1's and stay text, as in every peer's V4.1 parser.
//
// Reasoning (TaggedThink), as V4's (vLLM reuses deepseek_v4_config): thinking is on by default
// (off with thinking / enable_thinking false or reasoning_effort "none"), the prompt opening the
// block, so the output begins inside reasoning; </think> ends it, and so does a DSML block that
// starts inside it. A <think> the model writes anyway is dropped; in content a <think> opens
// reasoning and a bare </think> is dropped (the engine absorbs it).
lexer grammar DeepseekV41Lexer;
import DsmlSpaced, TaggedThink;

// ---- content -----------------------------------------------------------------------------
DSV41_TEXT        : ~'<'+ ;
DSV41_LT          : '<' ;
DSV41_WRAP_OPEN   : '<｜DSML｜ calls>' -> pushMode(DSMLS_WRAP_M) ;
// the block's first call begins at the block marker, so that a malformed first call given back
// as content (lenient mode) keeps the marker
DSV41_FIRST       : '<｜DSML｜ calls>' DSMLS_WS_F? DSMLS_INVOKE_OPEN_F -> pushMode(DSMLS_WRAP_M), pushMode(DSMLS_IATTR_M) ;
DSV41_THINK_OPEN  : '<think>' -> pushMode(TT_THINK) ;
DSV41_STRAY_CLOSE : '</think>' ;

// ---- reasoning (TaggedThink's modes): the block ends it ----------------------------------------
mode TT_LEAD;
DSV41_LEAD_WRAP   : '<｜DSML｜ calls>' -> type(DSV41_WRAP_OPEN), popMode, pushMode(DSMLS_WRAP_M) ;
DSV41_LEAD_FIRST  : '<｜DSML｜ calls>' DSMLS_WS_F? DSMLS_INVOKE_OPEN_F -> type(DSV41_FIRST), popMode, pushMode(DSMLS_WRAP_M), pushMode(DSMLS_IATTR_M) ;

mode TT_THINK;
DSV41_THINK_WRAP  : '<｜DSML｜ calls>' -> type(DSV41_WRAP_OPEN), popMode, pushMode(DSMLS_WRAP_M) ;
DSV41_THINK_FIRST : '<｜DSML｜ calls>' DSMLS_WS_F? DSMLS_INVOKE_OPEN_F -> type(DSV41_FIRST), popMode, pushMode(DSMLS_WRAP_M), pushMode(DSMLS_IATTR_M) ;
