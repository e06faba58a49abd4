-- flat.lua - the flat tree: the source sends to everyone, fastest first
--
-- The simplest broadcast there is, and the reference every other one is
-- measured against: nobody forwards, so the source's send port does all the
-- work, one receiver after the other.  It is also the example of a policy
-- that answers with a whole tree at once instead of one transfer per call:
-- choose returns a list of {parent, child, reason} pairs, and the engine
-- books them in that order without calling choose again.
--
--   hetcast compare clusters/counterexample.csv -s flat.lua -s fnf -s optimal
--   hetcast compare clusters/k-class.lua --param n=30 -s flat.lua -s fnf --summary
--
-- Question for class: with zero send times a flat tree is optimal; how large
-- must the send overhead be before forwarding pays off?

local function choose(state)
  -- Fastest receivers first (as fnf orders them): smaller send time, then
  -- smaller receive time, then lower index.  state.waiting is a fresh table,
  -- ours to sort; table.sort is not stable, so the index breaks every tie.
  local order = state.waiting
  table.sort(order, function(a, b)
    if a.send ~= b.send then return a.send < b.send end
    if a.recv ~= b.recv then return a.recv < b.recv end
    return a.index < b.index
  end)

  local tree = {}
  for i, p in ipairs(order) do
    tree[i] = {state.source, p,
               string.format("flat tree: the source sends to everyone; %s is receiver %d of %d",
                             p.name, i, #order)}
  end
  return tree
end

return {choose = choose}
