-- a heuristic that names its pairs and reasons
function choose(state)
  local q = state.holders[1]
  local p = state.waiting[#state.waiting]
  return q, p, "last waiting " .. p.name
end
