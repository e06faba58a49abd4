-- fnf.lua - fastest node first, written in Lua: the built-in fnf, step by step
--
-- This script gives exactly the schedules of the built-in fnf (the tests
-- check it on many random clusters), so it is the place to start reading:
--
--   hetcast run clusters/counterexample.csv -s fnf.lua
--   hetcast compare clusters/counterexample.csv -s fnf -s fnf.lua -s optimal
--
-- The engine calls choose(state) whenever some node still waits for the
-- message.  choose names one transfer -- a sender that holds the message and
-- a receiver that does not -- and the engine books it at the earliest time
-- the port model allows.  Then it calls choose again.  (docs/lua.md lists
-- everything `state` and its nodes offer.)

-- Fastest node first (Banikazemi et al.; Liu, Wang & Guo) makes two greedy
-- choices, one for each end of the transfer.
local function choose(state)
  -- 1. The sender: the holder whose next send can *complete* first.  A
  --    holder can start sending at q.ready (it holds the message and its
  --    send port is free); the send then takes q.send.  On a tie the lowest
  --    index wins: state.holders is in index order and `<` keeps the first.
  local sender, done
  for _, q in ipairs(state.holders) do
    local finish = q.ready + q.send
    if sender == nil or finish < done then
      sender, done = q, finish
    end
  end

  -- 2. The receiver: the waiting node with the smallest send time, since it
  --    will be the most useful sender once it holds the message.  Ties: the
  --    smaller receive time, then the lowest index.
  local receiver
  for _, p in ipairs(state.waiting) do
    if receiver == nil or p.send < receiver.send
        or (p.send == receiver.send and p.recv < receiver.recv) then
      receiver = p
    end
  end

  -- 3. The answer: sender, receiver and (optionally) why, which the view
  --    narrates and `hetcast run` prints beside the transfer.
  local why = string.format(
    "%s can finish a send first (free at t=%g, s=%g, done at t=%g); "
      .. "%s is the fastest waiting node (s=%g, r=%g)",
    sender.name, sender.ready, sender.send, done,
    receiver.name, receiver.send, receiver.recv)
  return sender, receiver, why
end

return {choose = choose}
