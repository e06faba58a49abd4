-- slowest-first.lua - fnf's sender, but the slowest waiting node is served first
--
-- Liu, Wang & Guo's counterexample (clusters/counterexample.csv) shows that
-- serving the fastest node first is not always best: a slow receiver served
-- last finishes last, and nothing overlaps its long receive.  This policy
-- serves the receivers the other way round -- largest receive time first --
-- so the slow receives start early and overlap the fast nodes' work:
--
--   hetcast compare clusters/counterexample.csv -s fnf.lua -s slowest-first.lua -s optimal
--   hetcast compare clusters/k-class.lua --param n=9 -s fnf -s slowest-first.lua
--
-- Questions for class: when does it beat fnf?  When does it lose badly
-- (hint: a slow node also *sends* slowly, and it holds the message early)?
-- It gives the same schedules as the built-in slowest-first.

local function choose(state)
  -- The sender, as in fnf: the holder whose next send completes first
  -- (ties: the lowest index).
  local sender, done
  for _, q in ipairs(state.holders) do
    local finish = q.ready + q.send
    if sender == nil or finish < done then
      sender, done = q, finish
    end
  end

  -- The receiver: the largest receive time; ties: the larger send time,
  -- then the lowest index.
  local receiver
  for _, p in ipairs(state.waiting) do
    if receiver == nil or p.recv > receiver.recv
        or (p.recv == receiver.recv and p.send > receiver.send) then
      receiver = p
    end
  end

  return sender, receiver, string.format(
    "%s can finish a send first (done at t=%g); %s is the slowest waiting node (s=%g, r=%g)",
    sender.name, done, receiver.name, receiver.send, receiver.recv)
end

return {choose = choose}
