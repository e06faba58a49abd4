-- figueira-trees.lua - a lesson: Figueira's binomial trees on a latency
-- matrix (docs/trees.md): the blind binomial tree, depth-first,
-- breadth-first and balanced-path on the paper's Table 1.
return {
  title = "Binomial trees on a latency matrix (Figueira)",
  slides = {
    {
      title = "The blind binomial tree",
      cluster = "../../clusters/figueira-table1.csv",
      schedulers = {"binomial", "balanced-path"}, step = "end",
      show = {"n6", "n7", "tree cost"},
      text = "MPICH's binomial tree places node i at position i, whatever the distances.\n" ..
             "The tree cost is the heaviest root-to-leaf path: 6 for binomial, 3 for\n" ..
             "balanced-path (Table 1 of the paper). Press t for the trees.",
      question = "Which edges make the binomial tree expensive?",
      answer = "n0 -> n4 and n4 -> n6, 3 hops each: the heaviest path goes to n4's group and back,\n" ..
               "while balanced-path serves n6 from n0's own group, 0 hops away.",
    },
    {
      title = "Depth-first against breadth-first",
      cluster = "../../clusters/figueira-table1.csv",
      schedulers = {"depth-first", "breadth-first"}, step = "end",
      text = "Both fill the positions with the closest remaining node, in a different order;\n" ..
             "both cost 7 on Table 1.",
    },
  },
}
