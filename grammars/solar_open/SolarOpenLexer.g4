// Upstage Solar Open (Solar-Open-100B), llama.cpp SOLAR_OPEN and the solar_open parsers of
// Upstage's vLLM fork: the prompt ends with the header <|begin|>assistant, and the output is a
// sequence of typed blocks, each turn after the first opened again by <|end|><|begin|>assistant:
//
//   <|think|>I should call a tool.<|end|><|begin|>assistant<|content|>Let me check.<|end|><|begin|>assistant<|tool_calls|><|tool_call:begin|>a1b2c3d4e5<|tool_call:name|>get_weather<|tool_call:args|>{"city": "Seoul"}<|tool_call:end|><|calls|>
//
// <|content|> opens text content, <|tool_calls|> a calls section. A call is
// <|tool_call:begin|> ID <|tool_call:name|> NAME <|tool_call:args|> {json} <|tool_call:end|>;
// the id is model-written (ten [a-z0-9] characters; solar_open.json keeps it only when it has
// that shape), whitespace around the name and the arguments is skipped, an empty argument text
// gives {}. Several calls follow each other. The arguments are read as a dict literal: JSON, or
// the Python spelling vLLM's parser also accepts ({'city': 'Seoul', 'days': 3}, True/None, a
// trailing comma); each top-level key is a parameter and its value a literal (shared PyCall
// value modes), written out as canonical JSON. An array where the object belongs is read as JSON
// and fails the object check (malformed_arguments). <|flush|> and <|calls|> (the end-of-turn tokens),
// <|end|>, <|begin|>assistant, <|content|> and <|tool_calls|> are dropped wherever they stand in
// content; every other text outside a call is content, verbatim.
//
// Reasoning: <|think|> ... <|end|>. The model writes <|think|> itself (the prompt ends with the
// assistant header), so by default the output starts outside reasoning; a prompt that ends with
// <|think|> starts inside it (thinkingMode SO1_LEAD, a leading <|think|> dropped). Reasoning also
// ends at <|content|> or <|tool_calls|> (Upstage's fork treats them as boundaries) and at
// <|tool_call:begin|>, which opens a call.
lexer grammar SolarOpenLexer;
import PyCall, JsonValue;

fragment SO1_WS_F : [ \t\r\n]+ ;

// ---- content -----------------------------------------------------------------------------
TEXT          : ~'<'+ ;
LT            : '<' ;
THINK_OPEN    : '<|think|>' -> pushMode(SO1_THINK) ;
CONTENT_OPEN  : '<|content|>' ;
SECTION_OPEN  : '<|tool_calls|>' ;
TURN_END      : '<|end|>' ;
TURN_BEGIN    : '<|begin|>assistant' ;
FLUSH         : '<|flush|>' ;
CALLS_END     : '<|calls|>' ;
CALL_BEGIN    : '<|tool_call:begin|>' -> pushMode(SO1_ID) ;

// ---- the start of an output that begins inside reasoning ---------------------------------------
mode SO1_LEAD;
SO1_LEAD_WS      : SO1_WS_F ;
SO1_LEAD_OPEN    : '<|think|>' -> mode(SO1_THINK) ;
SO1_LEAD_CHAR    : ~[< \t\r\n] -> mode(SO1_THINK) ;
SO1_LEAD_LT      : '<' -> mode(SO1_THINK) ;
SO1_LEAD_END     : '<|end|>' -> popMode ;
SO1_LEAD_CONTENT : '<|content|>' -> popMode ;
SO1_LEAD_SECTION : '<|tool_calls|>' -> popMode ;
SO1_LEAD_CALL    : '<|tool_call:begin|>' -> popMode, pushMode(SO1_ID) ;

// ---- reasoning text ------------------------------------------------------------------------------
mode SO1_THINK;
SO1_R_TEXT       : ~'<'+ ;
SO1_R_LT         : '<' ;
SO1_R_END        : '<|end|>' -> popMode ;
SO1_R_CONTENT    : '<|content|>' -> popMode ;
SO1_R_SECTION    : '<|tool_calls|>' -> popMode ;
SO1_R_CALL       : '<|tool_call:begin|>' -> popMode, pushMode(SO1_ID) ;

// ---- a call: the id, the name, the arguments ---------------------------------------------------
mode SO1_ID;
SO1_ID_TEXT      : ~'<'+ ;
SO1_NAME_MARK    : '<|tool_call:name|>' -> mode(SO1_NAME) ;

mode SO1_NAME;
SO1_NAME_WS      : SO1_WS_F ;
SO1_NAME_TEXT    : ~[< \t\r\n]+ ;
SO1_ARGS_MARK    : '<|tool_call:args|>' -> mode(SO1_ARGS) ;

mode SO1_ARGS;
SO1_ARGS_WS      : SO1_WS_F ;
SO1_DICT_OPEN    : '{' -> mode(SO1_KEY) ;
SO1_ARRAY_OPEN   : '[' -> mode(SO1_AFTER), pushMode(JV_NEST) ;
SO1_EMPTY_END    : '<|tool_call:end|>' -> popMode ;

// ---- the arguments dict: "key" or 'key', ':', a literal value, ',' or '}' ----------------------
mode SO1_KEY;
SO1_KEY_WS       : SO1_WS_F ;
SO1_KEY_DQ       : '"' -> mode(SO1_KEY_DQ_M) ;
SO1_KEY_SQ       : '\'' -> mode(SO1_KEY_SQ_M) ;
SO1_DICT_CLOSE   : '}' -> mode(SO1_AFTER) ;

mode SO1_KEY_DQ_M;
SO1_KEY_DQ_TEXT  : ~["\\\r\n]+ ;
SO1_KEY_DQ_END   : '"' -> mode(SO1_COLON) ;

mode SO1_KEY_SQ_M;
SO1_KEY_SQ_TEXT  : ~['\\\r\n]+ ;
SO1_KEY_SQ_END   : '\'' -> mode(SO1_COLON) ;

mode SO1_COLON;
SO1_COLON_WS     : SO1_WS_F ;
SO1_COLON_SIGN   : ':' -> mode(SO1_NEXT), pushMode(PY_VALUE) ;

mode SO1_NEXT;
SO1_NEXT_WS      : SO1_WS_F ;
SO1_NEXT_COMMA   : ',' -> mode(SO1_KEY) ;
SO1_NEXT_CLOSE   : '}' -> mode(SO1_AFTER) ;

mode SO1_AFTER;
SO1_AFTER_WS     : SO1_WS_F ;
SO1_CALL_END     : '<|tool_call:end|>' -> popMode ;
