// Qwen3.5 (Ollama's qwen3.5 and ornith parsers; vLLM and SGLang serve it with their qwen3
// reasoning parser and qwen3_coder tool parser): Qwen3 reasoning in front of Qwen3-Coder XML calls.
//
//   The user wants the weather.
//   </think>
//
//   <tool_call>
//   <function=get_weather>
//   <parameter=location>
//   San Francisco
//   </parameter>
//   </function>
//   </tool_call>
//
// The chat template ends the prompt with "<think>\n" unless thinking is off (then it writes an
// empty <think></think> block), so by default the output begins inside reasoning (thinkingMode
// QXR_LEAD, a leading <think> the model writes anyway dropped). </think> ends reasoning, and so does
// <tool_call> (Ollama: "the model forgets sometimes to use </think>"); the whitespace ending
// reasoning is dropped (QwenXmlTrimThink). The <tool_call> block is QwenXmlCall, the function inside
// it QwenFunction: one newline around each value trimmed, values typed by the tool schema.
lexer grammar Qwen35Lexer;
import QwenXmlTrimThink;

// ---- content (the openers come from QwenXmlTrimThink) ---------------------------------------
TEXT            : ~'<'+ ;
LT              : '<' ;
