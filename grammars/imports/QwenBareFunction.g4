// Shared: a Qwen3-Coder function block written without its <tool_call> wrapper (FORMATS.md 3.19),
// for the formats whose peers read one (vLLM's Qwen3 engine, which runs qwen3_coder, qwen3_xml,
// mimo, step3p5 and nemotron_v3, and its berrylm config start a call at '<function=' in content; SGLang's
// Qwen3-Coder detector tests are written without the wrapper; llama.cpp accepts a missing
// <tool_call> before a known function):
//
//   <function=get_weather>
//   <parameter=city>
//   Paris
//   </parameter>
//   </function>
//
// QBF_FN_OPEN, in the host's default mode, begins a call and enters QwenFunction's QF_NAME; the
// block's '</function>' pops back to the default mode, which ends the call: the host's format file
// says "callEnd": "implicit" (its wrapped calls still end at their close tag). Prose that shows the
// tag ('write <function=name> here') is told apart by what follows the '>': a block goes on with a
// newline or a tag, prose with other text on the same line, and QBF_LOOKALIKE, longer than
// QBF_FN_OPEN, takes it as content. Roles are in QwenBareFunction.json; the host includes
// QwenFunction's too.
lexer grammar QwenBareFunction;

// ---- in the host's default mode -------------------------------------------------------------
QBF_FN_OPEN   : '<function=' -> pushMode(QF_NAME) ;
QBF_LOOKALIKE : '<function=' ~[<>\r\n]* '>' [ \t]* ~[<\r\n \t] ;
