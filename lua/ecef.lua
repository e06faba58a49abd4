-- ecef.lua - earliest completing edge first: the pair that delivers soonest
--
-- fnf picks the sender and the receiver separately.  This policy looks at
-- every pair (holder q, waiting p) and asks the engine what booking q -> p
-- right now would give (state:earliest): the pair whose receiver would hold
-- the message first wins.  It is the "earliest completing edge first" of
-- Bhat, Prasanna & Raghavendra, and it works on every kind of cluster --
-- node tables, latency matrices and platform graphs (a pair without a link
-- simply has no earliest time).
--
--   hetcast compare clusters/counterexample.csv -s fnf.lua -s ecef.lua
--   hetcast compare clusters/lab.lua -s fnf -s ecef.lua
--   hetcast run clusters/platform-small.csv -s ecef.lua
--
-- Cost: holders x waiting pairs per decision, O(n^3) for a broadcast -- fine
-- for a class, slow for thousands of nodes.  Question for class: it is greedy
-- about *arrival*; what does it ignore that fnf cares about?

local function choose(state)
  local best, best_q, best_p
  for _, q in ipairs(state.holders) do
    for _, p in ipairs(state.waiting) do
      local t = state:earliest(q, p)      -- nil when q -> p cannot be booked
      -- Strictly earlier wins, so ties keep the lowest sender index, then the
      -- lowest receiver index (both lists are in index order).
      if t and (best == nil or t.hold < best.hold) then
        best, best_q, best_p = t, q, p
      end
    end
  end
  if best == nil then
    error("no holder has a link to any waiting node", 0)
  end
  return best_q, best_p, string.format(
    "%s -> %s delivers first: %s would hold the message at t=%g",
    best_q.name, best_p.name, best_p.name, best.hold)
end

return {choose = choose}
