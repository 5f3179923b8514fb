:load lib.game
grundy(Chain(4))
:def Chain
:reload
grundy(Chain(4)) + 1
1 / 0
:nope
:load missing.game
grundy(Chain(5))
