// StepFun Step-3.5 (and Step-3.7) tool calls: the Qwen3-Coder layout (FORMATS.md 3.19; vLLM
// parser/step3p5.py, SGLang step3p5 -> Qwen3CoderDetector):
//
//   The user wants the weather.
//   </think>
//   <tool_call>
//   <function=get_weather>
//   <parameter=city>
//   Paris
//   </parameter>
//   </function>
//   </tool_call>
//
// The <tool_call> block is QwenXmlCall, the function inside it QwenFunction. Reasoning is
// QwenXmlTrimThink: the chat template always prefills "<think>\n" (no switch turns thinking off),
// so the output begins inside reasoning (thinking default on); </think> ends it, and so does
// <tool_call> (vLLM's engine; SGLang's R1-style reasoning parser does not know the opener). The
// model closes with "\n</think>": the whitespace that ends reasoning is dropped (vLLM's
// test_step3p5.py), content after </think> is verbatim.
// A function block written without <tool_call> is a call too (the shared QwenBareFunction
// grammar, "callEnd": "implicit"), as the Qwen3 engine that vLLM runs for this format reads it.
lexer grammar Step3p5Lexer;
import QwenXmlTrimThink, QwenBareFunction;

// ---- content (the openers come from QwenXmlTrimThink) ---------------------------------------
TEXT            : ~'<'+ ;
LT              : '<' ;
