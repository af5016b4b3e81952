// InternLM2 / Intern-S1 tool calls (FORMATS.md 3.7): one call object between action markers.
//
//   Let me check.<|action_start|><|plugin|>
//   {"name": "get_weather", "parameters": {"city": "Paris"}}<|action_end|>
//
// "parameters" or "arguments" hold the arguments (shared JsonCall grammar). Text before and
// after is content. vLLM reads only the first call; blocks in a row are each a call here.
// Other actions (<|action_start|><|interpreter|>) are not tool calls and stay content.
// Servers that detokenize with spaces between special tokens (SGLang's and vLLM's default) write
// '<|action_start|> <|plugin|>'; spaces between the two markers are accepted (SGLang's detector
// and vLLM's intern-s1 parser read that spelling, vLLM's internlm2 parser and LMDeploy do not).
//
// Reasoning (TaggedThink): Intern-S1 thinks in <think>...</think>, the model writing the start
// tag itself (its template only asks for the tags in the system prompt), so by default the output
// starts outside reasoning and <think> opens it; with --thinking on (a prompt that opened the
// block) the output starts inside reasoning (thinkingMode TT_LEAD, a leading <think> dropped).
// Only </think> ends reasoning: an action block written inside it is reasoning text.
lexer grammar InternlmLexer;
import JsonCall, JsonValue, TaggedThink;

// ---- content ------------------------------------------------------------------------------
TEXT       : ~'<'+ ;
LT         : '<' ;
CALL_OPEN  : '<|action_start|>' ' '* '<|plugin|>' -> pushMode(IL_CALL) ;
THINK_OPEN : '<think>' -> pushMode(TT_THINK) ;

// ---- between the markers and the call object ---------------------------------------------
mode IL_CALL;
CALL_WS    : [ \t\r\n]+ ;
OBJ_OPEN   : '{' -> mode(IL_AFTER_OBJ), pushMode(JC_KEY) ;
EMPTY_OBJ  : '{' [ \t\r\n]* '}' -> mode(IL_AFTER_OBJ) ;

// ---- after the call object: only whitespace, then <|action_end|> --------------------------
mode IL_AFTER_OBJ;
AFTER_WS   : [ \t\r\n]+ ;
CALL_CLOSE : '<|action_end|>' -> popMode ;
