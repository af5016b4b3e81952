// Shared: a Qwen3-Coder <tool_call> block (FORMATS.md 3.19) for the families that wrap the
// QwenFunction syntax in <tool_call> ... </tool_call> and add reasoning of their own (mimo,
// step3p5, nemotron_v3, berrylm, interns2):
//
//   <tool_call>
//   <function=get_weather>
//   <parameter=city>
//   Paris
//   </parameter>
//   </function>
//   </tool_call>
//
// A host enters with '<tool_call>' -> pushMode(QXC_CALL) (from content, or from reasoning after a
// popMode where the opener ends reasoning); '</tool_call>' pops back. Same reading as qwen3_coder:
// one call per <function=...> block, the second and later ones of a block beginning at their own
// '<function='. A host may add rules to QXC_CALL for another call body (mimo: a JSON object).
// Roles are in QwenXmlCall.json; the host includes QwenFunction's too.
lexer grammar QwenXmlCall;
import QwenFunction;

// (ANTLR wants a rule before the first mode)
fragment QXC_WS_F : [ \t\r\n] ;

// ---- after <tool_call>: whitespace, then the function --------------------------------------
mode QXC_CALL;
QXC_CALL_WS      : QXC_WS_F+ ;
QXC_FN_OPEN      : '<function=' -> mode(QXC_MORE), pushMode(QF_NAME) ;
QXC_CALL_CLOSE   : '</tool_call>' -> popMode ;

// ---- after a function: the close tag, or another function (a new call) ---------------------
mode QXC_MORE;
QXC_MORE_WS      : QXC_WS_F+ ;
QXC_NEXT_FN_OPEN : '<function=' -> pushMode(QF_NAME) ;
QXC_MORE_CLOSE   : '</tool_call>' -> popMode ;
// the close tag left out and the next <tool_call> written at once (vLLM's Qwen3 engine reads
// consecutive calls so): it begins the next call
QXC_MORE_REOPEN  : '<tool_call>' -> mode(QXC_CALL) ;
