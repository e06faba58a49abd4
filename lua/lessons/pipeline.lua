-- pipeline.lua - a lesson: pipelined broadcast along a tree of a platform
-- graph (Beaumont, Marchal & Robert): slices, the tree's throughput, and the
-- LP bound of every multi-tree broadcast.
return {
  title = "Pipelined broadcast and the LP bound",
  slides = {
    {
      title = "Four slices along grow-tree",
      cluster = "../../clusters/platform-small.csv",
      schedulers = "grow-tree", slices = 4, step = "end",
      text = "The message is cut into slices sent one after the other along one tree.\n" ..
             "The pipeline fills, runs steady, then drains (the band under the axis).",
      question = "Which node sets the period of the pipeline?",
      answer = "The node whose children's edge times add up to the most: it sends every slice to each child.",
    },
    {
      title = "The LP bound",
      cluster = "../../clusters/platform-small.csv",
      schedulers = {"grow-tree", "lp-grow"}, slices = 20, step = "end",
      show = {"LP optimum"},
      text = "The linear program gives the best throughput of any set of trees (0.375 here).\n" ..
             "A single tree reaches a fraction of it; t shows the LP's n(u,v) on each edge.",
    },
  },
}
