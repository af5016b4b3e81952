// Poolside (Laguna) tool calls, vLLM/SGLang/TensorRT-LLM "poolside_v1", Ollama "laguna" /
// "poolside-v1": the GLM-4 arg_key/arg_value pairs, name on the <tool_call> line,
//
//   <tool_call>get_weather
//   <arg_key>city</arg_key>
//   <arg_value>Paris</arg_value>
//   </tool_call>
//
// The newline after the name is optional ('<tool_call>get_weather<arg_key>...' and
// '<tool_call>get_time</tool_call>' are read too, as vLLM's and SGLang's parsers do). The pairs
// are the shared GlmArgs grammar. Two JSON bodies that Ollama's Laguna parser recovers are read
// as well (the GLM parsers of vLLM and SGLang miss them):
//
//   <tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>
//   <tool_call>get_weather
//   {"city": "Paris"}</tool_call>
//
// Reasoning (GlmThink, TaggedThink): the chat template primes '<think>' only when thinking is
// on (Laguna-XS templates default it off, as vLLM and Ollama do), so by default the output
// starts outside reasoning and a <think> the model writes opens it; with thinking on it starts
// inside (thinkingMode TT_LEAD). <tool_call> while reasoning ends reasoning and starts a call
// (Ollama's Laguna parser does this).
lexer grammar PoolsideV1Lexer;
import GlmArgs, GlmThink, JsonCall, JsonValue;

// ---- content -----------------------------------------------------------------------------
TEXT          : ~'<'+ ;
LT            : '<' ;
CALL_OPEN     : '<tool_call>' -> pushMode(GLM_NAME) ;

// ---- GLM_NAME (the mode GlmThink enters after <tool_call>): the name, or a JSON call object -----
mode GLM_NAME;
PV_NAME_WS    : [ \t\r\n]+ ;
PV_NAME_TEXT  : GA_NAME_CHAR+ -> mode(PV_AFTER_NAME) ;
PV_KEY_OPEN   : '<arg_key>' -> mode(GA_KEY) ;
PV_CLOSE      : '</tool_call>' -> popMode ;
PV_CALL_OBJ   : '{' -> mode(PV_JSON_END), pushMode(JC_KEY) ;

// ---- after the name: the pairs, the end, or a JSON arguments object ----------------------------
mode PV_AFTER_NAME;
PV_AFTER_WS   : [ \t\r\n]+ ;
PV_AFTER_KEY  : '<arg_key>' -> mode(GA_KEY) ;
PV_AFTER_CLOSE: '</tool_call>' -> popMode ;
PV_ARGS_OBJ   : '{' -> mode(PV_JSON_END), pushMode(JV_NEST) ;

// ---- after a JSON body: the close tag --------------------------------------------------------------
mode PV_JSON_END;
PV_END_WS     : [ \t\r\n]+ ;
PV_END_CLOSE  : '</tool_call>' -> popMode ;
