// Kimi K3 "XTML" (FORMATS.md 3.15): one assistant message is a sequence of channels built from the
// special tokens <|open|>, <|close|> and <|sep|>:
//
//   reasoning<|close|>think<|sep|><|open|>response<|sep|>Let me check.<|close|>response<|sep|><|open|>tools<|sep|><|open|>call tool="get_weather" index="1"<|sep|><|open|>argument key="city" type="string"<|sep|>Paris<|close|>argument<|sep|><|open|>argument key="days" type="number"<|sep|>3<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|><|close|>message<|sep|>
//
// - think: reasoning. The generation prompt opens it when thinking is on (the default; vLLM, SGLang,
//   llama.cpp and TensorRT-LLM all assume so), so the output starts in K3_LEAD: leading whitespace
//   and the <|open|>message role="assistant"<|sep|> and <|open|>think<|sep|> openers the model may
//   write anyway are dropped, <|close|>think<|sep|> ends it.
//   Like llama.cpp we also end it at <|open|>response<|sep|> (the model skipped the closer), and at
//   <|open|>tools<|sep|>, which opens the tools channel: channel markers are special tokens that
//   text never contains, so a channel opener means the think channel was left. With thinking off
//   a <|open|>think<|sep|> in the output opens reasoning.
// - response: content. Its markers, <|close|>message<|sep|>, <|end_of_msg|>, the message opener
//   <|open|>message role="assistant"<|sep|> and a stray <|close|>think<|sep|> are dropped; all
//   other text outside the tools channel is content, as written.
// - tools: each <|open|>call tool="NAME" index="N"<|sep|> ... <|close|>call<|sep|> is a call.
//   Arguments are <|open|>argument key="K" type="T"<|sep|>VALUE<|close|>argument<|sep|>:
//   type="string" is the raw text (arg.as-string), any other type (number, boolean, null, object,
//   array) strict JSON, kept as a string when it is not (arg.as-json); without a type attribute
//   the tool schema types it, else it is a string. TensorRT-LLM's alternative body, one
//   <|open|>json type="object"<|sep|>{...}<|close|>json<|sep|>, is the arguments object itself.
//   Whitespace between the markers of the channel is tolerated; text there is content.
// vLLM tolerates spaces inside a marker (<|open|> tools <|sep|>, as a detokenizer that puts spaces
// between special tokens writes them); so does this grammar. Attribute values are read as written
// (the template escapes & and " in them as &amp; and &quot;; names and keys with those characters
// are not decoded).
lexer grammar KimiK3Lexer;
import JsonValue;

fragment K3_O   : '<|open|>' ' '* ;
fragment K3_C   : '<|close|>' ' '* ;
fragment K3_S   : ' '* '<|sep|>' ;
fragment K3_WS  : [ \t\r\n]+ ;

fragment K3_THINK_OPEN_F   : K3_O 'think' K3_S ;
fragment K3_THINK_CLOSE_F  : K3_C 'think' K3_S ;
fragment K3_RESP_OPEN_F    : K3_O 'response' K3_S ;
fragment K3_TOOLS_OPEN_F   : K3_O 'tools' K3_S ;
fragment K3_CALL_OPEN_F    : K3_O 'call' ;

// ---- content: the response channel and everything outside the other channels ---------------
TEXT            : ~'<'+ ;
LT              : '<' ;
MARKER          : K3_RESP_OPEN_F | K3_C 'response' K3_S | K3_C 'message' K3_S | '<|end_of_msg|>'
                | K3_O 'message' ~[<\r\n]* K3_S | K3_THINK_CLOSE_F ;
THINK_OPEN      : K3_THINK_OPEN_F -> pushMode(K3_THINK) ;
TOOLS_OPEN      : K3_TOOLS_OPEN_F -> pushMode(K3_TOOLS) ;
// the first call begins at the channel marker: its raw text (lenient mode) and error offsets include it
TOOLS_CALL_OPEN : K3_TOOLS_OPEN_F K3_WS? K3_CALL_OPEN_F -> pushMode(K3_TOOLS), pushMode(K3_CALL_ATTRS) ;

// ---- the start of an output that begins inside the think channel ----------------------------
mode K3_LEAD;
LEAD_WS         : K3_WS ;
LEAD_OPEN       : K3_THINK_OPEN_F -> mode(K3_THINK) ;
LEAD_MESSAGE    : K3_O 'message' ~[<\r\n]* K3_S -> type(MARKER) ;
LEAD_CHAR       : ~[< \t\r\n] -> type(R_TEXT), mode(K3_THINK) ;
LEAD_LT         : '<' -> type(R_LT), mode(K3_THINK) ;
LEAD_CLOSE      : K3_THINK_CLOSE_F -> popMode ;
LEAD_RESPONSE   : K3_RESP_OPEN_F -> popMode ;
LEAD_TOOLS      : K3_TOOLS_OPEN_F -> type(TOOLS_OPEN), popMode, pushMode(K3_TOOLS) ;
LEAD_TOOLS_CALL : K3_TOOLS_OPEN_F K3_WS? K3_CALL_OPEN_F -> type(TOOLS_CALL_OPEN), popMode, pushMode(K3_TOOLS), pushMode(K3_CALL_ATTRS) ;

