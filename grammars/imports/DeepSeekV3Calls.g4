// Shared: DeepSeek V3 / R1-0528 tool calls (FORMATS.md 3.10), used by deepseek_v3 and deepseek_r1.
//
//   <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather
//   ```json
//   {"city": "Paris"}
//   ```<｜tool▁call▁end｜>
//   <｜tool▁call▁begin｜>function<｜tool▁sep｜>get_time
//   ```json
//   {"tz": "UTC"}
//   ```<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//
// The section openers are rules of the host's default mode (the host writes its content rules,
// excluding '<'); everything after them is here. The markers are special tokens written with
// U+FF5C (｜) and U+2581 (▁). Each call is the type (always "function"), the name up to the end of
// its line, and the arguments as one JSON object in a Markdown code fence (``` with an optional
// "json" tag). Calls in a section are separated by whitespace (a newline in the template). The
// section end marker may be missing at the end of the output (the calls before it are complete).
// R1 distills (Qwen and Llama models whose vocabulary lacks these tokens) spell the section
// opener in other ways; llama.cpp reads <｜tool_calls_begin｜>, <｜tool calls begin｜>,
// <｜tool\_calls\_begin｜> and <｜tool▁calls｜> as well, and a call without its
// <｜tool▁call▁begin｜> ('function<｜tool▁sep｜>' directly): so do these rules.
// Roles are in DeepSeekV3Calls.json; the host imports JsonValue as well.
lexer grammar DeepSeekV3Calls;

fragment DS3_SECTION_MARK : '<｜tool▁calls▁begin｜>' | '<｜tool_calls_begin｜>' | '<｜tool calls begin｜>'
                          | '<｜tool\\_calls\\_begin｜>' | '<｜tool▁calls｜>' ;
fragment DS3_BARE_HEAD    : 'function<｜tool▁sep｜>' ;

// ---- in the host's default mode -------------------------------------------------------------
DS3_SECTION_BEGIN : DS3_SECTION_MARK -> pushMode(DS3_SECTION) ;
// the first call begins at the section marker: its raw text (lenient mode) and error offsets include it
DS3_SECTION_CALL_BEGIN : DS3_SECTION_MARK [ \t\r\n]* '<｜tool▁call▁begin｜>' -> pushMode(DS3_SECTION), pushMode(DS3_TYPE) ;
DS3_SECTION_BARE_CALL  : DS3_SECTION_MARK [ \t\r\n]* DS3_BARE_HEAD -> pushMode(DS3_SECTION), pushMode(DS3_NAME) ;

// ---- inside the section: calls separated by whitespace --------------------------------------
mode DS3_SECTION;
DS3_SECTION_WS    : [ \t\r\n]+ ;
// text between calls is not part of the format; outside a call the runtime cannot reject it, so it
// is content (as written, but for the whitespace before it) rather than mangled code point by code point
DS3_SECTION_TEXT  : ~[<f \t\r\n] ~[<f]* ;
DS3_SECTION_LT    : '<' ;
DS3_SECTION_F     : 'f' ;   // alone, so that text glued to a bare call's 'function' cannot swallow it
DS3_CALL_BEGIN    : '<｜tool▁call▁begin｜>' -> pushMode(DS3_TYPE) ;
DS3_BARE_CALL     : DS3_BARE_HEAD -> pushMode(DS3_NAME) ;   // no <｜tool▁call▁begin｜> before it
DS3_SECTION_END   : '<｜tool▁calls▁end｜>' -> popMode ;

// ---- call type, then the separator ------------------------------------------------------------
mode DS3_TYPE;
DS3_CALL_TYPE     : 'function' ;
DS3_SEP           : '<｜tool▁sep｜>' -> mode(DS3_NAME) ;

// ---- the name, ended by the line break that opens the code fence ----------------------------
mode DS3_NAME;
DS3_NAME_TEXT     : ~[ \t\r\n<`]+ ;
DS3_FENCE_OPEN    : [ \t]* '\r'? '\n' [ \t]* '```' 'json'? [ \t]* '\r'? '\n' -> mode(DS3_ARGS) ;

// ---- inside the fence: one JSON object (an array lexes too and fails the object check) -------
mode DS3_ARGS;
DS3_ARGS_WS       : [ \t\r\n]+ ;
DS3_ARGS_OPEN     : [{[] -> mode(DS3_AFTER_ARGS), pushMode(JV_NEST) ;
DS3_EMPTY_FENCE_CLOSE : '```' -> mode(DS3_CALL_TAIL) ;

mode DS3_AFTER_ARGS;
DS3_AFTER_WS      : [ \t\r\n]+ ;
DS3_FENCE_CLOSE   : '```' -> mode(DS3_CALL_TAIL) ;

// ---- after the fence: the call's end marker ---------------------------------------------------
mode DS3_CALL_TAIL;
DS3_TAIL_WS       : [ \t\r\n]+ ;
DS3_CALL_END      : '<｜tool▁call▁end｜>' -> popMode ;
