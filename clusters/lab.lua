-- lab.lua - a teaching lab as a latency matrix: machines in groups on
-- switches, switches on floors, in the spirit of Figueira's LNOWs.
--
-- Distances count hops, as in Figueira's Table 1: machines on one switch are
-- 0 hops apart (a group, what magpie exploits), machines on two switches of
-- one floor 2 hops, machines on different floors 4 hops plus one for every
-- floor in between.  Every machine pays a send overhead of one basic latency
-- unit by default, as in the paper's measurements.
--
--   hetcast run clusters/lab.lua
--   hetcast compare clusters/lab.lua -s binomial -s magpie -s balanced-path
--   hetcast run clusters/lab.lua --param switches=6 --param per=5 --param floors=3
--   hetcast run clusters/lab.lua --save-cluster lab.csv
--
-- Parameters (all optional):
--   switches  number of switches                    (default 4)
--   per       machines per switch                   (default 3)
--   floors    floors the switches are spread over   (default 2)
--   send      send overhead of every machine        (default 1)
--   unit      time of one hop                       (default 1)

local switches = param("switches", 4)
local per = param("per", 3)
local floors = param("floors", 2)
local send = param("send", 1)

name(string.format("lab: %d switches x %d machines on %d floors", switches, per, floors))
description("Made by clusters/lab.lua: distances in hops; 0 inside a switch's group.")
unit(param("unit", 1))

-- Switch w stands on floor ((w - 1) % floors) + 1: neighbouring switches are
-- on different floors, so the groups are interleaved in index order and a
-- tree that follows the indexes (binomial) crosses floors often.
local function floor_of(w) return (w - 1) % floors + 1 end

-- The machines: m<switch>-<k>, with the switch as their group and the floor
-- as their class.  Keep the switch of every node for the distances below.
local switch_of = {}
for w = 1, switches do
  for k = 1, per do
    local i = node{name = string.format("m%d-%d", w, k), send = send,
                   group = "sw" .. w, class = "floor" .. floor_of(w)}
    switch_of[i] = w
  end
end

-- Hops between two machines.
local function hops(a, b)
  local wa, wb = switch_of[a], switch_of[b]
  if wa == wb then return 0 end
  local fa, fb = floor_of(wa), floor_of(wb)
  if fa == fb then return 2 end
  return 4 + math.abs(fa - fb) - 1
end

-- Every pair, both ways at once (distance() is symmetric unless "one-way").
local all = nodes()
for a = 1, #all do
  for b = a + 1, #all do
    distance(a, b, hops(a, b))
  end
end

source("m1-1")