// ---- reasoning --------------------------------------------------------------------------------
mode K3_THINK;
R_TEXT          : ~'<'+ ;
R_LT            : '<' ;
R_REOPEN        : K3_THINK_OPEN_F ;
THINK_CLOSE     : K3_THINK_CLOSE_F -> popMode ;
THINK_RESPONSE  : K3_RESP_OPEN_F -> popMode ;
THINK_TOOLS     : K3_TOOLS_OPEN_F -> type(TOOLS_OPEN), popMode, pushMode(K3_TOOLS) ;
THINK_TOOLS_CALL : K3_TOOLS_OPEN_F K3_WS? K3_CALL_OPEN_F -> type(TOOLS_CALL_OPEN), popMode, pushMode(K3_TOOLS), pushMode(K3_CALL_ATTRS) ;

// ---- the tools channel: calls, separated by whitespace ------------------------------------------
mode K3_TOOLS;
TOOLS_WS        : K3_WS ;
// text between calls is not part of the format; it is content (as written, but for the
// whitespace before it) rather than mangled code point by code point
TOOLS_TEXT      : ~[< \t\r\n] ~'<'* ;
TOOLS_LT        : '<' ;
CALL_OPEN       : K3_CALL_OPEN_F -> pushMode(K3_CALL_ATTRS) ;
TOOLS_CLOSE     : K3_C 'tools' K3_S -> popMode ;

// ---- <|open|>call tool="NAME" index="N"<|sep|> ------------------------------------------------
mode K3_CALL_ATTRS;
CA_WS           : [ \t]+ ;
CA_TOOL         : 'tool' [ \t]* '=' [ \t]* '"' -> mode(K3_NAME) ;
CA_INDEX        : 'index' [ \t]* '=' [ \t]* '"' ~["<]* '"' ;
CA_SEP          : K3_S -> mode(K3_CALL_BODY) ;

mode K3_NAME;
NAME            : ~["<\r\n]+ -> mode(K3_NAME_END) ;
EMPTY_NAME      : '"' -> mode(K3_CALL_ATTRS) ;

mode K3_NAME_END;
NAME_END        : '"' -> mode(K3_CALL_ATTRS) ;

// ---- the call's body: arguments, or one JSON block ------------------------------------------
mode K3_CALL_BODY;
CB_WS           : K3_WS ;
ARG_OPEN        : K3_O 'argument' -> mode(K3_ARG_ATTRS) ;
JSON_OPEN       : K3_O 'json' ~[<]* K3_S -> mode(K3_JSON) ;
CALL_CLOSE      : K3_C 'call' K3_S -> popMode ;

// ---- <|open|>argument key="K" type="T"<|sep|> ---------------------------------------------
mode K3_ARG_ATTRS;
AA_WS           : [ \t]+ ;
AA_KEY          : 'key' [ \t]* '=' [ \t]* '"' -> mode(K3_KEY) ;
AA_TYPE_STRING  : 'type' [ \t]* '=' [ \t]* '"string"' ;
AA_TYPE_JSON    : 'type' [ \t]* '=' [ \t]* '"' ~["<]* '"' ;
AA_SEP          : K3_S -> mode(K3_VALUE) ;

mode K3_KEY;
KEY             : ~["<\r\n]+ -> mode(K3_KEY_END) ;

mode K3_KEY_END;
KEY_END         : '"' -> mode(K3_ARG_ATTRS) ;

// ---- the raw value, up to <|close|>argument<|sep|> ------------------------------------------
mode K3_VALUE;
V_TEXT          : ~'<'+ ;
V_LT            : '<' ;
ARG_CLOSE       : K3_C 'argument' K3_S -> mode(K3_CALL_BODY) ;

// ---- <|open|>json type="object"<|sep|>{...}<|close|>json<|sep|> ----------------------------
mode K3_JSON;
J_WS            : K3_WS ;
J_OPEN          : [{[] -> mode(K3_JSON_AFTER), pushMode(JV_NEST) ;

mode K3_JSON_AFTER;
JA_WS           : K3_WS ;
JSON_CLOSE      : K3_C 'json' K3_S -> mode(K3_CALL_BODY) ;
