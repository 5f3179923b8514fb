" Run by ctest (tests/CMakeLists.txt) as: vim -Es -u NONE -N --cmd "let g:root = '...'" -S this
" Loads editors/vim on a .game file and checks the groups of a few places; exits 1 on a miss.
execute 'set rtp^=' . g:root . '/editors/vim'
filetype on
syntax on
execute 'edit ' . g:root . '/examples/loopy.game'
let s:want = [['^loopy game SquareButOne', 1, 'grundyStorage'], ['^loopy game SquareButOne', 12, 'grundyGameName'],
      \ ['^#', 1, 'grundyComment'], ['move n + 1', 3, 'grundyRule']]
let s:failed = 0
if &filetype !=# 'grundy'
  let s:failed = 1
endif
for [s:pattern, s:col, s:group] in s:want
  call cursor(1, 1)
  let s:line = search(s:pattern, 'c')
  let s:got = synIDattr(synID(s:line, s:col, 1), 'name')
  if s:line == 0 || s:got !=# s:group
    let s:failed = 1
    call writefile(['at ' . s:pattern . ' column ' . s:col . ': ' . s:got . ', not ' . s:group], '/dev/stderr', 'a')
  endif
endfor
execute s:failed ? 'cquit' : 'qall!'
