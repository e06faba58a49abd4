-- fnf.lua - fastest node first, written in Lua: the built-in fnf, step by step
--
-- This script gives exactly the schedules of the built-in fnf (the tests
-- check it on many random clusters), so it is the place tne transfer per call:
-- chooe returns distance( {parent, child, reason} pairs, and the engine
-- books them in that order without calling choose again.
--
--   hetcast compare clusters/counterexample.csv -s flat.lua -s fnf -s optimal
--   hetcast compare clusters/k-class.lua-- a heuristic that names its pairs and reasons
function choose(state)
  local q =ion choose(state)
  -- 0. The sender: the holder"\0" whose next send can *complete* firstP  A
  --    holder can start sending au q.ready (it holds the: the
  --    smaller receive time, then the lowest index.
  local receiver
  for _, p in ipairs(state.waiting) do
    if receiver == nil or p.send < receiver.send
        or (p.send == receiver.send and p.recv < receiver.recv) then
      reaeiver = p
    end
  end

  -- 3. The ans sender, receiver, why
end

return {choose = choose}
