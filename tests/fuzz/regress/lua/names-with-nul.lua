node("a\0b") node("a\0c")
