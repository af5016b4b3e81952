// Muse Glimmer ("Muse Spark"): ATEM tool calls inside channel-scoped messages. The prompt ends
// with <|start|>assistant, so the output starts with the first message's recipient:
//
//    to=self<|message|>Need the weather.<|eom|><|start|>assistant to=get_weather.get_weather<|message|><atem:function_calls>
//   <atem:invoke name="get_weather.get_weather">
//   <atem:parameter name="city">Paris</atem:parameter>
//   </atem:invoke>
//   </atem:function_calls><|eom|>
//
// - A message is a header "[<|start|>assistant][ ]to=RECIPIENT<|message|>" (the recipient may be
//   left out: "<|message|>"), a body, and <|eom|> or <|eot|>; the next header also ends it.
// - to=self: reasoning. to=user, or no recipient: content. Any other recipient: a tool message,
//   whose body is <atem:function_calls> (optional) around one or more
//   <atem:invoke name="NAME"><atem:parameter name="K">V</atem:parameter>...</atem:invoke>, each a
//   call; whitespace between them is dropped, other text there is content. ATEM markup in a to=self or to=user message is
//   text of that message, never a call (vLLM, SGLang).
// - Parameter values are raw text typed by the tool schema; without a schema they are read as JSON
//   when they are JSON, else kept as strings (vLLM and SGLang json-decode every value).
// - The chat template advertises a tool with a bare name NAME as the namespace "NAME.*", so the
//   model writes NAME.NAME: that doubled form is collapsed to NAME. The invoke's name is read as a
//   call id (role "id"), so that the format file's nameFromId regex can take the name out of it;
//   model ids are never kept (idPattern matches nothing), ids are generated.
// - Text outside any message (an output without framing) is content; blanks between a message's end
//   marker and the next header are not.
lexer grammar MuseGlimmerLexer;

fragment MG_START_F : '<|start|>' [ \t\r\n]* 'assistant' ;
fragment MG_MSG_F   : '<|message|>' ;
fragment MG_SP_F    : [ \t]* ;
fragment MG_RCPT_F  : ~[ \t\r\n<]+ ;
fragment MG_SELF_F  : MG_SP_F 'to=self' MG_SP_F MG_MSG_F ;
fragment MG_USER_F  : MG_SP_F ('to=user' MG_SP_F)? MG_MSG_F ;
fragment MG_TOOL_F  : MG_SP_F 'to=' MG_RCPT_F MG_SP_F MG_MSG_F ;
fragment MG_END_F   : '<|eom|>' | '<|eot|>' ;
fragment MG_WS_F    : [ \t\r\n]+ ;

// ---- between messages (and where the output starts) -----------------------------------------
HEADER_SELF     : MG_START_F? MG_SELF_F -> mode(MG_REASON) ;
HEADER_USER     : MG_START_F? MG_USER_F -> mode(MG_CONTENT) ;
HEADER_TOOL     : MG_START_F? MG_TOOL_F -> mode(MG_TOOL) ;
// unframed text: 't' and blanks may begin a header (" to=self<|message|>"), so they are tokens of
// their own that wait for the header to fail
TEXT            : ~[<t \t]+ ;
T_CHAR          : 't' ;
SPACES          : [ \t]+ ;
LT              : '<' ;
STRAY           : MG_START_F | MG_END_F ;

// ---- right after a message's end marker: blanks before the next header are not text ---------
mode MG_AFTER;
A_WS            : MG_WS_F ;
A_SELF          : MG_START_F MG_SELF_F -> type(HEADER_SELF), mode(MG_REASON) ;
A_USER          : (MG_START_F MG_USER_F | MG_MSG_F) -> type(HEADER_USER), mode(MG_CONTENT) ;
A_TOOL          : MG_START_F MG_TOOL_F -> type(HEADER_TOOL), mode(MG_TOOL) ;
A_STRAY         : (MG_START_F | MG_END_F) -> type(STRAY) ;
A_TEXT          : ~[<t \t\r\n] -> type(TEXT), mode(DEFAULT_MODE) ;
A_T             : 't' -> type(T_CHAR), mode(DEFAULT_MODE) ;
A_LT            : '<' -> type(LT), mode(DEFAULT_MODE) ;

