// Ling 3 (inclusionAI Ling-3 / Bailing V3) tool calls: the GLM-4.7 arg_key/arg_value pairs,
//
//   <tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>
//   <tool_call>get_weather
//   <arg_key>city</arg_key>
//   <arg_value>Paris</arg_value>
//   </tool_call>
//
// After the name: nothing, whitespace, or a literal backslash-n (SGLang's ling3 detector reads
// all three), then the pairs of the shared GlmArgs grammar or the close tag (zero arguments).
//
// Reasoning (GlmThink, TaggedThink): the generation prompt ends in '<think>' unless thinking is
// off, so by default the output starts inside reasoning (thinkingMode TT_LEAD) and </think> ends
// it; <tool_call> while reasoning ends reasoning and starts a call (vLLM ling3, llama.cpp ling3).
// The end-of-turn token <|role_end|>, which the model may spell out as text, is dropped from
// content (llama.cpp stops on it).
lexer grammar Ling3Lexer;
import GlmArgs, GlmThink;

// ---- content -----------------------------------------------------------------------------
TEXT          : ~'<'+ ;
LT            : '<' ;
CALL_OPEN     : '<tool_call>' -> pushMode(GLM_NAME) ;
ROLE_END      : '<|role_end|>' ;

// ---- GLM_NAME (the mode GlmThink enters after <tool_call>): whitespace, then the name ----------
mode GLM_NAME;
L3_NAME_WS    : [ \t\r\n]+ ;
L3_NAME_TEXT  : GA_NAME_CHAR+ -> mode(L3_AFTER_NAME) ;
L3_KEY_OPEN   : '<arg_key>' -> mode(GA_KEY) ;
L3_CLOSE      : '</tool_call>' -> popMode ;

// ---- after the name: whitespace or a literal backslash-n, then the first key or the end -------
mode L3_AFTER_NAME;
L3_AFTER_WS   : ( [ \t\r\n] | '\\n' )+ ;
L3_AFTER_KEY  : '<arg_key>' -> mode(GA_KEY) ;
L3_AFTER_CLOSE: '</tool_call>' -> popMode ;
