-- shared-links.lua - a lesson: when links are shared (docs/models.md, "Shared
-- links"): on two clusters joined by one link (two-clusters.xml, a 10 MB
-- message), fnf's order is optimal while every route is a pipe of its own,
-- and loses to binomial once the transfers in flight share the links.
-- Every number below is hetcast's, from the runs each slide names (the
-- handout's check: lines run them again; --simgrid gives SimGrid's same
-- makespans on the shared links).
return {
  title = "When links are shared",
  slides = {
    {
      title = "Private links: fnf's order is optimal",
      cluster = "two-clusters.xml", size = 1e7,
      schedulers = {"fnf", "binomial"}, model = "sync", step = "end",
      text = "Two clusters of eight hosts, a0-a7 and b0-b7, joined by one link, wan (125 MB/s). " ..
             "a0 holds a 10 MB message; the a hosts' links move 125 MB/s, the b hosts' 100, so " ..
             "a route inside a costs 0.08 s and a route into b 0.1 s.\n\n" ..
             "Under sync every route is a pipe of its own, whoever else sends. fnf serves the " ..
             "a hosts first, then a0-a7 send to b0-b7 at once: 0.34 s, which the exact search " ..
             "proves optimal. binomial sends a0 -> b0 first and takes 0.4 s (hetcast compare " ..
             "two-clusters.xml -m sync --size 1e7 -s fnf -s binomial).",
    },
    {
      title = "The same order on shared links",
      cluster = "two-clusters.xml", size = 1e7,
      schedulers = "fnf", model = "one-port", step = 14,
      text = "Now the transfers in flight share each link's bandwidth (SimGrid's CM02 model, " ..
             "one-port senders). fnf decides as before, with each route's cost alone, so its " ..
             "order is the same: at t=0.24 the eight a hosts hold the message, and each sends it " ..
             "to a b host. All eight routes cross wan (125 MB/s), which they share fairly; no " ..
             "other link of theirs holds them back more.",
      question = "When does the last b host hold the message (in s)?",
      predict = "makespan",
      answer = "The eight flows share wan from t=0.24: each moves at an eighth of its bandwidth, " ..
               "so each takes eight times as long as over wan alone. Step with l to the holds: " ..
               "the narration names the link and the share; f shows the wan lane.",
    },
    {
      title = "Vote: which order wins on shared links?",
      cluster = "two-clusters.xml", size = 1e7,
      schedulers = {"fnf", "binomial"}, model = "one-port", step = 0,
      text = "The same two schedules as on the first slide, the same transfers in the same " ..
             "order, now timed on the shared links. binomial sends a0 -> b0 first, then each " ..
             "cluster broadcasts inside itself.",
      question = "Which schedule ends first now?",
      choices = {"fnf, as with private links", "binomial", "they tie"},
      correct = 2,
      answer = "binomial, at 0.4 against fnf's 0.88: binomial crosses wan once, alone, while " ..
               "fnf's last eight transfers cross it at once. The order that is best on private " ..
               "links is not the best once they are shared.",
      show = {"b0"},
    },
  },
}
