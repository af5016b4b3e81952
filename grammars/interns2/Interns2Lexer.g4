// InternS2-Preview tool calls (LMDeploy's interns2-preview parser, a Qwen3Coder parser): the
// Qwen3-Coder layout of its Qwen3.5 base (FORMATS.md 3.19):
//
//   <tool_call>
//   <function=get_weather>
//   <parameter=city>
//   Paris
//   </parameter>
//   </function>
//   </tool_call>
//
// The <tool_call> block is QwenXmlCall, the function inside it QwenFunction. Reasoning
// (QwenXmlThink, TaggedThink) is LMDeploy's default reasoning parser: the output begins inside
// <think> unless thinking is off (thinking default on), </think> ends it, a <think> the model
// writes anyway is dropped, and <tool_call> ends reasoning too.
lexer grammar Interns2Lexer;
import QwenXmlThink;

// ---- content (the openers come from QwenXmlThink) -----------------------------------------
TEXT            : ~'<'+ ;
LT              : '<' ;
