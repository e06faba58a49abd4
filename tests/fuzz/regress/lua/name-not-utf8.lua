node("p0", 1, 2)
node("a\255b", 2, 3)
