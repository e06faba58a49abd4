-- platform graph: edge() with send and bidirectional
node("p") node("q", 1) node("r")
edge("p", "q", 2, {send = 1, bidirectional = true})
edge(2, 3, 1.5) edge("r", "p", 3)
source(1)
