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
      question = "What is the makespan of fnf and of the optimum here?",
      answer = "6 and 5.",
    },
    {
      title = "sender-only: only the send costs",
      cluster = "../../clusters/counterexample.csv",
      schedulers = {"fnf", "optimal"}, model = "sender-only", step = "end",
      text = "No link, no receive: a node holds the message as soon as the send is done.\n" ..
             "The slow receiver no longer matters, and fnf is optimal.",
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
      title = "one-port: one transfer of T at a time",
      cluster = "../../clusters/platform-small.csv",
      schedulers = {"fef", "optimal"}, model = "one-port", step = "end",
      text = "On a platform graph each edge takes its time T, and under one-port a sender's\n" ..
             "port is busy for the whole T of each transfer (Bhat et al., Beaumont et al.):\n" ..
             "fef and the optimum both take 8 here. On a node table a broadcast under\n" ..
             "one-port is the same as under sync: each node receives once.",
      question = "Press m for multi-port, where a send holds the port only for the edge's send time: what is the optimum now?",
      answer = "7: each send holds P0's port 1.6 instead of the edge's whole T, so its next send starts sooner.",
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
