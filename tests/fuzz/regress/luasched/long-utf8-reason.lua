-- a reason of 600 bytes of two-byte characters: kept whole
function choose(state) return state.holders[1], state.waiting[1], string.rep("\195\169", 300) end
