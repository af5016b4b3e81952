// Shared: Hunyuan v3 / v4 tool calls and reasoning (hy_v3, hy_v4), whose structural tokens may
// all carry one per-checkpoint suffix read from the vocabulary (':opensource', ':6124c78e'):
//
//   <think:S>I need the weather.</think:S>
//   <tool_calls:S>
//   <tool_call:S>get_weather<tool_sep:S>
//   <arg_key:S>city</arg_key:S>
//   <arg_value:S>Paris</arg_value:S>
//   </tool_call:S>
//   </tool_calls:S>
//
// Any suffix ':' + non-blank characters other than '>' is read, and none (HY_SFX); the grammar
// does not check that the tags of one output share it. Calls are only read inside the
// <tool_calls> block; between calls, whitespace. A call is the name, an optional <tool_sep>
// (Hunyuan v3 writes it, v4 does not), then key/value pairs separated by whitespace, then
// </tool_call>. Keys are the text between the key tags; values the raw text between the value
// tags, streamed as they arrive and typed by the tool schema.
//
// Reasoning: HY_LEAD is the "inside reasoning" mode for a host's thinkingMode (the template
// injects <think:S> into the prompt): leading whitespace and one leading <think:S> are dropped,
// reasoning runs to </think:S>. A <think:S> in content opens reasoning too (HY_THINK_OPEN).
// A <tool_calls:S> inside reasoning is reasoning text, as in vLLM. Roles are in HunyuanTags.json.
lexer grammar HunyuanTags;

fragment HY_SFX     : ( ':' ~[ \t\r\n>]+ )? ;
fragment HY_NAME_CH : ~[<>{}[\]()"'`,=;\\ \t\r\n] ;

HY_CALLS_OPEN  : '<tool_calls' HY_SFX '>' -> pushMode(HY_CALLS) ;
HY_THINK_OPEN  : '<think' HY_SFX '>' -> pushMode(HY_THINK) ;

// ---- inside <tool_calls>: calls separated by whitespace -----------------------------------------
mode HY_CALLS;
HY_CALLS_WS    : [ \t\r\n]+ ;
HY_CALL_OPEN   : '<tool_call' HY_SFX '>' -> pushMode(HY_NAME) ;
HY_CALLS_CLOSE : '</tool_calls' HY_SFX '>' -> popMode ;

// ---- the name, an optional <tool_sep>, then the pairs or the end ---------------------------------
mode HY_NAME;
HY_NAME_WS     : [ \t\r\n]+ ;
HY_NAME_TEXT   : HY_NAME_CH+ ;
HY_SEP         : '<tool_sep' HY_SFX '>' -> mode(HY_BODY) ;
HY_NAME_KEY    : '<arg_key' HY_SFX '>' -> mode(HY_KEY) ;
HY_NAME_CLOSE  : '</tool_call' HY_SFX '>' -> popMode ;

mode HY_BODY;
HY_BODY_WS     : [ \t\r\n]+ ;
HY_KEY_OPEN    : '<arg_key' HY_SFX '>' -> mode(HY_KEY) ;
HY_CALL_CLOSE  : '</tool_call' HY_SFX '>' -> popMode ;

mode HY_KEY;
HY_KEY_TEXT    : ~'<'+ -> mode(HY_KEY_END) ;

mode HY_KEY_END;
HY_KEY_CLOSE   : '</arg_key' HY_SFX '>' -> mode(HY_BETWEEN) ;

mode HY_BETWEEN;
HY_BETWEEN_WS  : [ \t\r\n]+ ;
HY_VALUE_OPEN  : '<arg_value' HY_SFX '>' -> mode(HY_VALUE) ;

mode HY_VALUE;
HY_VALUE_TEXT  : ~'<'+ ;
HY_VALUE_LT    : '<' ;
HY_VALUE_CLOSE : '</arg_value' HY_SFX '>' -> mode(HY_BODY) ;

// ---- reasoning ----------------------------------------------------------------------------------
mode HY_LEAD;
HY_LEAD_WS     : [ \t\r\n]+ ;
HY_LEAD_OPEN   : '<think' HY_SFX '>' -> mode(HY_THINK) ;
HY_LEAD_CHAR   : ~[< \t\r\n] -> mode(HY_THINK) ;
HY_LEAD_LT     : '<' -> mode(HY_THINK) ;
HY_LEAD_CLOSE  : '</think' HY_SFX '>' -> popMode ;

mode HY_THINK;
HY_R_TEXT      : ~'<'+ ;
HY_R_LT        : '<' ;
HY_R_CLOSE     : '</think' HY_SFX '>' -> popMode ;
