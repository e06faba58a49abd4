-- a cluster script that never ends, even inside pcall (docs/lua.md, "Limits")
local ok = pcall(function() while true do end end)
node("p0", 1, 2)
