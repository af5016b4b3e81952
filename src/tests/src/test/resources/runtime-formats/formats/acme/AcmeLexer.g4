// A format that is not bundled: tests load it at run time (--format-dir, Formats.load).
//
//   Let me look.[[call get_weather {"city": "Paris"}]] Done.
//
lexer grammar AcmeLexer;

TEXT        : ~'['+ ;
LB          : '[' ;
OPEN        : '[[call ' -> pushMode(HEAD) ;

mode HEAD;
NAME        : [a-zA-Z_] [a-zA-Z0-9_.]* ;
SEP         : ' '+ -> mode(ARGS) ;
HEAD_CLOSE  : ']]' -> type(CLOSE), popMode ;

mode ARGS;
ARGS_TEXT   : ~']'+ ;
RB          : ']' ;
CLOSE       : ']]' -> popMode ;
