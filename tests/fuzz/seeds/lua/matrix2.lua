node("a") node("b") node("c")
matrix{{0, 1, 2}, {1, 0, 3}, {2, 3, 0}}
