// K2 Horizon (K2-v3) "IFM" tool calls:
//
//   <ifm|think>Need the weather.</ifm|think>Checking.<ifm|tool_calls><ifm|tool_call>get_weather
//   <ifm|arg_key>city</ifm|arg_key><ifm|arg_value>Paris</ifm|arg_value></ifm|tool_call>
//   <ifm|tool_call>{"name": "get_time", "arguments": {"tz": "UTC"}}</ifm|tool_call></ifm|tool_calls>
//
// One call per <ifm|tool_call> ... </ifm|tool_call>, inside one <ifm|tool_calls> group (whitespace
// between calls; a bare <ifm|tool_call> outside a group is read too, as SGLang does). The body is
// self-describing (the template's tool_call_format: xml, xml_typed or json):
// - XML: the name, then pairs <ifm|arg_key>K</ifm|arg_key> [<ifm|arg_type>T</ifm|arg_type>]
//   <ifm|arg_value>V</ifm|arg_value> (whitespace between tags). The value is raw text. A type tag
//   string (or str, any) makes it a string as written, any other type (integer, number, boolean,
//   array[...], object, null) strict JSON, kept as a string when it is not; without a type tag the
//   tool schema types it, and without a schema it is read as JSON when it is JSON (untypedValues
//   json), as SGLang and vLLM do.
// - JSON: one object {"name": ..., "arguments"|"parameters": {...}} (JsonCall), also wrapped as
//   {"function": {...}} (SGLang). The arguments are passed on as written.
// Text around the group is content; text inside the group, outside a call, is an error.
//
// Reasoning: the chat template ends the prompt by opening the think block, with a tag chosen by
// reasoning_effort: <ifm|think> (high, the default), <ifm|think_fast> (medium), <ifm|think_faster>
// (low). So by default the output starts inside reasoning (thinkingMode KH_LEAD; a leading open tag
// the model writes anyway is dropped). Any of the three close tags ends it (llama.cpp: the 3.7B
// model closes medium and low effort with </ifm|think>), and so does <ifm|tool_calls>, which opens
// the group (vLLM k2_horizon reasoning parser). With thinking off (templates that render an empty
// <ifm|think></ifm|think> block) the output starts as content; an open tag there opens reasoning
// and a stray close tag is dropped.
lexer grammar K2HorizonLexer;
import JsonCall, JsonValue;

