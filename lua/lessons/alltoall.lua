-- alltoall.lua - a lesson: contention in all-to-all personalized exchanges
-- (Chen & Liu): every node sends its own message to every other; under sync
-- a sender waits for a busy receiver, and the order decides the idle time.
return {
  title = "Contention in all-to-all exchanges",
  slides = {
    {
      title = "The caterpillar under sync",
      cluster = "../../clusters/counterexample.csv",
      schedulers = {"caterpillar", "random"}, pattern = "all-to-all", model = "sync", step = "end",
      text = "Every node sends to every other. A sync sender sits idle (the ╳ fill) while its\n" ..
             "receiver is busy. The lower bound: the busiest port, sends or receives.",
      question = "Where does the first idle wait come from?",
      answer = "p0 is free at 4, but its step-3 receiver p2 is still receiving p1's step-2 message\n" ..
               "until 5 (p2 receives slowest): p0 waits [4, 5). Each caterpillar step is a\n" ..
               "permutation, so no two senders ever pick the same receiver at once.",
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
