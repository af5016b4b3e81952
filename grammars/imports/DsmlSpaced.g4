// Shared: DeepSeek-V4.1 DSML tool calls, whose tag names begin with a space (vLLM
// parser/deepseek_v41.py, SGLang deepseekv41_detector.py, TensorRT-LLM deepseekv41_parser.py:
// "the spaces are part of the model's token contract"); used by deepseek_v41 and by deepseek_v4,
// which must not take a V4.1 block for text:
//
//   <｜DSML｜ calls>
//   <｜DSML｜ invoke name="get_weather">
//   <｜DSML｜ parameter name="city" string="true">Paris</｜DSML｜ parameter>
//   <｜DSML｜ parameter name="days" string="false">3</｜DSML｜ parameter>
//   </｜DSML｜ invoke>
//   </｜DSML｜ calls>
//
// A host enters the block with '<｜DSML｜ calls>' -> pushMode(DSMLS_WRAP_M) (its first call may
// begin at that marker: the host spells it with DSMLS_WS_F and DSMLS_INVOKE_OPEN_F and pushes
// DSMLS_IATTR_M as well); '</｜DSML｜ calls>' pops back. Several invokes per block, one call each.
// Parameters read as in the unspaced Dsml grammar: string="true" a string as written,
// string="false" strict JSON (kept as a string when it is not), no attribute typed by the tool
// schema; a close tag ends a value only when the next parameter or </｜DSML｜ invoke> follows it.
// The body of an invoke may instead be one JSON object (SGLang's V4.1 structural tag constrains
// the model to it; the V3.2-lineage detectors accept it), streamed verbatim as the arguments.
// Roles are in DsmlSpaced.json; the host includes JsonValue's too.
lexer grammar DsmlSpaced;
import JsonValue;

fragment DSMLS_WS_F          : [ \t\r\n]+ ;
fragment DSMLS_INVOKE_OPEN_F : '<｜DSML｜ invoke' ;
fragment DSMLS_PARAM_OPEN_F  : '<｜DSML｜ parameter' DSMLS_WS_F 'name="' ;

// ---- inside the block: invokes and whitespace -----------------------------------------------
mode DSMLS_WRAP_M;
DSMLS_WRAP_WS      : DSMLS_WS_F ;
DSMLS_INVOKE       : DSMLS_INVOKE_OPEN_F -> pushMode(DSMLS_IATTR_M) ;
DSMLS_WRAP_CLOSE   : '</｜DSML｜ calls>' -> popMode ;

// ---- invoke attributes: name="NAME" ---------------------------------------------------------
mode DSMLS_IATTR_M;
DSMLS_IATTR_WS     : DSMLS_WS_F ;
DSMLS_NAME_ATTR    : 'name' [ \t]* '=' [ \t]* -> mode(DSMLS_INAME_M) ;
DSMLS_IATTR_END    : '>' -> mode(DSMLS_BODY_M) ;

mode DSMLS_INAME_M;
DSMLS_NAME         : '"' ~["\\<>\r\n]* '"' -> mode(DSMLS_ITAIL_M) ;

mode DSMLS_ITAIL_M;
DSMLS_ITAIL_WS     : DSMLS_WS_F ;
DSMLS_ITAIL_END    : '>' -> mode(DSMLS_BODY_M) ;

// ---- invoke body: parameters, or one JSON object ----------------------------------------------
mode DSMLS_BODY_M;
DSMLS_BODY_WS      : DSMLS_WS_F ;
DSMLS_PARAM_OPEN   : DSMLS_PARAM_OPEN_F -> mode(DSMLS_KEY_M) ;
DSMLS_INVOKE_CLOSE : '</｜DSML｜ invoke>' -> popMode ;
DSMLS_JSON_OPEN    : '{' -> mode(DSMLS_AFTER_JSON_M), pushMode(JV_NEST) ;

mode DSMLS_AFTER_JSON_M;
DSMLS_AFTER_JSON_WS : DSMLS_WS_F ;
DSMLS_JSON_CLOSE   : '</｜DSML｜ invoke>' -> popMode ;

mode DSMLS_KEY_M;
DSMLS_KEY          : ~["<>\r\n]+ -> mode(DSMLS_KTAIL_M) ;

mode DSMLS_KTAIL_M;
DSMLS_KEY_END      : '"' -> mode(DSMLS_PATTR_M) ;

// ---- parameter attributes after the name: string="true" | string="false" --------------------
mode DSMLS_PATTR_M;
DSMLS_PATTR_WS     : [ \t]+ ;
DSMLS_AS_STRING    : 'string' [ \t]* '=' [ \t]* '"true"' ;
DSMLS_AS_JSON      : 'string' [ \t]* '=' [ \t]* '"false"' ;
DSMLS_PATTR_END    : '>' -> mode(DSMLS_VALUE_M) ;

mode DSMLS_VALUE_M;
DSMLS_V_TEXT       : ~'<'+ ;
DSMLS_V_LT         : '<' ;
DSMLS_P_CLOSE_NEXT : '</｜DSML｜ parameter>' DSMLS_WS_F? DSMLS_PARAM_OPEN_F -> mode(DSMLS_KEY_M) ;
DSMLS_P_CLOSE_LAST : '</｜DSML｜ parameter>' DSMLS_WS_F? '</｜DSML｜ invoke>' -> popMode ;
