-- k-class.lua - a parametrised heterogeneous cluster: n nodes in k speed
-- classes, one script for a whole family of node tables.
--
-- Liu, Wang & Guo run their experiments on clusters of three classes (fast,
-- normal, slow); this script makes any number of classes, so a class can
-- watch how fnf and the optimum drift apart as the cluster gets more mixed:
--
--   hetcast run clusters/k-class.lua --param n=8 --param k=3
--   hetcast compare clusters/k-class.lua --param n=9 --param k=4 --param seed=7
--   hetcast run clusters/k-class.lua --param n=100 -s fnf.lua --save-cluster k.csv
--
-- Parameters (all optional; see docs/lua.md for param()):
--   n        number of nodes                                  (default 12)
--   k        number of classes                                (default 3)
--   seed     seed of the random class of each node            (default 1)
--   latency  the network latency L                            (default 1)
--   jitter   spread of each node's times around its class,
--            0.1 = +-10% (0: every node of a class is alike)   (default 0)

local n = param("n", 12)
local k = param("k", 3)
local seed = param("seed", 1)
local spread = param("jitter", 0)
assert(n >= 1 and k >= 1 and n == math.floor(n) and k == math.floor(k),
       "n and k must be whole numbers >= 1")

name(string.format("%d nodes in %d classes (seed %d)", n, k, seed))
description("Made by clusters/k-class.lua: class 1 is the fastest, class k the slowest;\n"
         .. "a slower class takes longer to send and to receive (consistent speeds).")
latency(param("latency", 1))

-- The classes: send times spread evenly from 1 to 10, and a receive time one
-- unit above the send time, so that s(p) <= s(q) exactly when r(p) <= r(q):
-- the condition of the 2T + beta guarantee (three classes: the paper's 1, 5.5 and 10).
local classes = {}
local labels = k == 3 and {"fast", "normal", "slow"} or nil
for c = 1, k do
  local s = k == 1 and 1 or 1 + 9 * (c - 1) / (k - 1)
  s = math.floor(s * 2 + 0.5) / 2          -- round to halves: easy to read
  local label = labels and labels[c] or ("c" .. c)
  classes[c] = {label = label, send = s, recv = s + 1, count = 0, options = {class = label}}
end

-- A seeded generator: the same --param seed always gives the same cluster.
local rng = hetcast.random(seed)

for i = 1, n do
  -- The source (the first node) is always of the fastest class; every other
  -- node draws its class uniformly.
  local c = i == 1 and 1 or rng:int(1, k)
  local cl = classes[c]
  cl.count = cl.count + 1
  local s, r = cl.send, cl.recv
  if spread > 0 then
    s = s * rng:uniform(1 - spread, 1 + spread)
    r = r * rng:uniform(1 - spread, 1 + spread)
  end
  -- Names follow the CSV convention for repeated rows: class-1, class-2, ...
  node(cl.label .. "-" .. cl.count, s, r, cl.options)   -- options: {class = label}, made once
end

source(1)   -- by index: the first node made above
