node("solo", 1, 1)
