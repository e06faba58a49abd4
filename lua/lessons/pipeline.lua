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
      cluster = "../../clusters/platform-uni.csv",
      schedulers = {"grow-tree", "lp-grow"}, slices = 20, step = "end",
      show = {"LP optimum"},
      text = "The linear program gives the best throughput of any set of trees at once: 0.6\n" ..
             "here. grow-tree's tree reaches 1/3 (period 3, set by s); lp-grow builds its tree\n" ..
             "on the edges the LP uses most and reaches 0.5 (period 2). t shows the LP's\n" ..
             "n(u,v) on each edge.",
      question = "Which tree comes closer to the LP's 0.6?",
      answer = "lp-grow: 0.5 against the LP's 0.6; grow-tree's single tree stays further below it.",
    },
  },
}
