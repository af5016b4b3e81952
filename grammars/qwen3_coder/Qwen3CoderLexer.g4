// Qwen3-Coder / Qwen3.5 tool calls (FORMATS.md 3.19): the official template writes
//
//   Let me check.
//
//   <tool_call>
//   <function=get_weather>
//   <parameter=city>
//   Paris
//   </parameter>
//   <parameter=days>
//   3
//   </parameter>
//   </function>
//   </tool_call>
//
// Each <tool_call> block is a call; a block holding several <function=...> blocks gives one call
// per function (the legacy parser's reading), the second and later ones beginning at their own
// '<function='. The function/parameter syntax is the shared QwenFunction grammar.
//
// Qwen3-Coder models sometimes leave out the <tool_call> wrapper and write the function block
// alone ('<function=get_weather>...</function>'): such a block is a call of its own (the shared
// QwenBareFunction grammar; "callEnd": "implicit" in the format file, the wrapped calls still end
// at their '</tool_call>'). A '<tool_call>' right after a function, where '</tool_call>' was due,
// begins the next call (vLLM's engine reads it so).
lexer grammar Qwen3CoderLexer;
import QwenFunction, QwenBareFunction;

// ---- content -----------------------------------------------------------------------------
TEXT           : ~'<'+ ;
LT             : '<' ;
CALL_OPEN      : '<tool_call>' -> pushMode(Q_CALL) ;

// ---- after <tool_call>: whitespace, then the function --------------------------------------
mode Q_CALL;
Q_CALL_WS      : [ \t\r\n]+ ;
Q_FN_OPEN      : '<function=' -> mode(Q_MORE), pushMode(QF_NAME) ;
Q_CALL_CLOSE   : '</tool_call>' -> popMode ;

// ---- after a function: the close tag, or another function (a new call) ---------------------
mode Q_MORE;
Q_MORE_WS      : [ \t\r\n]+ ;
Q_NEXT_FN_OPEN : '<function=' -> pushMode(QF_NAME) ;
Q_MORE_CLOSE   : '</tool_call>' -> popMode ;
Q_MORE_REOPEN  : '<tool_call>' -> mode(Q_CALL) ;   // the close tag left out: a new call
