-- a whole tree at once
return { choose = function(state)
  local t = {}
  local from = state.source
  for _, p in ipairs(state.waiting) do t[#t + 1] = {from, p, "star"} end
  return t
end }
