// MiniMax-M2 / M2.1 / M2.5 / M2.7 tool calls (FORMATS.md 3.17):
//
//   <minimax:tool_call>
//   <invoke name="get_weather">
//   <parameter name="city">Paris</parameter>
//   </invoke>
//   </minimax:tool_call>
//
// Several <invoke> elements (one call each) per block. Names and parameter names are quoted
// ("..." or '...') or bare (<invoke name=get_weather>). Values are raw text typed by the tool
// schema, kept verbatim; they may contain '<', a prefix of </parameter> (held back, never leaked)
// and even a literal </parameter>: a close tag only ends the value when the next <parameter or
// </invoke> follows it (whitespace between), so the close token carries that look-ahead.
// MiniMax also writes an <invoke> without the <minimax:tool_call> block around it (vLLM's engine
// starts a call at <invoke name= in content; a live-MiniMax test elsewhere shows it): such an invoke
// is a call of its own, from '<invoke name=' to its '</invoke>'. Prose that shows the tag
// ('<invoke name="x"> and ...') is told apart by what follows the '>': an invoke goes on with a
// newline or a tag, prose with other text on the same line (MM_INVOKE_LOOKALIKE, longer, is content).
//
// Reasoning (TaggedThink): the output begins inside reasoning and only </think> is emitted
// (card 3.17, FORMATS.md 4): thinkingMode TT_LEAD, thinkingDefault true; everything before
// </think> is reasoning (a leading <think>, if written, is dropped). The card does not say that
// <minimax:tool_call> ends reasoning, so a block before </think> is reasoning text. With thinking
// off there is no reasoning: the output is read from the default mode, <think> tags as content.
lexer grammar MinimaxM2Lexer;
import TaggedThink;

fragment MM_WS_F   : [ \t\r\n]+ ;
fragment MM_NAME_EQ : 'name' [ \t]* '=' [ \t]* ;

// ---- content -----------------------------------------------------------------------------
MM_TEXT          : ~'<'+ ;
MM_LT            : '<' ;
MM_BLOCK_OPEN    : '<minimax:tool_call>' -> pushMode(MM_BLOCK_M) ;
// the block's first call begins at the block marker, so that a malformed first call given back
// as content (lenient mode) keeps the marker
MM_FIRST_INVOKE  : '<minimax:tool_call>' MM_WS_F? '<invoke' -> pushMode(MM_BLOCK_M), pushMode(MM_IATTR_M) ;
MM_BARE_INVOKE   : '<invoke' MM_WS_F MM_NAME_EQ -> pushMode(MM_INAME_M) ;
MM_INVOKE_LOOKALIKE : '<invoke' MM_WS_F MM_NAME_EQ ~[<>\r\n]* '>' [ \t]* ~[<\r\n \t] ;

// ---- inside a block: invokes and whitespace -------------------------------------------------
mode MM_BLOCK_M;
MM_BLOCK_WS      : MM_WS_F ;
MM_INVOKE_OPEN   : '<invoke' -> pushMode(MM_IATTR_M) ;
MM_BLOCK_CLOSE   : '</minimax:tool_call>' -> popMode ;

// ---- invoke attributes: name="NAME" | name='NAME' | name=NAME -------------------------------
mode MM_IATTR_M;
MM_IATTR_WS      : MM_WS_F ;
MM_NAME_ATTR     : MM_NAME_EQ -> mode(MM_INAME_M) ;
MM_IATTR_END     : '>' -> mode(MM_BODY_M) ;

mode MM_INAME_M;
MM_NAME_DQ       : '"' ~["\\<>\r\n]* '"' -> mode(MM_ITAIL_M) ;
MM_NAME_SQ_OPEN  : '\'' -> mode(MM_INAME_SQ_M) ;
MM_NAME_BARE     : ~["'<>= \t\r\n]+ -> mode(MM_ITAIL_M) ;

mode MM_INAME_SQ_M;
MM_NAME_SQ       : ~['<>\r\n]+ ;
MM_NAME_SQ_CLOSE : '\'' -> mode(MM_ITAIL_M) ;

mode MM_ITAIL_M;
MM_ITAIL_WS      : MM_WS_F ;
MM_ITAIL_END     : '>' -> mode(MM_BODY_M) ;

// ---- invoke body: parameters ----------------------------------------------------------------
mode MM_BODY_M;
MM_BODY_WS       : MM_WS_F ;
MM_PARAM_OPEN    : '<parameter' MM_WS_F MM_NAME_EQ -> mode(MM_PNAME_M) ;
MM_INVOKE_CLOSE  : '</invoke>' -> popMode ;

mode MM_PNAME_M;
MM_KEY_DQ_OPEN   : '"' -> mode(MM_KEY_DQ_M) ;
MM_KEY_SQ_OPEN   : '\'' -> mode(MM_KEY_SQ_M) ;
MM_KEY_BARE      : ~["'<>= \t\r\n]+ -> mode(MM_PTAIL_M) ;

mode MM_KEY_DQ_M;
MM_KEY_DQ        : ~["\r\n]+ -> mode(MM_KEY_DQ_END_M) ;

mode MM_KEY_DQ_END_M;
MM_KEY_DQ_CLOSE  : '"' -> mode(MM_PTAIL_M) ;

mode MM_KEY_SQ_M;
MM_KEY_SQ        : ~['\r\n]+ -> mode(MM_KEY_SQ_END_M) ;

mode MM_KEY_SQ_END_M;
MM_KEY_SQ_CLOSE  : '\'' -> mode(MM_PTAIL_M) ;

mode MM_PTAIL_M;
MM_PTAIL_WS      : [ \t]+ ;
MM_PTAIL_END     : '>' -> mode(MM_VALUE_M) ;

mode MM_VALUE_M;
MM_V_TEXT        : ~'<'+ ;
MM_V_LT          : '<' ;
MM_P_CLOSE_NEXT  : '</parameter>' MM_WS_F? '<parameter' MM_WS_F MM_NAME_EQ -> mode(MM_PNAME_M) ;
MM_P_CLOSE_LAST  : '</parameter>' MM_WS_F? '</invoke>' -> popMode ;
