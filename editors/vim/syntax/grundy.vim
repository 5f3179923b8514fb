" Vim syntax file for Grundy's rule language (.game files), docs/language.md.
" Install: copy editors/vim/syntax and editors/vim/ftdetect into ~/.vim (editors/README.md).
if exists("b:current_syntax")
  finish
endif

syn keyword grundyConditional if then else
syn keyword grundyRepeat      for in
syn keyword grundyStatement   assert import
syn keyword grundyRule        state move split value
syn keyword grundyStorage     game loopy def let octal subtraction graph
syn keyword grundyOperatorWord and or not xor misere every
syn keyword grundyBoolean     true false
syn keyword grundyOutcome     P N D
syn match   grundyBuiltin     "\<\(grundy\|outcome\|wins\|options\|winning\|draws\|drawing\|remoteness\|table\|period\|steps\|quotient\|size\|psize\|tame\|presentation\|phi\|dot\|plot\|genus\|min\|max\|abs\|len\|sum\|sorted\|mex\|update\|remove\|list\|set\|all\|any\)\>\ze\s*("
" After the keyword, which a match may not start on (keywords win there).
syn match   grundyGameName    "\(\<game\s\+\)\@<=[A-Za-z_][A-Za-z0-9_]*"
syn match   grundyFuncName    "\(\<def\s\+\)\@<=[A-Za-z_][A-Za-z0-9_]*"
syn match   grundyNumber      "\<[0-9]\+\>"
syn match   grundyOperator    "==\|!=\|<=\|>=\|->\|\.\.\|[-+*/%^<>=]"
syn match   grundyEscape      contained "\\[\"\\nt]"
syn region  grundyString      start=+"+ skip=+\\\\\|\\"+ end=+"+ end=+$+ contains=grundyEscape
syn match   grundyComment     "#.*$" contains=grundyTodo
syn keyword grundyTodo        contained TODO FIXME XXX

hi def link grundyConditional Conditional
hi def link grundyRepeat      Repeat
hi def link grundyStatement   Statement
hi def link grundyRule        Keyword
hi def link grundyStorage     StorageClass
hi def link grundyOperatorWord Operator
hi def link grundyBoolean     Boolean
hi def link grundyOutcome     Constant
hi def link grundyBuiltin     Function
hi def link grundyGameName    Type
hi def link grundyFuncName    Function
hi def link grundyNumber      Number
hi def link grundyOperator    Operator
hi def link grundyEscape      SpecialChar
hi def link grundyString      String
hi def link grundyComment     Comment
hi def link grundyTodo        Todo

let b:current_syntax = "grundy"
