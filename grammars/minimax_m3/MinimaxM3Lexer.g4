// MiniMax-M3 tool calls (vLLM parser/minimax_m3.py and tests/parser/engine/test_minimax_m3.py,
// SGLang function_call/minimax_m3.py, llama.cpp common/parsers/minimax-m3.cpp, TensorRT-LLM
// minimax_m3_parser.py): every tag is prefixed with the namespace marker ]<]minimax[>[ and a
// parameter is an element named after its key:
//
//   ]<]minimax[>[<tool_call>
//   ]<]minimax[>[<invoke name="create_order">
//   ]<]minimax[>[<user_id>42]<]minimax[>[</user_id>
//   ]<]minimax[>[<tags>
//   ]<]minimax[>[<item>gift]<]minimax[>[</item>
//   ]<]minimax[>[<item>urgent]<]minimax[>[</item>
//   ]<]minimax[>[</tags>
//   ]<]minimax[>[</invoke>
//   ]<]minimax[>[</tool_call>
//
// Several invokes (one call each) per block; the invoke name is quoted ("..." or '...') or bare;
// whitespace between the marker and '<' is tolerated (SGLang normalises it). A parameter's text
// value is raw, typed by the tool schema, verbatim; it ends at the marker and a close tag (the
// close tag's name is not compared with the key). A value that is a list of <item> elements is a
// JSON array of their texts, as strings (the items are transliterated with the literal roles,
// which cannot consult the schema). Elements nested any other way (objects, arrays of objects)
// cannot be written by this runtime and are unexpected_text rather than a silently wrong value.
// A marker that does not open a block, and an invoke outside a block, are content.
//
// Reasoning: <mm:think>...</mm:think>. The prompt opens the block only for thinking_mode
// "enabled" (SGLang, vLLM), so thinking is off by default and a <mm:think> in content opens
// reasoning; with it on the output begins inside reasoning (thinkingMode M3_LEAD_M; a
// <mm:think> written anyway is dropped). A bare </mm:think> in content (M3 prefixes
// non-thinking turns with one) is dropped. A tool block inside reasoning is reasoning text.
lexer grammar MinimaxM3Lexer;

fragment M3_NS      : ']<]minimax[>[' ;
fragment M3_WS_F    : [ \t\r\n]+ ;
fragment M3_NAME_EQ : 'name' [ \t]* '=' [ \t]* ;

// ---- content -----------------------------------------------------------------------------
M3_TEXT          : ~[\]<]+ ;
M3_RB            : ']' ;
M3_LT            : '<' ;
M3_BLOCK_OPEN    : M3_NS M3_WS_F? '<tool_call>' -> pushMode(M3_BLOCK_M) ;
// the block's first call begins at the block marker, so that a malformed first call given back
// as content (lenient mode) keeps the marker
M3_FIRST_INVOKE  : M3_NS M3_WS_F? '<tool_call>' M3_WS_F? M3_NS M3_WS_F? '<invoke' -> pushMode(M3_BLOCK_M), pushMode(M3_IATTR_M) ;
M3_THINK_OPEN    : '<mm:think>' -> pushMode(M3_THINK_M) ;
M3_STRAY_CLOSE   : '</mm:think>' ;

// ---- the start of an output that begins inside reasoning ---------------------------------------
mode M3_LEAD_M;
M3_LEAD_WS       : M3_WS_F ;
M3_LEAD_OPEN     : '<mm:think>' -> mode(M3_THINK_M) ;
M3_LEAD_CHAR     : ~[< \t\r\n] -> mode(M3_THINK_M) ;
M3_LEAD_LT       : '<' -> mode(M3_THINK_M) ;
M3_LEAD_CLOSE    : '</mm:think>' -> popMode ;

// ---- reasoning ------------------------------------------------------------------------------
mode M3_THINK_M;
M3_R_TEXT        : ~'<'+ ;
M3_R_LT          : '<' ;
M3_THINK_CLOSE   : '</mm:think>' -> popMode ;