fragment KH_WS_F          : [ \t\r\n]+ ;
fragment KH_NAME_CHAR     : ~[<>{}[\]()"'`,=;\\ \t\r\n] ;
fragment KH_THINK_OPEN_F  : '<ifm|think>' | '<ifm|think_fast>' | '<ifm|think_faster>' ;
fragment KH_THINK_CLOSE_F : '</ifm|think>' | '</ifm|think_fast>' | '</ifm|think_faster>' ;
fragment KH_GROUP_F       : '<ifm|tool_calls>' ;
fragment KH_CALL_F        : '<ifm|tool_call>' ;

// ---- content ------------------------------------------------------------------------------
TEXT              : ~'<'+ ;
LT                : '<' ;
THINK_OPEN        : KH_THINK_OPEN_F -> pushMode(KH_THINK) ;
STRAY_MARKER      : KH_THINK_CLOSE_F | '</ifm|tool_calls>' ;
GROUP_OPEN        : KH_GROUP_F -> pushMode(KH_GROUP) ;
// the group's first call begins at the group marker: its raw text (lenient mode) and error offsets include it
GROUP_CALL_OPEN   : KH_GROUP_F KH_WS_F? KH_CALL_F -> pushMode(KH_GROUP), pushMode(KH_CALL) ;
CALL_OPEN         : KH_CALL_F -> pushMode(KH_CALL) ;

// ---- the start of an output that begins inside reasoning --------------------------------------
mode KH_LEAD;
LEAD_WS           : KH_WS_F ;
LEAD_OPEN         : KH_THINK_OPEN_F -> mode(KH_THINK) ;
LEAD_CHAR         : ~[< \t\r\n] -> type(R_TEXT), mode(KH_THINK) ;
LEAD_LT           : '<' -> type(R_LT), mode(KH_THINK) ;
LEAD_CLOSE        : KH_THINK_CLOSE_F -> type(THINK_CLOSE), popMode ;
LEAD_GROUP        : KH_GROUP_F -> type(GROUP_OPEN), popMode, pushMode(KH_GROUP) ;
LEAD_GROUP_CALL   : KH_GROUP_F KH_WS_F? KH_CALL_F -> type(GROUP_CALL_OPEN), popMode, pushMode(KH_GROUP), pushMode(KH_CALL) ;

// ---- reasoning --------------------------------------------------------------------------------
mode KH_THINK;
R_TEXT            : ~'<'+ ;
R_LT              : '<' ;
R_REOPEN          : KH_THINK_OPEN_F ;
THINK_CLOSE       : KH_THINK_CLOSE_F -> popMode ;
THINK_GROUP       : KH_GROUP_F -> type(GROUP_OPEN), popMode, pushMode(KH_GROUP) ;
THINK_GROUP_CALL  : KH_GROUP_F KH_WS_F? KH_CALL_F -> type(GROUP_CALL_OPEN), popMode, pushMode(KH_GROUP), pushMode(KH_CALL) ;

// ---- the group: calls separated by whitespace ------------------------------------------------
mode KH_GROUP;
GROUP_WS          : KH_WS_F ;
GROUP_CALL        : KH_CALL_F -> type(CALL_OPEN), pushMode(KH_CALL) ;
GROUP_CLOSE       : '</ifm|tool_calls>' -> popMode ;

// ---- a call's body: an XML name, or a JSON object ------------------------------------------
mode KH_CALL;
C_WS              : KH_WS_F ;
C_NAME            : KH_NAME_CHAR+ -> mode(KH_XML) ;
C_JSON_OPEN       : '{' -> mode(KH_AFTER_JSON), pushMode(JC_KEY) ;
C_KEY_OPEN        : '<ifm|arg_key>' -> type(X_KEY_OPEN), mode(KH_KEY) ;   // no name: missing_name at the end
CALL_CLOSE        : '</ifm|tool_call>' -> popMode ;

// {"function": {"name": ..., "arguments": ...}}: the inner object's members are the call's
mode JC_KEY;
KH_FUNCTION_KEY   : '"function"' KH_WS_F? ':' KH_WS_F? '{' -> mode(JC_NEXT), pushMode(JC_KEY) ;

mode KH_AFTER_JSON;
AJ_WS             : KH_WS_F ;
AJ_CLOSE          : '</ifm|tool_call>' -> type(CALL_CLOSE), popMode ;

// ---- XML arguments after the name --------------------------------------------------------------
mode KH_XML;
X_WS              : KH_WS_F ;
X_KEY_OPEN        : '<ifm|arg_key>' -> mode(KH_KEY) ;
X_CLOSE           : '</ifm|tool_call>' -> type(CALL_CLOSE), popMode ;

mode KH_KEY;
KEY               : ~'<'+ -> mode(KH_KEY_END) ;

mode KH_KEY_END;
KEY_CLOSE         : '</ifm|arg_key>' -> mode(KH_BETWEEN) ;

mode KH_BETWEEN;
B_WS              : KH_WS_F ;
TYPE_STRING       : '<ifm|arg_type>' [ \t]* ('string' | 'str' | 'any') [ \t]* '</ifm|arg_type>' ;
TYPE_JSON         : '<ifm|arg_type>' ~'<'* '</ifm|arg_type>' ;
VALUE_OPEN        : '<ifm|arg_value>' -> mode(KH_VALUE) ;

mode KH_VALUE;
V_TEXT            : ~'<'+ ;
V_LT              : '<' ;
VALUE_CLOSE       : '</ifm|arg_value>' -> mode(KH_XML) ;
