" Grundy rule files (.game): https://github.com/ (this repository), editors/README.md
autocmd BufRead,BufNewFile *.game setfiletype grundy
