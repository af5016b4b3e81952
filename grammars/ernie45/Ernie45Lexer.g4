// ERNIE-4.5 thinking models (vLLM ernie45 tool and reasoning parsers): reasoning, then content or
// Hermes-style tool calls.
//
//   The user wants the weather.
//   </think>
//
//   <tool_call>
//   {"name": "get_weather", "arguments": {"city": "Paris"}}
//   </tool_call>
//
// or, for an answer, abc\n</think>\n\n<response>\ndef\n</response>\n (or abc\n</think>\ndef).
//
// Thinking (TaggedThink, thinkingMode TT_LEAD, on by default): the template opens the think block
// in the prompt, so the output begins inside reasoning and only </think> is written; with no
// </think> the whole output is reasoning. A leading <think> (written anyway) is dropped. The
// whitespace the template puts after </think> is not content. A <tool_call> inside reasoning is
// reasoning text (vLLM runs the tool parser on the content after </think>).
//
// Content: <response> and </response> wrap a plain answer; the tags are dropped with the blank
// space after each and the newline the template writes before </response>; the text between is
// content. Calls are the shared HermesCall
// grammar (HC_OPEN ... HC_CLOSE), with the call object's members from JsonCall.
lexer grammar Ernie45Lexer;
import HermesCall, JsonCall, JsonValue, TaggedThink;

fragment E_WS_F : [ \t\r\n] ;

// ---- content (the call opener HC_OPEN comes from HermesCall) ---------------------------------
TEXT           : ~[<\n]+ ;
NL             : '\n' ;
LT             : '<' ;
THINK_OPEN     : '<think>' -> pushMode(TT_THINK) ;
RESPONSE_OPEN  : '<response>' E_WS_F* ;
RESPONSE_CLOSE : '\n'? '</response>' E_WS_F* ;

// ---- reasoning (TaggedThink's modes): </think> takes the blank lines after it along -----------
mode TT_LEAD;
LEAD_CLOSE     : '</think>' E_WS_F* -> popMode ;

mode TT_THINK;
THINK_CLOSE    : '</think>' E_WS_F* -> popMode ;
