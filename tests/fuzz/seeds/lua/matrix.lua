-- latency matrix: distance() and matrix()
unit(2)
node("x") node("y", 1) node("z", 0, 1)
distance("x", "y", 1) distance(1, 3, 2, "one-way") distance(3, 1, 4) distance("y", "z", 0)
