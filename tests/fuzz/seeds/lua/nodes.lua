-- node table through every call of the API
name("t") description("a\nb") latency(1)
local a = node("a", 1, 2, {class = "c", group = "g"})
node{name = "b", send = 2, recv = 3}
source("b")
for i = 1, param("n", 3) do node("n" .. i, i, i + 1) end
for _, nd in ipairs(nodes()) do assert(nd.index) end
