-- runs out of its instruction budget
function choose(state) while true do end end