// ---- to=self: reasoning ------------------------------------------------------------------------
mode MG_REASON;
R_TEXT          : ~'<'+ ;
R_LT            : '<' ;
R_END           : MG_END_F -> type(STRAY), mode(MG_AFTER) ;
R_END_START     : MG_START_F -> type(STRAY), mode(DEFAULT_MODE) ;
R_NEXT_SELF     : MG_START_F MG_SELF_F -> type(HEADER_SELF), mode(MG_REASON) ;
R_NEXT_USER     : (MG_START_F MG_USER_F | MG_MSG_F) -> type(HEADER_USER), mode(MG_CONTENT) ;
R_NEXT_TOOL     : MG_START_F MG_TOOL_F -> type(HEADER_TOOL), mode(MG_TOOL) ;

// ---- to=user or no recipient: content -------------------------------------------------------
mode MG_CONTENT;
C_TEXT          : ~'<'+ ;
C_LT            : '<' ;
C_END           : MG_END_F -> type(STRAY), mode(MG_AFTER) ;
C_END_START     : MG_START_F -> type(STRAY), mode(DEFAULT_MODE) ;
C_NEXT_SELF     : MG_START_F MG_SELF_F -> type(HEADER_SELF), mode(MG_REASON) ;
C_NEXT_USER     : (MG_START_F MG_USER_F | MG_MSG_F) -> type(HEADER_USER), mode(MG_CONTENT) ;
C_NEXT_TOOL     : MG_START_F MG_TOOL_F -> type(HEADER_TOOL), mode(MG_TOOL) ;

// ---- a tool message: ATEM invokes ---------------------------------------------------------------
mode MG_TOOL;
T_WS            : MG_WS_F ;
T_CALLS         : '<atem:function_calls>' | '</atem:function_calls>' ;
// text in a tool message that is no invoke is not part of the format; it is content (as written,
// but for the blanks before it) rather than an error or mangled code point by code point
T_TEXT          : ~[< \t\r\n] ~'<'* ;
T_LT            : '<' ;
INVOKE_OPEN     : '<atem:invoke' -> pushMode(MG_IATTR) ;
T_END           : MG_END_F -> type(STRAY), mode(MG_AFTER) ;
T_END_START     : MG_START_F -> type(STRAY), mode(DEFAULT_MODE) ;
T_NEXT_SELF     : MG_START_F MG_SELF_F -> type(HEADER_SELF), mode(MG_REASON) ;
T_NEXT_USER     : (MG_START_F MG_USER_F | MG_MSG_F) -> type(HEADER_USER), mode(MG_CONTENT) ;
T_NEXT_TOOL     : MG_START_F MG_TOOL_F -> type(HEADER_TOOL), mode(MG_TOOL) ;

// ---- <atem:invoke name="NAME"> -------------------------------------------------------------------
mode MG_IATTR;
IA_WS           : MG_WS_F ;
IA_NAME         : 'name' [ \t]* '=' [ \t]* '"' -> mode(MG_INAME) ;
IA_END          : '>' -> mode(MG_IBODY) ;

mode MG_INAME;
INVOKE_NAME     : ~["<>\r\n]+ -> mode(MG_INAME_END) ;
INVOKE_NO_NAME  : '"' -> mode(MG_IATTR) ;

mode MG_INAME_END;
INVOKE_NAME_END : '"' -> mode(MG_IATTR) ;

// ---- the invoke's parameters ------------------------------------------------------------------------
mode MG_IBODY;
IB_WS           : MG_WS_F ;
PARAM_OPEN      : '<atem:parameter' MG_WS_F 'name' [ \t]* '=' [ \t]* '"' -> mode(MG_PKEY) ;
INVOKE_CLOSE    : '</atem:invoke>' -> popMode ;

mode MG_PKEY;
KEY             : ~["<>\r\n]+ -> mode(MG_PKEY_END) ;

mode MG_PKEY_END;
KEY_END         : '"' [ \t]* '>' -> mode(MG_VALUE) ;

mode MG_VALUE;
V_TEXT          : ~'<'+ ;
V_LT            : '<' ;
PARAM_CLOSE     : '</atem:parameter>' -> mode(MG_IBODY) ;
