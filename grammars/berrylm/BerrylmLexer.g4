// BerryLM tool calls: the Qwen3-Coder layout (FORMATS.md 3.19), one newline around each value
// trimmed (SGLang berrylm_detector.py, vLLM parser/berrylm.py):
//
//   <tool_call>
//   <function=get_weather>
//   <parameter=city>
//   Paris
//   </parameter>
//   </function>
//   </tool_call>
//
// The <tool_call> block is QwenXmlCall, the function inside it QwenFunction. Reasoning is Qwen3's
// (QwenXmlThink, TaggedThink): thinking is on by default (vLLM's berrylm engine starts in
// reasoning unless enable_thinking is false), so the output begins inside <think> and
// </think> ends it; <tool_call> ends it too; reasoning text is verbatim.
// A function block written without <tool_call> is a call too (the shared QwenBareFunction
// grammar, "callEnd": "implicit"), as the Qwen3 engine that vLLM runs for this format reads it.
lexer grammar BerrylmLexer;
import QwenXmlThink, QwenBareFunction;

// ---- content (the openers come from QwenXmlThink) -----------------------------------------
TEXT            : ~'<'+ ;
LT              : '<' ;
