-- lookahead.lua - one step of look-ahead: value a receiver by what it can do next
--
-- ecef.lua serves the receiver that gets the message first.  But a node that
-- receives early and then forwards slowly helps less than one that arrives a
-- little later and forwards fast.  This policy looks one step ahead: for each
-- pair (holder q, waiting p) it takes the time p would hold the message, and
-- adds the cheapest transfer p could then make to another waiting node.  The
-- pair with the smallest sum wins -- the receiver that would be *useful*
-- soonest (the look-ahead of Bhat, Prasanna & Raghavendra).
--
--   hetcast compare clusters/counterexample.csv -s ecef.lua -s lookahead.lua -s optimal
--   hetcast compare clusters/k-class.lua --param n=10 -s fnf -s ecef.lua -s lookahead.lua
--
-- Cost: O(waiting^2) for the look-ahead table, then O(holders x waiting)
-- pairs, per decision.  Question for class: the last receiver has no one to
-- forward to -- what should it be valued by?  (Here: its arrival alone.)

local function choose(state)
  local waiting = state.waiting

  -- onward[p]: the cheapest whole transfer time (s + l + r, or the edge's
  -- time in a platform graph) from p to another waiting node.
  local onward = {}
  for _, p in ipairs(waiting) do
    local cheapest = 0                    -- nobody left: no look-ahead
    for _, r in ipairs(waiting) do
      if r ~= p then
        local c = state:cost(p, r)        -- nil when there is no link
        if c and (cheapest == 0 or c.T < cheapest) then
          cheapest = c.T
        end
      end
    end
    onward[p] = cheapest                  -- node objects work as table keys
  end

  local best_score, best_hold, best_q, best_p
  for _, q in ipairs(state.holders) do
    for _, p in ipairs(waiting) do
      local t = state:earliest(q, p)
      if t then
        local score = t.hold + onward[p]
        -- Ties: the earlier arrival, then the lowest indexes (lists are in
        -- index order, and only a strictly better pair replaces the best).
        if best_score == nil or score < best_score
            or (score == best_score and t.hold < best_hold) then
          best_score, best_hold, best_q, best_p = score, t.hold, q, p
        end
      end
    end
  end
  if best_q == nil then
    error("no holder has a link to any waiting node", 0)
  end
  return best_q, best_p, string.format(
    "%s -> %s: %s holds it at t=%g and could pass it on by t=%g",
    best_q.name, best_p.name, best_p.name, best_hold, best_score)
end

return {choose = choose}
