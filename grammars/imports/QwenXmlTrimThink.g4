// Shared: Qwen3-style reasoning in front of Qwen3-Coder XML calls (QwenXmlCall), for the families
// whose parsers strip the whitespace that ends reasoning: nemotron_v3 (vLLM parser/nemotron_v3.py
// strip_trailing_reasoning_whitespace, Ollama nemotron3nano.go) and step3p5 (vLLM
// parser/step3p5.py and tests/parser/engine/test_step3p5.py: the model closes with "\n</think>"):
//
//   The user wants the weather.
//   </think>
//
//   <tool_call>
//   ...
//
// With thinking on the output begins inside reasoning (host thinkingMode QXR_LEAD): leading
// whitespace and one leading <think> (with the whitespace after it) are dropped. Reasoning ends at
// </think> or at <tool_call>, which begins a call; either drops the whitespace before it. Reasoning
// text is otherwise verbatim: a whitespace run inside it is held (QXR_WS is not streamable) until
// the next character shows it is not trailing. Content after </think> is verbatim, as in vLLM
// (Ollama also trims its leading whitespace).
// In content a <think> opens reasoning and a duplicate </think> is dropped. The host's default
// mode supplies the content rules and includes the roles of QwenXmlTrimThink, QwenXmlCall and
// QwenFunction.
lexer grammar QwenXmlTrimThink;
import QwenXmlCall;

fragment QXR_WS_F : [ \t\r\n] ;

// ---- in the host's default mode -------------------------------------------------------------
QXR_CALL_OPEN   : '<tool_call>' -> pushMode(QXC_CALL) ;
QXR_THINK_OPEN  : '<think>' QXR_WS_F* -> pushMode(QXR_THINK) ;
QXR_STRAY_CLOSE : '</think>' ;

// ---- the start of an output that begins inside reasoning -------------------------------------
mode QXR_LEAD;
QXR_LEAD_WS     : QXR_WS_F+ ;
QXR_LEAD_OPEN   : '<think>' QXR_WS_F* -> mode(QXR_THINK) ;
QXR_LEAD_CHAR   : ~[< \t\r\n] -> mode(QXR_THINK) ;
QXR_LEAD_LT     : '<' -> mode(QXR_THINK) ;
QXR_LEAD_CLOSE  : '</think>' -> popMode ;
QXR_LEAD_CALL   : '<tool_call>' -> popMode, pushMode(QXC_CALL) ;

// ---- reasoning text -------------------------------------------------------------------------
mode QXR_THINK;
QXR_TEXT        : ~[< \t\r\n]+ ;
QXR_WS          : QXR_WS_F+ ;
QXR_LT          : '<' ;
QXR_CLOSE       : QXR_WS_F* '</think>' -> popMode ;
QXR_CALL        : QXR_WS_F* '<tool_call>' -> popMode, pushMode(QXC_CALL) ;
