// NVIDIA Nemotron 3 Nano / Super tool calls: the Qwen3-Coder layout (FORMATS.md 3.19; vLLM
// parser/nemotron_v3.py: "the same tool call and reasoning format as Qwen3"; Ollama
// nemotron3nano.go hands calls to its Qwen3-Coder parser):
//
//   I should check the weather.
//   </think>
//
//   <tool_call>
//   <function=get_weather>
//   <parameter=city>
//   Paris
//   </parameter>
//   </function>
//   </tool_call>
//
// The <tool_call> block is QwenXmlCall, the function inside it QwenFunction. Reasoning is
// QwenXmlTrimThink: thinking is on by default (the template opens <think>), so the output begins
// inside reasoning; </think> or <tool_call> (the model may skip </think>) ends it; the whitespace
// that ends reasoning is dropped, as vLLM and Ollama do; content after </think> is verbatim.
// A function block written without <tool_call> is a call too (the shared QwenBareFunction
// grammar, "callEnd": "implicit"), as the Qwen3 engine that vLLM runs for this format reads it.
lexer grammar NemotronV3Lexer;
import QwenXmlTrimThink, QwenBareFunction;

// ---- content (the openers come from QwenXmlTrimThink) ---------------------------------------
TEXT            : ~'<'+ ;
LT              : '<' ;
