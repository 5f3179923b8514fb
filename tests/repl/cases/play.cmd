game Nim { state n  move k for k in 0..n-1 }
play Nim(2) + Nim(2)
:hint
2
:options
Nim(1) + Nim(1)
Nim(0) + Nim(1)
grundy(Nim(3))
