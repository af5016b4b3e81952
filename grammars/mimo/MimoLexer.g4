// Xiaomi MiMo tool calls (FORMATS.md 3.19): MiMo-V2 writes Qwen3-Coder's function/parameter
// blocks in <tool_call>, values verbatim (no newline around them):
//
//   <tool_call>
//   <function=execute_bash>
//   <parameter=command>pwd && ls</parameter>
//   </function>
//   </tool_call>
//
// The first MiMo models (llama.cpp's XIAOMI_MIMO) write a Hermes JSON object in the same tag:
//
//   <tool_call>
//   {"name": "execute_bash", "arguments": {"command": "pwd && ls"}}
//   </tool_call>
//
// After <tool_call> the first character decides: '<function=' is the XML body (QwenXmlCall and
// QwenFunction), '{' the JSON call object (JsonCall, JsonValue), then whitespace and
// </tool_call>. Reasoning is Qwen3's (QwenXmlThink, TaggedThink): <think>...</think>,
// <tool_call> ends it; thinking is off by default (SGLang's mimo reasoning parser needs an
// explicit enable_thinking) and with it on the output begins inside reasoning.
// A function block written without <tool_call> is a call too (the shared QwenBareFunction
// grammar, "callEnd": "implicit"), as the Qwen3 engine that vLLM runs for this format reads it.
lexer grammar MimoLexer;
import QwenXmlThink, JsonCall, JsonValue, QwenBareFunction;

// ---- content (the openers come from QwenXmlThink) -----------------------------------------
TEXT            : ~'<'+ ;
LT              : '<' ;

// ---- after <tool_call>: a JSON call object is the other body ----------------------------------
mode QXC_CALL;
MIMO_OBJ_OPEN   : '{' -> mode(MIMO_AFTER_OBJ), pushMode(JC_KEY) ;
MIMO_EMPTY_OBJ  : '{' [ \t\r\n]* '}' -> mode(MIMO_AFTER_OBJ) ;

// ---- after the call object: only whitespace, then the close tag ------------------------------
mode MIMO_AFTER_OBJ;
MIMO_AFTER_WS   : [ \t\r\n]+ ;
MIMO_CLOSE      : '</tool_call>' -> popMode ;
