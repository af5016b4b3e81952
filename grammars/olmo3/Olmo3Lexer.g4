// OLMo 3 tool calls (FORMATS.md 3.4): pythonic calls, one per line, in a <function_calls> block;
// values are Python literals, and the JSON spellings true/false/null are accepted as well.
//
//   I'll look both up.<function_calls>get_weather(city="Paris")
//   get_time(tz="UTC")</function_calls>
//
// <function_calls> begins the first call; a line break (or a comma) after a call begins the
// next; </function_calls> ends the last, so a block cut short is an unterminated call. Blank
// lines and indentation around calls are allowed, two calls on one line without a comma are
// not. A '(' where a name should be is a call without a name. Text before and after the block
// is content (vLLM drops it). Calls are the shared PyCall grammar.
//
// Reasoning (TaggedThink; vLLM's olmo3 reasoning parser, Ollama's olmo3-think): <think>...</think>
// written with ordinary vocabulary, not special tokens. OLMo 3 Think templates put <think> in the
// prompt, so their output is 'reasoning</think>answer' and needs thinking on (thinkingMode
// TT_LEAD, a leading <think> dropped); OLMo 3 Instruct, the tool-calling model, does not think, so
// thinking is off by default, and a <think> it writes anyway opens reasoning. Only </think> ends
// reasoning: a <function_calls> block written inside it is reasoning text.
lexer grammar Olmo3Lexer;
import PyCall, TaggedThink;

// ---- content ------------------------------------------------------------------------------
TEXT         : ~'<'+ ;
LT           : '<' ;
BLOCK_OPEN   : '<function_calls>' -> pushMode(O_CALLS), pushMode(PY_CALL_NAME) ;
EMPTY_BLOCK  : '<function_calls>' [ \t\r\n]* '</function_calls>' ;
THINK_OPEN   : '<think>' -> pushMode(TT_THINK) ;

// ---- after a call: the next call or the end of the block -----------------------------------
mode O_CALLS;
O_NEXT_CALL  : [ \t\r]* [\n,] [ \t\r\n]* -> pushMode(PY_CALL_NAME) ;
O_CLOSE      : [ \t\r\n]* (',' [ \t\r\n]*)? '</function_calls>' -> popMode ;
