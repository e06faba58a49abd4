-- peer-instruction.lua - a lesson for a live class (docs/class.md): every
-- slide asks a question the students answer from their own terminals
-- (hetcast join ROOM), graded by hetcast against its own runs.
-- Present it: hetcast lesson lua/lessons/peer-instruction.lua --class ROOM
return {
  title = "Peer Instruction: fastest-node-first",
  slides = {
    {
      title = "Three nodes, one message",
      cluster = "../../clusters/counterexample.csv",
      schedulers = "fnf",
      step = 0,
      text = "p0 holds the message. p0 and p1 send in 1 and receive in 2; p2 is slow:\n" ..
             "it sends in 2 and receives in 3. Every transfer also crosses a link of latency 1.",
      question = "Which node should p0 serve first to finish soonest?",
      choices = {"p1, the fast receiver", "p2, the slow receiver", "it makes no difference"},
      correct = 2,
      answer = "p2: its long receive must start as early as possible.",
    },
    {
      title = "fnf's first decision",
      cluster = "../../clusters/counterexample.csv",
      schedulers = "fnf",
      step = 0,
      text = "Fastest-node-first serves first the waiting node that sends fastest (the\n" ..
             "smallest send time): it becomes a sender soonest.",
      question = "Which transfer does fnf book first? (SENDER -> RECEIVER)",
      predict = "next",
      answer = "p0 -> p1: p1 sends fastest (s = 1) of the waiting nodes, and p0 is the only holder.",
    },
    {
      title = "What fnf takes",
      cluster = "../../clusters/counterexample.csv",
      schedulers = "fnf",
      step = 0,
      question = "What makespan does fnf reach?",
      predict = "makespan",
      answer = "6: p2's receive starts only at 3.",
    },
    {
      title = "fnf against the optimum",
      cluster = "../../clusters/counterexample.csv",
      schedulers = {"fnf", "optimal"},
      step = "end",
      question = "By how much does fnf miss the optimum?",
      choices = {"0: fnf is optimal here", "by 1", "by 2", "by 3"},
      correct = 2,
      answer = "By 1: the optimum serves p2 first and ends at 5.",
    },
    {
      title = "The same cluster under sync",
      cluster = "../../clusters/counterexample.csv",
      schedulers = "fnf",
      model = "sync",
      step = 0,
      text = "Under sync a transfer holds the sender, the link and the receiver together.",
      question = "What makespan does fnf reach under sync?",
      predict = "makespan",
      answer = "9: every transfer holds its sender for the whole transfer, so the run takes longer.",
    },
  },
}
