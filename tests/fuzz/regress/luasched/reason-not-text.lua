-- a reason with a control character: refused (bad decision)
function choose(state) return state.holders[1], state.waiting[1], "a\27[2Jb" end
