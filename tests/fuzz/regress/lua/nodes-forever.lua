-- nodes made forever: each earns the fuzzer's grant (1 instruction), so
-- its budget stops the loop long before a cluster file's 10^7 nodes would
local i = 0
while true do
  i = i + 1
  node("n" .. i)
end
