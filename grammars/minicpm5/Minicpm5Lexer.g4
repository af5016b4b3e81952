// MiniCPM 5 tool calls (FORMATS.md 3.28; vLLM tool_parsers/minicpm5xml_tool_parser.py, SGLang
// minicpm5_detector.py, llama.cpp common/parsers/minicpm5.cpp): bare XML elements in content,
// one call each, no wrapper:
//
//   <function name="get_weather"><param name="city">北京</param><param name="date">2024-06-27</param></function>
//   <function name="write"><param name="text"><![CDATA[a </param> is fine
//   here]]></param></function>
//
// The name is quoted ("..." or '...'); further attributes after it are skipped. A value is raw
// text up to </param>, typed by the tool schema (values of parameters the schema does not know
// are read as JSON when they are JSON, as both Python peers do); a <![CDATA[...]]> section in it
// is taken verbatim without its markers, so it may hold </param> (llama.cpp's reading). An
// <arguments> element around the parameters (vLLM's XML path) is skipped. vLLM's normalisation
// of the collapsed tokens <functionname= and <paramname= is kept.
//
// Reasoning (TaggedThink): the model writes <think>...</think> itself (llama.cpp expects the tag
// after the generation prompt), so thinking is off by default and a <think> in content opens
// reasoning; with thinking on the output begins inside it (a <think> written anyway is dropped).
// A <function written inside reasoning is reasoning text; a stray </think> in content is dropped.
lexer grammar Minicpm5Lexer;
import TaggedThink;

fragment MC_WS_F    : [ \t\r\n]+ ;
fragment MC_NAME_EQ : 'name' [ \t]* '=' [ \t]* ;

// ---- content -----------------------------------------------------------------------------
MC_TEXT           : ~'<'+ ;
MC_LT             : '<' ;
MC_CALL_OPEN      : '<function' MC_WS_F? MC_NAME_EQ -> pushMode(MC_FNAME_M) ;
MC_THINK_OPEN     : '<think>' -> pushMode(TT_THINK) ;
MC_STRAY_CLOSE    : '</think>' ;

// ---- the function name, then other attributes and '>' -----------------------------------------
mode MC_FNAME_M;
MC_NAME_DQ        : '"' ~["\\<>\r\n]* '"' -> mode(MC_FTAIL_M) ;
MC_NAME_SQ_OPEN   : '\'' -> mode(MC_FNAME_SQ_M) ;

mode MC_FNAME_SQ_M;
MC_NAME_SQ        : ~['<>\r\n]+ ;
MC_NAME_SQ_CLOSE  : '\'' -> mode(MC_FTAIL_M) ;

mode MC_FTAIL_M;
MC_FTAIL_WS       : MC_WS_F ;
MC_FATTR          : ~[ \t\r\n<>="']+ [ \t]* '=' [ \t]* ('"' ~["<>]* '"' | '\'' ~['<>]* '\'') ;
MC_FTAIL_END      : '>' -> mode(MC_BODY_M) ;

// ---- function body: parameters --------------------------------------------------------------
mode MC_BODY_M;
MC_BODY_WS        : MC_WS_F ;
MC_ARGS_TAG       : '<arguments>' | '</arguments>' ;
MC_PARAM_OPEN     : '<param' MC_WS_F? MC_NAME_EQ -> mode(MC_PNAME_M) ;
MC_FN_CLOSE       : '</function>' -> popMode ;

mode MC_PNAME_M;
MC_KEY_DQ_OPEN    : '"' -> mode(MC_KEY_DQ_M) ;
MC_KEY_SQ_OPEN    : '\'' -> mode(MC_KEY_SQ_M) ;

mode MC_KEY_DQ_M;
MC_KEY_DQ         : ~["<>\r\n]+ -> mode(MC_KEY_DQ_END_M) ;

mode MC_KEY_DQ_END_M;
MC_KEY_DQ_CLOSE   : '"' -> mode(MC_PTAIL_M) ;

mode MC_KEY_SQ_M;
MC_KEY_SQ         : ~['<>\r\n]+ -> mode(MC_KEY_SQ_END_M) ;

mode MC_KEY_SQ_END_M;
MC_KEY_SQ_CLOSE   : '\'' -> mode(MC_PTAIL_M) ;

mode MC_PTAIL_M;
MC_PTAIL_WS       : [ \t]+ ;
MC_PTAIL_END      : '>' -> mode(MC_VALUE_M) ;

// ---- the raw value, CDATA sections verbatim ----------------------------------------------------
mode MC_VALUE_M;
MC_V_TEXT         : ~'<'+ ;
MC_V_LT           : '<' ;
MC_CDATA_OPEN     : '<![CDATA[' -> pushMode(MC_CDATA_M) ;
MC_P_CLOSE        : '</param>' -> mode(MC_BODY_M) ;

mode MC_CDATA_M;
MC_CD_TEXT        : ~']'+ ;
MC_CD_RB          : ']' ;
MC_CDATA_CLOSE    : ']]>' -> popMode ;
