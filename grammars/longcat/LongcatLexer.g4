// LongCat-Flash tool calls (vLLM/SGLang longcat; mlx-lm longcat for the XML body):
//
//   <longcat_tool_call>
//   {"name": "get_weather", "arguments": {"city": "Paris"}}
//   </longcat_tool_call>
//
// The Hermes convention with LongCat's own tags: after <longcat_tool_call>, whitespace, one call
// object (members from the shared JsonCall grammar), whitespace, </longcat_tool_call>. Newer
// LongCat checkpoints (Flash-Lite, Flash-Thinking-2601) write the body GLM-style instead:
//
//   <longcat_tool_call>get_weather
//   <longcat_arg_key>city</longcat_arg_key>
//   <longcat_arg_value>Paris</longcat_arg_value>
//   </longcat_tool_call>
//
// a name ended by its line break (as in glm45: a body like "invalid json" is not a name), then
// key/value pairs whose raw values are typed by the tool schema (untyped values are read as JSON
// when they are JSON, as mlx-lm does). Both bodies are accepted in one call tag.
//
// Reasoning: <longcat_think> ... </longcat_think>. The model writes the start tag itself in
// content (thinking default off, LongCat-Flash-Chat); with thinking on (a LongCat-Flash-Thinking
// template that opens the block in the prompt) the output begins inside reasoning (thinkingMode
// LC_LEAD; a leading <longcat_think> is dropped). A call tag inside reasoning is reasoning text.
lexer grammar LongcatLexer;
import JsonCall, JsonValue;

fragment LC_WS_F     : [ \t\r\n]+ ;
// characters of a function name: anything but blanks, tag and quote characters, brackets, ',', '=', ';'
fragment LC_NAME_CHAR : ~[<>{}[\]()"'`,=;\\ \t\r\n] ;

// ---- content -----------------------------------------------------------------------------
TEXT          : ~'<'+ ;
LT            : '<' ;
CALL_OPEN     : '<longcat_tool_call>' -> pushMode(LC_CALL) ;
THINK_OPEN    : '<longcat_think>' -> pushMode(LC_THINK) ;

// ---- after the opener: a JSON call object, or a name and key/value pairs -----------------------
mode LC_CALL;
LC_WS         : LC_WS_F ;
LC_OBJ_OPEN   : '{' -> mode(LC_AFTER_OBJ), pushMode(JC_KEY) ;
LC_EMPTY_OBJ  : '{' LC_WS_F? '}' -> mode(LC_AFTER_OBJ) ;
LC_NAME       : LC_NAME_CHAR+ [ \t]* '\r'? '\n' -> mode(LC_BODY) ;

mode LC_AFTER_OBJ;
LC_AFTER_WS   : LC_WS_F ;
LC_CLOSE      : '</longcat_tool_call>' -> popMode ;

// ---- the XML body: pairs, then the close tag ---------------------------------------------------
mode LC_BODY;
LC_BODY_WS    : LC_WS_F ;
LC_KEY_OPEN   : '<longcat_arg_key>' -> mode(LC_KEY) ;
LC_BODY_CLOSE : '</longcat_tool_call>' -> popMode ;

mode LC_KEY;
LC_KEY_TEXT   : ~'<'+ -> mode(LC_KEY_END) ;

mode LC_KEY_END;
LC_KEY_CLOSE  : '</longcat_arg_key>' -> mode(LC_BETWEEN) ;

// between key and value: whitespace, or a literal backslash-n (as mlx-lm tolerates)
mode LC_BETWEEN;
LC_BETWEEN_WS : ( [ \t\r\n] | '\\n' )+ ;
LC_VALUE_OPEN : '<longcat_arg_value>' -> mode(LC_VALUE) ;

mode LC_VALUE;
LC_VALUE_TEXT : ~'<'+ ;
LC_VALUE_LT   : '<' ;
LC_VALUE_CLOSE : '</longcat_arg_value>' -> mode(LC_BODY) ;

// ---- reasoning ------------------------------------------------------------------------------
// the start of an output that begins inside reasoning (thinking on)
mode LC_LEAD;
LC_LEAD_WS    : LC_WS_F ;
LC_LEAD_OPEN  : '<longcat_think>' -> mode(LC_THINK) ;
LC_LEAD_CHAR  : ~[< \t\r\n] -> mode(LC_THINK) ;
LC_LEAD_LT    : '<' -> mode(LC_THINK) ;
LC_LEAD_CLOSE : '</longcat_think>' -> popMode ;

mode LC_THINK;
R_TEXT        : ~'<'+ ;
R_LT          : '<' ;
THINK_CLOSE   : '</longcat_think>' -> popMode ;
