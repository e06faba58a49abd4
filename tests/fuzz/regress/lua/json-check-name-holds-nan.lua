node("string__pa.gppppppADEDub(a") node("max: -nanxxxxxxxxxxxxxxxxxxxxxxyxxxxxxxxÿxxxxxxx,xxxx€‡xtrËix{{0, b") node("c")
matrix{{0, 1, 2}, {1, 0, 3}, {2, 3, 0}}
