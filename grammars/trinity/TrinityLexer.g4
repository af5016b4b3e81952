// Arcee Trinity (Trinity-Mini, Trinity-Large-Preview; SGLang trinity_detector.py, vLLM trinity):
// Qwen2.5 / Hermes tool calls and <think> reasoning, where a call written INSIDE the think block
// counts as a call (the peers strip the think tags before looking for calls):
//
//   <think>I need the weather.
//   <tool_call>
//   {"name": "get_weather", "arguments": {"city": "Paris"}}
//   </tool_call>
//   and then the time.</think>
//
// Here the text around the call stays reasoning and the call is a call: <tool_call> inside the
// think modes (TaggedThink's TT_LEAD and TT_THINK) pushes the shared HermesCall call mode, and its
// </tool_call> pops back into reasoning. In content, <think> opens reasoning again and a stray
// </think> is dropped (the peers remove every think tag); a <think> written inside reasoning is
// dropped too. With thinking on (thinkingMode TT_LEAD) the output begins inside reasoning and a
// leading <think> is dropped; by default (off) the model writes <think> itself, as in the peers'
// test outputs.
lexer grammar TrinityLexer;
import HermesCall, JsonCall, JsonValue, TaggedThink;

// ---- content (the call opener HC_OPEN comes from HermesCall) ---------------------------------
TEXT          : ~'<'+ ;
LT            : '<' ;
THINK_OPEN    : '<think>' -> pushMode(TT_THINK) ;
STRAY_CLOSE   : '</think>' ;

// ---- reasoning: a call opener starts a call and returns to reasoning after it ---------------------
mode TT_LEAD;
LEAD_CALL     : '<tool_call>' -> type(HC_OPEN), mode(TT_THINK), pushMode(HC_CALL) ;

mode TT_THINK;
THINK_CALL    : '<tool_call>' -> type(HC_OPEN), pushMode(HC_CALL) ;
INNER_THINK   : '<think>' ;
