-- port-models.lua - a lesson: the port models side by side on one cluster
-- (docs/models.md): asynchronous sender-receiver, sender-only, synchronous
-- and one-port, each with fnf against the optimum.
return {
  title = "Port models: what a send costs the sender",
  slides = {
    {
      title = "async: the sender moves on after s",
      cluster = "../../clusters/counterexample.csv",
      schedulers = {"fnf", "optimal"}, model = "async", step = "end",
      text = "The default model: the send port is busy for s, the link for L, the receive port\n" ..
             "for r. A sender starts its next send while the message is still travelling.",
      question = "What is fnf's makespan here?",
      predict = "makespan",
      answer = "6; the optimum's is 5.",
    },
    {
      title = "sender-only: only the send costs",
      cluster = "../../clusters/counterexample.csv",
      schedulers = {"fnf", "optimal"}, model = "sender-only", step = "end",
      text = "No link, no receive: a node holds the message as soon as the send is done.\n" ..
             "The slow receiver no longer matters: on this cluster fnf reaches the optimum.\n" ..
             "It does not always: lesson fnf-sum shows fnf at 8 against 7 in this model.",
    },
    {
      title = "sync: a rendezvous holds the sender for the whole transfer",
      cluster = "../../clusters/counterexample.csv",
      schedulers = {"fnf", "optimal"}, model = "sync", step = "end",
      text = "The send port is busy from the start of the send to the end of the receive\n" ..
             "(s + L + r): the narration says how long the port is busy.",
      question = "Why does every schedule take longer than under async?",
      answer = "The sender cannot start its next send until the receiver has the message.",
    },
    {
      title = "one-port: one transfer of T = s + L + r at a time",
      cluster = "../../clusters/counterexample.csv",
      schedulers = {"fnf", "optimal"}, model = "one-port", step = "end",
      text = "A node sends and receives at the same time, but one of each: Bhat et al. and\n" ..
             "Beaumont et al. use this model for platforms. Here it gives the times of sync.",
      question = "Why does one-port give the same makespans as sync on a broadcast?",
      answer = "A node receives the message once, before it sends: sending while receiving, " ..
               "what one-port allows beyond sync, never happens. fnf and the optimum both take 9.",
    },
    {
      title = "A cluster built on the slide: p2 twice as slow to receive",
      -- An inline cluster: the lesson builds it, no file under clusters/.
      cluster = {
        name = "slower-p2",
        description = "The counterexample with p2 receiving in 6 instead of 3.",
        latency = 1, source = "p0",
        nodes = {{"p0", 1, 2}, {"p1", 1, 2}, {"p2", 2, 6}},
      },
      schedulers = {"fnf", "optimal"}, model = "async", step = "end",
      text = "The same three nodes, but p2 now receives in 6. Press m and try sender-only:\n" ..
             "the slow receive no longer costs anything there.",
      question = "By how much does fnf now miss the optimum under async?",
      answer = "Still by 1: p2's receive starts at 3 under fnf and at 2 under the optimum.",
    },
  },
}