// ---- inside a block: invokes and whitespace -------------------------------------------------
mode M3_BLOCK_M;
M3_BLOCK_WS      : M3_WS_F ;
M3_INVOKE_OPEN   : M3_NS M3_WS_F? '<invoke' -> pushMode(M3_IATTR_M) ;
M3_BLOCK_CLOSE   : M3_NS M3_WS_F? '</tool_call>' -> popMode ;

// ---- invoke attributes: name="NAME" | name='NAME' | name=NAME -------------------------------
mode M3_IATTR_M;
M3_IATTR_WS      : M3_WS_F ;
M3_NAME_ATTR     : M3_NAME_EQ -> mode(M3_INAME_M) ;
M3_IATTR_END     : '>' -> mode(M3_BODY_M) ;

mode M3_INAME_M;
M3_NAME_DQ       : '"' ~["\\<>\r\n]* '"' -> mode(M3_ITAIL_M) ;
M3_NAME_SQ_OPEN  : '\'' -> mode(M3_INAME_SQ_M) ;
M3_NAME_BARE     : ~["'<>= \t\r\n]+ -> mode(M3_ITAIL_M) ;

mode M3_INAME_SQ_M;
M3_NAME_SQ       : ~['<>\r\n]+ ;
M3_NAME_SQ_CLOSE : '\'' -> mode(M3_ITAIL_M) ;

mode M3_ITAIL_M;
M3_ITAIL_WS      : M3_WS_F ;
M3_ITAIL_END     : '>' -> mode(M3_BODY_M) ;

// ---- invoke body: parameter elements ----------------------------------------------------------
mode M3_BODY_M;
M3_BODY_WS       : M3_WS_F ;
M3_INVOKE_CLOSE  : M3_NS M3_WS_F? '</invoke>' -> popMode ;
M3_PARAM_OPEN    : M3_NS M3_WS_F? '<' -> mode(M3_KEY_M) ;

mode M3_KEY_M;
M3_KEY           : ~[<>/\r\n] ~[<>\r\n]* -> mode(M3_KEY_END_M) ;

mode M3_KEY_END_M;
M3_KEY_GT        : '>' -> mode(M3_VSTART_M) ;

// ---- the start of a value: a list of <item> elements, or text ----------------------------------
mode M3_VSTART_M;
M3_ARRAY_OPEN    : M3_WS_F? M3_NS M3_WS_F? '<item' -> mode(M3_ITEM_GT_M) ;
M3_VS_WS         : M3_WS_F -> mode(M3_VALUE_M) ;
M3_VS_CHAR       : ~[\] \t\r\n] -> mode(M3_VALUE_M) ;
M3_VS_RB         : ']' -> mode(M3_VALUE_M) ;
M3_VS_NS         : M3_NS -> mode(M3_VTAG_M) ;

// ---- a text value, up to the marker and a close tag ---------------------------------------------
mode M3_VALUE_M;
M3_V_TEXT        : ~']'+ ;
M3_V_RB          : ']' ;
M3_V_NS          : M3_NS -> mode(M3_VTAG_M) ;

mode M3_VTAG_M;
M3_V_CLOSE       : M3_WS_F? '</' ~[<>\r\n]+ '>' -> mode(M3_BODY_M) ;

// ---- a list value: <item>text</item> ..., then the close tag ------------------------------------
mode M3_ITEM_GT_M;
M3_ITEM_GT       : '>' -> mode(M3_LEAF_M) ;

mode M3_LEAF_M;
M3_L_TEXT        : ~']'+ ;
M3_L_RB          : ']' ;
M3_L_NS          : M3_NS -> mode(M3_LTAG_M) ;

mode M3_LTAG_M;
M3_L_CLOSE       : M3_WS_F? '</item>' -> mode(M3_ARR_NEXT_M) ;

mode M3_ARR_NEXT_M;
M3_A_WS          : M3_WS_F ;
M3_A_NS          : M3_NS -> mode(M3_ATAG_M) ;

mode M3_ATAG_M;
M3_A_ITEM        : M3_WS_F? '<item' -> mode(M3_ITEM_GT_M) ;
M3_A_CLOSE       : M3_WS_F? '</' ~[<>\r\n]+ '>' -> mode(M3_BODY_M) ;
