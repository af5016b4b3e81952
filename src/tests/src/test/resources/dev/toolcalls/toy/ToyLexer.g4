// A throw-away format for testing the runtime without any bundled format:
//   text <call NAME #ID>raw arguments</call> text
lexer grammar ToyLexer;

TEXT      : ~'<'+ ;
LT        : '<' ;
OPEN      : '<call ' -> pushMode(HEAD) ;

mode HEAD;
NAME      : [a-zA-Z_.]+ ;
HEAD_WS   : ' '+ ;
HASH      : '#' -> pushMode(IDENT) ;
ARGS_OPEN : '>' -> mode(ARGS) ;

mode IDENT;
ID        : [a-zA-Z0-9_.:]+ -> popMode ;

mode ARGS;
ARG_TEXT  : ~'<'+ ;
ARG_LT    : '<' ;
CLOSE     : '</call>' -> popMode ;
