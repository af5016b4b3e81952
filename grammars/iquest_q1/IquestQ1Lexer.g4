// IQuest Q1 tool calls, SGLang "iquest_q1": GLM-4.7-style key/value pairs inside the model's
// own wrapper tags,
//
//   <iquest_tool_call>get_weather
//   <arg_key>city</arg_key><arg_value>Paris</arg_value>
//   </iquest_tool_call>
//
// The name is the text before the first <arg_key> (whitespace around it skipped; newlines
// optional); a call may have no arguments ('<iquest_tool_call>run</iquest_tool_call>'). The
// pairs are the shared GlmArgs grammar; this grammar adds the format's own close tag to its body
// mode, where GlmArgs' </tool_call> also still closes a call (a mismatched close that no IQuest
// output is known to write).
// No reasoning convention of this model was found, so none is read.
lexer grammar IquestQ1Lexer;
import GlmArgs;

// ---- content -----------------------------------------------------------------------------
TEXT          : ~'<'+ ;
LT            : '<' ;
CALL_OPEN     : '<iquest_tool_call>' -> pushMode(IQ_NAME) ;

// ---- the name, then the pairs or the end ------------------------------------------------------
mode IQ_NAME;
IQ_NAME_WS    : [ \t\r\n]+ ;
IQ_NAME_TEXT  : GA_NAME_CHAR+ -> mode(GA_BODY) ;
IQ_KEY_OPEN   : '<arg_key>' -> mode(GA_KEY) ;
IQ_CLOSE      : '</iquest_tool_call>' -> popMode ;

// ---- GlmArgs' body, closed by this format's own tag ---------------------------------------------
mode GA_BODY;
IQ_BODY_CLOSE : '</iquest_tool_call>' -> popMode ;
