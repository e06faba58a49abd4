-- a heuristic that picks a sender that does not hold the message (docs/lua.md)
return {choose = function(state)
  local waiting = state.waiting
  return waiting[#waiting], waiting[1], "the last waiting node first"
end}
