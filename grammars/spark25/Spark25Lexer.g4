// Spark 2.5 (iFlytek Spark-X2.5) tool calls, SGLang "spark25": GLM-style key/value pairs, the
// name on the <tool_call> line,
//
//   <tool_call>get_weather
//   <arg_key>city</arg_key><arg_value>Paris</arg_value>
//   </tool_call>
//
// The newline after the name is optional and a call may have no arguments
// ('<tool_call>refresh</tool_call>'). The pairs are the shared GlmArgs grammar; values are raw
// text typed by the tool schema, and values of parameters without a schema are strings (as
// SGLang's detector reads them).
//
// Reasoning (GlmThink, TaggedThink): deployments serve Spark 2.5 with the Qwen3 reasoning
// convention (the template opens <think> unless enable_thinking is false), so by default the
// output starts inside reasoning (thinkingMode TT_LEAD) and </think> ends it; <tool_call> while
// reasoning ends reasoning and starts a call, as in qwen3.
lexer grammar Spark25Lexer;
import GlmArgs, GlmThink;

// ---- content -----------------------------------------------------------------------------
TEXT          : ~'<'+ ;
LT            : '<' ;
CALL_OPEN     : '<tool_call>' -> pushMode(GLM_NAME) ;

// ---- GLM_NAME (the mode GlmThink enters after <tool_call>): whitespace, then the name ----------
mode GLM_NAME;
SP_NAME_WS    : [ \t\r\n]+ ;
SP_NAME_TEXT  : GA_NAME_CHAR+ -> mode(GA_BODY) ;
SP_KEY_OPEN   : '<arg_key>' -> mode(GA_KEY) ;
SP_CLOSE      : '</tool_call>' -> popMode ;
