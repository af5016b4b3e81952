// Inkling typed content blocks (FORMATS.md 3.28). Every marker is a special token; a turn is a
// sequence of blocks, each "<|message_model|>[header]<|content_KIND|>body<|end_message|>":
//
//   <|content_thinking|>Need the weather.<|end_message|><|message_model|>get_weather<|content_invoke_tool_json|>{"name":"get_weather","args":{"city":"Paris"}}<|end_message|><|message_model|><|content_text|>Checking.<|end_message|><|content_model_end_sampling|>
//
// The generation prompt ends with <|message_model|>, so the output starts in a block header
// (DEFAULT_MODE). The optional header (the tool's name, before the content-kind marker) is
// metadata, not content (vLLM, SGLang); text not followed by a content-kind marker is content.
// - <|content_thinking|>: reasoning, until <|end_message|> or <|content_model_end_sampling|>; like
//   llama.cpp it also ends at <|content_text|> (then content) and, like vLLM, at
//   <|content_invoke_tool_json|> (then a call).
// - <|content_text|>: content, until the block ends. <|content_invoke_tool_text|> and
//   <|content_tool_error|> blocks are visible text too (vLLM; SGLang turns the former into a call
//   without a name, which an OpenAI message cannot carry).
// - <|content_invoke_tool_json|>: one call, a JSON object {"name": ..., "args": {...}} (the payload's
//   name wins over the header; "arguments" and "parameters" are read as "args" too, as vLLM
//   does), then <|end_message|>, or <|content_model_end_sampling|> which ends the turn. The call
//   is complete with its object: a missing end marker (cut as a stop token) loses nothing.
// Other control tokens (<|message_model|> repeated, <|end_message|>, <|content_model_end_sampling|>)
// are dropped. With --thinking on the output starts inside a thinking block (INK_LEAD; vLLM seeds
// that state when the prompt ends with <|content_thinking|>, as a continuation does); the default
// is off: the model chooses the block kind itself.
lexer grammar InklingLexer;
import JsonCall, JsonValue;

fragment INK_WS_F    : [ \t\r\n]+ ;
fragment INK_HEADER_F : ~'<'+ ;
fragment INK_TEXT_KIND_F : '<|content_text|>' | '<|content_invoke_tool_text|>' | '<|content_tool_error|>' ;
fragment INK_END_F   : '<|end_message|>' | '<|content_model_end_sampling|>' ;
fragment INK_STRING_F : '"' ( ~["\\\r\n] | '\\' ~[\r\n] )* '"' ;

// ---- a block header (where the output starts, and after every block) ----------------------
HEADER_TEXT_BLOCK  : INK_HEADER_F? INK_TEXT_KIND_F -> mode(INK_TEXT) ;
HEADER_THINK_BLOCK : INK_HEADER_F? '<|content_thinking|>' -> mode(INK_THINK) ;
HEADER_TOOL_BLOCK  : INK_HEADER_F? '<|content_invoke_tool_json|>' -> mode(INK_TOOL) ;
// text that no content-kind marker follows is visible text (it is held back until that is known)
PLAIN_TEXT         : ~'<'+ -> mode(INK_TEXT) ;
PLAIN_LT           : '<' -> mode(INK_TEXT) ;
HEADER_MARKER      : '<|message_model|>' | INK_END_F ;
// blanks between a call object and the block's end marker are not text
END_WS             : INK_WS_F INK_END_F ;

// ---- a text block: content --------------------------------------------------------------------
mode INK_TEXT;
TEXT               : ~'<'+ ;
LT                 : '<' ;
TEXT_KIND          : INK_TEXT_KIND_F ;
TEXT_END           : (INK_END_F | '<|message_model|>') -> mode(DEFAULT_MODE) ;
TEXT_THINK         : '<|content_thinking|>' -> mode(INK_THINK) ;
TEXT_TOOL          : '<|content_invoke_tool_json|>' -> type(HEADER_TOOL_BLOCK), mode(INK_TOOL) ;

// ---- with thinking on the output starts inside a thinking block (INK_LEAD, pushed on the default
// mode): its first token moves on to the mode it leads to with the stack emptied ----------------
mode INK_LEAD;
LEAD_CHAR          : ~'<' -> type(R_TEXT), popMode, mode(INK_THINK) ;
LEAD_LT            : '<' -> type(R_LT), popMode, mode(INK_THINK) ;
LEAD_REOPEN        : '<|content_thinking|>' -> type(R_REOPEN), popMode, mode(INK_THINK) ;
LEAD_END           : (INK_END_F | '<|message_model|>') -> type(THINK_END), popMode ;
LEAD_TEXT          : INK_TEXT_KIND_F -> type(THINK_TEXT), popMode, mode(INK_TEXT) ;
LEAD_TOOL          : '<|content_invoke_tool_json|>' -> type(HEADER_TOOL_BLOCK), popMode, mode(INK_TOOL) ;

// ---- a thinking block: reasoning ----------------------------------------------------------
mode INK_THINK;
R_TEXT             : ~'<'+ ;
R_LT               : '<' ;
R_REOPEN           : '<|content_thinking|>' ;
THINK_END          : (INK_END_F | '<|message_model|>') -> mode(DEFAULT_MODE) ;
THINK_TEXT         : INK_TEXT_KIND_F -> mode(INK_TEXT) ;
THINK_TOOL         : '<|content_invoke_tool_json|>' -> type(HEADER_TOOL_BLOCK), mode(INK_TOOL) ;

// ---- a tool block: one JSON call object. Once it is complete the lexer is back in the default
// mode: the call ends there (callEnd "implicit"), whether or not <|end_message|> follows, which a
// server may have cut as a stop token -------------------------------------------------------
mode INK_TOOL;
TOOL_WS            : INK_WS_F ;
TOOL_OBJ_OPEN      : '{' -> mode(DEFAULT_MODE), pushMode(INK_KEY) ;
TOOL_EMPTY_END     : INK_END_F -> mode(DEFAULT_MODE) ;

// ---- the call object's members: "args" is the arguments key (JsonCall's value modes) -------
mode INK_KEY;
INK_KEY_WS         : INK_WS_F ;
INK_NAME_KEY       : '"name"' INK_WS_F? ':' INK_WS_F? -> mode(INK_NEXT), pushMode(JC_NAME) ;
INK_ARGS_KEY       : ('"args"' | '"arguments"' | '"parameters"') INK_WS_F? ':' INK_WS_F? -> mode(INK_NEXT), pushMode(JC_ARGS) ;
INK_OTHER_KEY      : INK_STRING_F INK_WS_F? ':' INK_WS_F? -> mode(INK_NEXT), pushMode(JC_SKIP) ;
INK_EMPTY_CLOSE    : '}' -> popMode ;

mode INK_NEXT;
INK_NEXT_WS        : INK_WS_F ;
INK_COMMA          : ',' -> mode(INK_KEY) ;
INK_CLOSE          : '}' -> popMode ;
