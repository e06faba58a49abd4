-- fnf-loses.lua - a lesson: why fastest-node-first loses (Liu, Wang & Guo,
-- section 2.2, Fig. 1), then the worst case `hetcast experiment
-- counterexample` found among 5000 random clusters.
-- Present it: hetcast lesson lua/lessons/fnf-loses.lua   Handout: add --print
return {
  title = "Why fastest-node-first loses",
  slides = {
    {
      title = "Three nodes, one message",
      cluster = "../../clusters/counterexample.csv",
      schedulers = "fnf",
      step = 0,
      text = "p0 holds the message. p0 and p1 send in 1 and receive in 2; p2 is slow:\n" ..
             "it sends in 2 and receives in 3. Every transfer also crosses a link of latency 1.\n" ..
             "Fastest-node-first serves the fastest waiting node first.",
      question = "Which node should p0 serve first?",
      choices = {"p1", "p2"}, correct = 2,
      answer = "p2, the slow one: its long receive must start as early as possible.",
    },
    {
      title = "fnf serves p1 first",
      cluster = "../../clusters/counterexample.csv",
      schedulers = "fnf",
      step = "end",
      text = "fnf's first transfer goes to p1, the fastest waiting node. The view stops before\n" ..
             "the next one: i on a node shows its times, t the tree, L every decision.",
      question = "p0 has sent to p1. Which transfer does fnf book next?",
      predict = "next", decision = 2,
      answer = "p0 is free at 1, before p1 holds the message at 4: fnf's earliest finishing sender is p0.",
    },
    {
      title = "The optimum serves p2 first",
      cluster = "../../clusters/counterexample.csv",
      schedulers = {"fnf", "optimal"},
      step = "end",
      text = "Side by side: the first decision already differs. Serving p2 first gives 5 for\n" ..
             "both receivers, the lower bound s(p0) + L + r(p2) = 1 + 1 + 3.",
      question = "By how much does fnf miss the optimum, and which node is late?",
      answer = "By 1: p2 holds the message at 6 instead of 5.",
    },
    {
      title = "The worst of 5000 random clusters",
      cluster = "../../clusters/fnf-worst.csv",
      schedulers = {"fnf", "optimal"},
      show = {"p3"},
      step = "end",
      text = "hetcast experiment counterexample searched 5000 random small clusters for the\n" ..
             "worst ratio fnf / optimal. Here fnf needs half as long again as the optimum.",
      question = "Which node does fnf serve too late, and why?",
      answer = "p3, the slowest receiver: fnf serves the fast senders first (see first difference).",
    },
  },
}
