-- class.lua - a lesson for the live-class tests (tests/class.sh): a
-- question with choices, a makespan to predict, the next transfer to
-- predict, a slide that asks nothing, and a slide whose exercise the class
-- plays as a challenge (five nodes, inline).
return {
  title = "A class on fnf",
  slides = {
    {
      title = "Three nodes, one message",
      cluster = "../../clusters/counterexample.csv",
      schedulers = "fnf",
      step = 0,
      question = "Which node should p0 serve first?",
      choices = {"p1, the fast one", "p2, the slow one", "either: it makes no difference"},
      correct = 2,
      answer = "p2: its long receive must start as early as possible.",
    },
    {
      title = "What will fnf take?",
      cluster = "../../clusters/counterexample.csv",
      schedulers = "fnf",
      step = 0,
      question = "What will the makespan of fnf be?",
      predict = "makespan",
      answer = "6: p2 holds the message last.",
    },
    {
      title = "fnf's first move",
      cluster = "../../clusters/counterexample.csv",
      schedulers = "fnf",
      step = 0,
      question = "Which transfer does fnf book first?",
      predict = "next",
      answer = "p0 -> p1: fnf serves the fastest receiver first.",
    },
    {
      title = "The optimum",
      cluster = "../../clusters/counterexample.csv",
      schedulers = {"fnf", "optimal"},
      step = "end",
      text = "Nothing to vote on here.",
    },
    {
      title = "Your turn",
      cluster = { csv = "# latency: 1\n# source: p0\nname,send,recv\np0,1,2\np1,1,2\np2,2,3\np3,1,1\np4,3,3\n" },
      schedulers = "fnf",
      step = 0,
      text = "Every student builds the broadcast: c opens the challenge.",
    },
  },
}
