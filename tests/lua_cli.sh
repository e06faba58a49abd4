#!/bin/sh
# lua_cli.sh - Lua scripting on the real binary (TAP): cluster scripts with
# --param and --save-cluster, -s FILE.lua, and the exit status 2 with the
# script's file:line and a traceback for a bad script, a bad decision, a
# budget or memory overrun.  $HETCAST is the binary.
. tests/tap.sh   # H, T, check, run, has, done_testing

run "$H" --help
check "--help lists --param, --lua-budget and --lua-memory" \
    sh -c "has() { grep -q -- \"\$1\" \"\$2\"; }; has --lua-budget $T/out && has --lua-memory $T/out && has --param $T/out"

run "$H" run clusters/k-class.lua --param n=9 --param k=3 --param seed=2
check "run FILE.lua: exit 0" test $rc -eq 0
check "run FILE.lua: the script's cluster name" has "^cluster: 9 nodes in 3 classes (seed 2)" "$T/out"

run "$H" run clusters/k-class.lua --param n=9 --param seed=2 --format csv --save-cluster "$T/k.csv"
cp "$T/out" "$T/from-lua"
run "$H" run "$T/k.csv" --format csv
check "--save-cluster: the saved CSV schedules exactly like the script" cmp "$T/out" "$T/from-lua"

run "$H" run clusters/lab.lua --save-cluster "$T/lab.csv" --summary
check "the lab script saves a latency matrix" sh -c "[ $rc -eq 0 ] && head -20 $T/lab.csv | grep -q '^,m1-1,m1-2'"

run "$H" run clusters/k-class.lua --param n=30 --format csv -s fnf
cut -d, -f2- "$T/out" >"$T/fnf"
run "$H" run clusters/k-class.lua --param n=30 --format csv -s fnf.lua
cut -d, -f2- "$T/out" >"$T/fnf-lua"
check "-s fnf.lua: the same transfers as -s fnf" cmp "$T/fnf" "$T/fnf-lua"
check "-s fnf.lua: reports name the script" has "^fnf.lua,1," "$T/out"

run "$H" run clusters/counterexample.csv -s lua/slowest-first.lua --format json
check "-s path/to/h.lua: json names the scheduler by its base name" has '"scheduler": "slowest-first.lua"' "$T/out"
check "slowest-first.lua reaches the optimum 5 on the counterexample" has '"makespan": 5' "$T/out"

run "$H" compare clusters/counterexample.csv -s fnf.lua -s ecef.lua -s lookahead.lua -s flat.lua --summary
check "compare with four bundled heuristics" sh -c "[ $rc -eq 0 ] && grep -q '^flat.lua ' $T/out && grep -q '^lookahead.lua ' $T/out"

cat >"$T/bad.lua" <<'LUA'
return {choose = function(state)
  return "p1", "p2"
end}
LUA
run "$H" run clusters/counterexample.csv -s "$T/bad.lua"
check "a bad decision: exit 2" test $rc -eq 2
check "a bad decision: file:line and what was wrong" has "bad.lua:2: bad decision 1: the sender p1 does not hold the message" "$T/err"
check "a bad decision: a traceback" has "stack traceback:" "$T/err"

for lib in io os require; do
    printf 'local f = %s\nreturn {choose = function(state) return 1, 2 end}\n' "$lib" >"$T/lib.lua"
    run "$H" run clusters/counterexample.csv -s "$T/lib.lua"
    check "$lib: refused, status 2, the sandbox named and where the docs explain it" sh -c \
        "[ $rc -eq 2 ] && grep -q 'lib.lua:1: $lib is left out of the sandbox: .*docs/lua.md, \"The sandbox\"' $T/err"
done

cat >"$T/loop.lua" <<'LUA'
return {choose = function(state)
  while true do pcall(function() while true do end end) end
end}
LUA
run "$H" run clusters/counterexample.csv -s "$T/loop.lua" --lua-budget 100000
check "an endless loop in pcall: exit 2" test $rc -eq 2
check "an endless loop in pcall: the budget given by --lua-budget" \
    has "loop.lua:2: instruction budget exceeded: more than 100000 instructions" "$T/err"

cat >"$T/bomb.lua" <<'LUA'
local t = {}
for i = 1, 1e9 do t[i] = {i} end
LUA
run "$H" run "$T/bomb.lua" --lua-memory 4
check "a memory bomb in a cluster script: exit 2" test $rc -eq 2
check "a memory bomb: the cap given by --lua-memory" has "bomb.lua:2: memory limit exceeded: .*4 MiB" "$T/err"

printf 'node("a")\nos.exit(0)\n' >"$T/escape.lua"
run "$H" run "$T/escape.lua"
check "os is not there: exit 2 with file:line" sh -c "[ $rc -eq 2 ] && grep -q \"escape.lua:2: os is left out of the sandbox\" $T/err"

printf 'node("a")\nnode("a")\n' >"$T/dup.lua"
run "$H" run "$T/dup.lua"
check "a model error in a script: exit 2, its line" sh -c "[ $rc -eq 2 ] && grep -q 'dup.lua:2: node: there is already a node named' $T/err"

run "$H" run clusters/k-class.lua --param n=abc
check "--param n=abc where a number is expected: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'is not a number' $T/err"

run "$H" run clusters/k-class.lua --param typo=3 --summary
check "an unused --param is a warning" sh -c "[ $rc -eq 0 ] && grep -q 'never asked for it' $T/err"

run "$H" run clusters/counterexample.csv --param n=3 --summary
check "--param on a CSV file is a warning" sh -c "[ $rc -eq 0 ] && grep -q 'param is for .lua cluster scripts' $T/err"
cat >"$T/deep.lua" <<'LUA'
local depth = param("depth", 1)
return {choose = function(state)
  table.sort(state.waiting, function(a, b) return a.recv > b.recv end)
  return state.holders[1], state.waiting[math.min(depth, #state.waiting)], "depth " .. depth .. " " .. (params.note or "-")
end}
LUA
run "$H" run clusters/counterexample.csv -s "$T/deep.lua" --param depth=2 --param note=hi
check "a heuristic reads --param through param() and params, no warning" sh -c \
    "[ $rc -eq 0 ] && grep -q ' p0  *p1 .* depth 2 hi\$' $T/out && ! grep -q ignored $T/err"
run "$H" run clusters/counterexample.csv -s "$T/deep.lua" --param depth=two
check "a heuristic's param that does not convert: status 2 and why" sh -c \
    "[ $rc -eq 2 ] && grep -q 'deep.lua:1: param: --param depth=two is not a number' $T/err"

run "$H" run clusters/counterexample.csv --lua-budget abc
check "--lua-budget abc: exit 2" test $rc -eq 2
run "$H" run clusters/counterexample.csv --lua-memory 0
check "--lua-memory 0: exit 2" test $rc -eq 2

run "$H" run clusters/counterexample.csv -s no-such.lua
check "an unknown heuristic: exit 2, with the bundled ones" sh -c "[ $rc -eq 2 ] && grep -q 'bundled ones: .*fnf.lua' $T/err"

done_testing
