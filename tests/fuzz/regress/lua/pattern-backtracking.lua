local s = string.rep("a", 40)
local p = string.rep("a*", 40) .. "b"
print(string.find(s, p))
node("x")
