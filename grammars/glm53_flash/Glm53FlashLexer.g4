// GLM-5.3-Flash tool calls, SGLang "glm53" (glm53_flash_detector.py). The model writes two forms
// after the <tool_call> special token:
//
//   <tool_call>Weather/get_weather>{"city": "Beijing"}                  (JSON form, most common)
//   <tool_call>get_weather<arg_key>city</arg_key><arg_value>Beijing</arg_value></tool_call>
//
// JSON form: a name, then '>' (or a line break), then a JSON arguments object; no close tag is
// needed. The call ends where its object does, at the next call, at text, or at the end of the
// output (callEnd implicit): the object's closing brace pops the lexer back to content, so an
// output cut inside the object is still an unterminated call. A </tool_call> right after the
// object is dropped (a stray </tool_call> in content is dropped too). A 'Namespace/' prefix
// before the name (a display name the model adds) is skipped: the function is the last
// '/'-separated segment.
// Tag form: the GLM-4.7 pairs of the shared GlmArgs grammar, closed by </tool_call>.
//
// Reasoning (GlmThink, TaggedThink): the GLM-5.3 template always opens <think> in the prompt, so
// the output starts inside reasoning (thinkingMode TT_LEAD, thinking default on) and </think>
// ends it; <tool_call> while reasoning ends reasoning and starts a call.
lexer grammar Glm53FlashLexer;
import GlmArgs, GlmThink, JsonValue;

// characters of a name segment: GlmArgs' name characters without '/'
fragment G53_NAME_CHAR : ~[<>{}[\]()"'`,=;\\/ \t\r\n] ;

// ---- content -----------------------------------------------------------------------------
TEXT          : ~'<'+ ;
LT            : '<' ;
CALL_OPEN     : '<tool_call>' -> pushMode(GLM_NAME) ;
STRAY_CLOSE   : '</tool_call>' ;

// ---- GLM_NAME (the mode GlmThink enters after <tool_call>): namespace prefix and name ----------
mode GLM_NAME;
G53_NAME_WS   : [ \t\r\n]+ ;
G53_NAMESPACE : G53_NAME_CHAR+ '/' ;
G53_NAME_TEXT : G53_NAME_CHAR+ -> mode(G53_AFTER_NAME) ;
G53_KEY_OPEN  : '<arg_key>' -> mode(GA_KEY) ;
G53_CLOSE     : '</tool_call>' -> popMode ;

// ---- after the name: '>' and a JSON object, or the pairs ---------------------------------------
mode G53_AFTER_NAME;
G53_GT        : '>' -> mode(G53_JSON) ;
G53_AFTER_WS  : [ \t\r\n]+ ;
G53_AFTER_KEY : '<arg_key>' -> mode(GA_KEY) ;
G53_AFTER_CLOSE : '</tool_call>' -> popMode ;
G53_ARGS_OBJ  : '{' -> popMode, pushMode(JV_NEST) ;

// ---- after '>': the JSON arguments object --------------------------------------------------------
mode G53_JSON;
G53_JSON_WS   : [ \t\r\n]+ ;
G53_JSON_OBJ  : '{' -> popMode, pushMode(JV_NEST) ;
