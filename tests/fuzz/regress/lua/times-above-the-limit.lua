node("a", 1e300)
node("b")
latency(1e200)
edge = nil
