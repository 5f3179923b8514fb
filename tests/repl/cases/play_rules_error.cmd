game Bad { state n  move n - 1 + 0 / (n - 3) if n > 0 }
:play Bad(5)
1
