// ServiceNow Apriel 1.5 / 1.6 Thinker (llama.cpp APRIEL_1_5; vLLM apriel tool and reasoning
// parsers): reasoning, then the final response, whose tool calls are a JSON list in <tool_calls>:
//
//   Here are my reasoning steps:          <- the end of the prompt
//   The user wants the weather.
//   [BEGIN FINAL RESPONSE]
//   <tool_calls>[{"name": "get_weather", "arguments": {"city": "Paris"}}]</tool_calls>
//   [END FINAL RESPONSE]
//
// Reasoning ends at [BEGIN FINAL RESPONSE] (the Apriel chat template; vLLM's apriel reasoning
// parser) or at </thinking> (llama.cpp's handler, whose templates open <thinking> in the prompt);
// the output begins inside reasoning when thinking is on (the default; thinkingMode AP_LEAD) and a
// leading <thinking> is dropped. With no end marker the whole output is reasoning. A <tool_calls>
// block inside reasoning is reasoning text (vLLM keeps only calls inside the final response).
// In content, <thinking> opens reasoning; [BEGIN FINAL RESPONSE], [END FINAL RESPONSE] (with the
// blank space the template puts next to them) and <|end|> are dropped.
//
// The list is the shared CallArrayItems grammar, exactly as in jamba: <tool_calls> begins the first
// call, the '{' after each comma the next, ']' ends the last; </tool_calls> follows. An empty list
// with its tags is no call.
lexer grammar AprielLexer;
import CallArrayItems, JsonCall, JsonValue;

fragment AP_WS_F      : [ \t\r\n]+ ;
fragment AP_BEGIN_F   : '[BEGIN FINAL RESPONSE]' ;

// ---- content -----------------------------------------------------------------------------
TEXT          : ~[<[ \t\r\n]+ ;
WS            : AP_WS_F ;
LT            : '<' ;
LB            : '[' ;
THINK_OPEN    : '<thinking>' -> pushMode(AP_THINK) ;
FINAL_BEGIN   : AP_BEGIN_F AP_WS_F? ;
FINAL_END     : AP_WS_F? '[END FINAL RESPONSE]' ;
EOS           : '<|end|>' ;
CALL_OPEN     : '<tool_calls>' -> pushMode(AP_LIST) ;
EMPTY_CALLS   : '<tool_calls>' AP_WS_F? '[' AP_WS_F? ']' AP_WS_F? '</tool_calls>' ;

// ---- after <tool_calls>: the list's '[' ---------------------------------------------------------
mode AP_LIST;
AP_LIST_WS    : AP_WS_F ;
AP_LIST_OPEN  : '[' -> mode(AP_AFTER), pushMode(CAI_FIRST) ;

// ---- after the list: the close tag -------------------------------------------------------------
mode AP_AFTER;
AP_AFTER_WS   : AP_WS_F ;
AP_CLOSE      : '</tool_calls>' -> popMode ;

// ---- reasoning -------------------------------------------------------------------------------
// the start of an output that begins inside reasoning (thinking on)
mode AP_LEAD;
AP_LEAD_WS    : AP_WS_F ;
AP_LEAD_OPEN  : '<thinking>' -> mode(AP_THINK) ;
AP_LEAD_CHAR  : ~[<[ \t\r\n] -> mode(AP_THINK) ;
AP_LEAD_LT    : '<' -> mode(AP_THINK) ;
AP_LEAD_LB    : '[' -> mode(AP_THINK) ;
AP_LEAD_CLOSE : '</thinking>' AP_WS_F? -> popMode ;
AP_LEAD_FINAL : AP_BEGIN_F AP_WS_F? -> popMode ;

mode AP_THINK;
R_TEXT        : ~[<[]+ ;
R_LT          : '<' ;
R_LB          : '[' ;
THINK_CLOSE   : '</thinking>' AP_WS_F? -> popMode ;
THINK_FINAL   : AP_BEGIN_F AP_WS_F? -> popMode ;
