-- fnf-guarantee.lua - a lesson: fnf's guarantee fnf <= 2T + beta (Liu, Wang
-- & Guo, Theorem 4), beta = max r' - 2 min r' with r' = r + L, and when the
-- speeds are not consistent (then the theorem says nothing).
return {
  title = "FNF's guarantee: 2T + beta, and when it is void",
  slides = {
    {
      title = "The guarantee on the counterexample",
      cluster = "../../clusters/counterexample.csv",
      schedulers = {"fnf", "optimal"}, step = "end",
      show = {"2T+beta"},
      text = "T is the optimum (5). The two receivers' r + L are 3 (p1) and 4 (p2), so\n" ..
             "beta = 4 - 2*3 = -2 and fnf <= 2*5 - 2 = 8. Step through fnf's schedule and\n" ..
             "set its makespan beside 8.",
      question = "Is the guarantee tight here?",
      answer = "No: 6 against 8. It bounds the worst case over all consistent clusters.",
    },
    {
      title = "Three classes of nodes",
      cluster = "../../clusters/k-class.lua", params = {n = 8},
      schedulers = {"fnf", "optimal"}, step = "end",
      show = {"slow-4"},
      text = "Eight nodes in three classes (fast, normal, slow). fnf serves the normal class\n" ..
             "first and the slow nodes wait; the guarantee 2T + beta still holds, with room\n" ..
             "to spare.",
      question = "Which node ends last under fnf, and how much later than under the optimum?",
      answer = "slow-4: it holds the message at 19 instead of 16, fnf's whole loss of 3.",
    },
    {
      title = "Inconsistent speeds",
      cluster = "../../clusters/inconsistent.csv",
      schedulers = {"fnf", "optimal"}, step = "end",
      show = {"2T+beta"},
      text = "q sends faster than p1 but receives much slower: the speeds are not consistent,\n" ..
             "hetcast warns when it loads the file, and 2T + beta is marked void.",
      question = "Does fnf lose here?",
      answer = "Not on this cluster: the theorem is void, not the heuristic.",
    },
  },
}
