// Shared: Qwen3-style reasoning in front of Qwen3-Coder XML calls (QwenXmlCall), kept verbatim;
// used by mimo, berrylm and interns2 (vLLM parser/qwen3.py and the engines built on it,
// LMDeploy's default reasoning parser, SGLang's Qwen3Detector):
//
//   <think>
//   I need the weather.
//   </think>
//
//   <tool_call>
//   <function=get_weather>
//   ...
//
// The <think> block is TaggedThink's: when thinking is on the output begins inside it (the host's
// thinkingMode is TT_LEAD; a <think> the model writes anyway is dropped) and </think> ends it.
// What Qwen3 adds: <tool_call> while reasoning ends reasoning and begins a call (QXT_LEAD_CALL,
// QXT_THINK_CALL); in content a <think> opens reasoning (the model wrote the tag itself) and a
// duplicate </think> is dropped. The host's default mode supplies the content rules and includes
// the roles of QwenXmlThink, QwenXmlCall, QwenFunction and TaggedThink.
lexer grammar QwenXmlThink;
import QwenXmlCall, TaggedThink;

// ---- in the host's default mode -------------------------------------------------------------
QXT_CALL_OPEN   : '<tool_call>' -> pushMode(QXC_CALL) ;
QXT_THINK_OPEN  : '<think>' -> pushMode(TT_THINK) ;
QXT_STRAY_CLOSE : '</think>' ;

// ---- reasoning: the call opener ends it -----------------------------------------------------
mode TT_LEAD;
QXT_LEAD_CALL   : '<tool_call>' -> popMode, pushMode(QXC_CALL) ;

mode TT_THINK;
QXT_THINK_CALL  : '<tool_call>' -> popMode, pushMode(QXC_CALL) ;
