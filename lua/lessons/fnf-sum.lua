-- fnf-sum.lua - a lesson: fastest-node-first is optimal for the sum of
-- completion times but not for the makespan (Khuller & Kim, "Broadcasting in
-- heterogeneous networks", Algorithmica 2007; sender-only model), on
-- clusters/khuller-kim.csv (docs/models.md).
-- Present it: hetcast lesson lua/lessons/fnf-sum.lua   Handout: add --print
return {
  title = "FNF: optimal for the sum, not for the makespan",
  slides = {
    {
      title = "Sender-only: only the sender pays",
      cluster = "../../clusters/khuller-kim.csv",
      schedulers = "fnf", model = "sender-only", step = 0,
      show = {"p0", "p1", "p2"},
      text = "Khuller and Kim's model: node i needs t_i (its send time) to send the message,\n" ..
             "and the receiver holds it as soon as the send ends. p0 (t = 2) holds it; the\n" ..
             "others send in 3, 5, 6, 8 and 10. Fastest-node-first serves the fastest waiting\n" ..
             "node first.",
      question = "Which transfer does fnf book first?",
      predict = "next", decision = 1,
      answer = "p0 -> p1: p1 is the fastest waiting node, and p0 the only holder.",
    },
    {
      title = "fnf: every node as early as it can be",
      cluster = "../../clusters/khuller-kim.csv",
      schedulers = "fnf", model = "sender-only", step = "end",
      show = {"p1", "p2", "p3", "p4", "p5", "makespan"},
      text = "Under fnf the sum of the nodes' completion times is 25. Khuller and Kim prove\n" ..
             "that no schedule has a smaller sum in this model: serving the fast nodes first\n" ..
             "makes more senders sooner.",
      question = "What is fnf's makespan?",
      predict = "makespan",
      answer = "8: p5, the slowest, waits for p0's fourth send.",
    },
    {
      title = "The least makespan serves slow p2 first",
      cluster = "../../clusters/khuller-kim.csv",
      schedulers = {"fnf", "optimal"}, model = "sender-only", step = "end",
      show = {"p2", "p5", "optimum", "difference", "sum"},
      text = "The optimum sends to p2 first: p2 is slow, but starting it at 2 lets it serve p5\n" ..
             "by 7, one unit before fnf. Its nodes hold the message at 2, 4, 6, 7 and 7.\n" ..
             "Add them up and compare with fnf's.",
      question = "Which schedule has the smaller sum of completion times?",
      choices = {"fnf", "optimal", "they are equal"}, correct = 1,
      answer = "fnf: 25 against 26. Every schedule of makespan 7 sums to 26 or more here.",
    },
    {
      title = "The theorem: the sum exactly, the makespan within a constant",
      cluster = "../../clusters/khuller-kim.csv",
      schedulers = {"fnf", "optimal"}, model = "sender-only", step = "end",
      show = {"p5", "makespan", "optimum"},
      text = "Khuller and Kim: in this model fnf's sum of completion times is the least, and\n" ..
             "its makespan is within a constant factor of the least (minimising the makespan\n" ..
             "is NP-hard). Here 8 / 7 = 1.14. hetcast experiment algorithms checks both on\n" ..
             "random clusters.",
      question = "Can fnf's makespan be 2 times the optimum in the sender-only model?",
      choices = {"yes", "no"}, correct = 2,
      answer = "No: Khuller and Kim prove at most one and a half times; experiment algorithms checks every run against it.",
    },
  },
}
