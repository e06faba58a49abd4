-- alltoall.lua - a lesson: contention in all-to-all personalized exchanges
-- (Chen & Liu): every node sends its own message to every other; under sync
-- a sender waits for a busy receiver, and the order decides the idle time.
return {
  title = "Contention in all-to-all exchanges",
  slides = {
    {
      title = "The caterpillar under sync",
      cluster = "../../clusters/counterexample.csv",
      schedulers = "caterpillar", pattern = "all-to-all", model = "sync", step = "end",
      text = "Every node sends to every other. A sync sender sits idle (the ╳ fill) while its\n" ..
             "receiver is busy. The lower bound: the busiest port, sends or receives.\n" ..
             "(c compares it with random orders.)",
      question = "Where does the first idle wait come from?",
      answer = "p0 idles (the fill) until 5: its step-3 receiver p2 is still receiving p1's step-2 message, " ..
               "which takes longer (p2 receives in 3). Each step is a permutation: the wait comes " ..
               "from steps of unequal length.",
    },
    {
      title = "Three classes, all-to-all, async",
      cluster = "../../clusters/k-class.lua", params = {n = 8},
      schedulers = {"caterpillar", "open-shop"}, pattern = "all-to-all", model = "async", step = "end",
      text = "Under async a sender moves on after s and each receiver serves messages in\n" ..
             "arrival order: the order still matters, but nobody idles at the sender.",
    },
  },
}
