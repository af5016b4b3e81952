// GLM-4.5 / GLM-4.6 tool calls (FORMATS.md 3.13): the name on the <tool_call> line, then one
// <arg_key>/<arg_value> pair per line:
//
//   <tool_call>get_weather
//   <arg_key>city</arg_key>
//   <arg_value>Paris</arg_value>
//   </tool_call>
//
// The name is one run of name characters after <tool_call> (blanks around it skipped). What follows
// it may be a newline (the GLM-4.5 template layout), a literal backslash-n (SGLang's detector reads
// it too), or directly the first <arg_key> or </tool_call> (the GLM-4.7 layout, which GLM-4.5/4.6
// models also write and which vLLM's glm45, now the GLM-4.7 parser, reads): both layouts are one
// convention. A call without arguments is '<tool_call>get_time\n</tool_call>' or
// '<tool_call>get_time</tool_call>'. The pairs are the shared GlmArgs grammar.
//
// Reasoning (GlmThink, TaggedThink): GLM-4.5's template leaves the prompt open when thinking is on
// and the model writes '\n<think>...</think>' itself, so by default the output starts outside
// reasoning and <think> opens it; with thinking off the prompt ends in '<think></think>' and the
// output has no tags. With --thinking on the output starts inside reasoning (thinkingMode TT_LEAD,
// a leading <think> dropped). <tool_call> while reasoning ends reasoning and starts a call.
lexer grammar Glm45Lexer;
import GlmArgs, GlmThink;

// ---- content -----------------------------------------------------------------------------
TEXT           : ~'<'+ ;
LT             : '<' ;
CALL_OPEN      : '<tool_call>' -> pushMode(GLM_NAME) ;

// ---- the name line (GLM_NAME: the mode GlmThink enters after <tool_call>) ------------------------------------------------------------------------
mode GLM_NAME;
G45_NAME_WS    : [ \t]+ ;
G45_NAME_TEXT  : GA_NAME_CHAR+ ;
G45_NAME_NL    : ( '\r'? '\n' | '\\n' ) -> mode(GA_BODY) ;
// the GLM-4.7 layout: the first key or the end of the call right after the name
G45_KEY_OPEN   : '<arg_key>' -> mode(GA_KEY) ;
G45_CLOSE      : '</tool_call>' -> popMode ;
