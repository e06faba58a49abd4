-- the sender does not hold the message: refused with a message
function choose(state) return state.waiting[1], state.waiting[#state.waiting] end
