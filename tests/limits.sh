#!/bin/sh
# limits.sh - the limits of docs/reliability.md on the real binary (TAP):
# the boundary clusters (empty, one node, a source that does not exist), the
# numbers a file may not hold (overflow, NaN, infinities, negative times,
# times above CLUSTER_MAX_TIME) refused with file:line, in all three kinds
# and in Lua scripts; algorithms asked for more than they can do (optimal on
# 500 nodes, a platform graph over the node limit, the throughput LP on a
# large platform) say so and name what works; a 100000-node file loads and
# runs (a quadratic loader would time this test out), and so does a file of
# 200000 `# description:` lines; a Lua script cannot set a text that a saved
# file could not hold; a 100 MB line is refused at its line within bounded
# memory; and a save that fails half way leaves the old file.  $HETCAST is
# the binary.
set -u
H=${HETCAST:-build/hetcast}
T=$(mktemp -d "${TMPDIR:-/tmp}/hetcast-limits.XXXXXX")
trap 'rm -rf "$T"' EXIT
n=0
fails=0
check() {   # check NAME COMMAND... : ok if the command succeeds
    name=$1; shift
    n=$((n + 1))
    if "$@" >/dev/null 2>&1; then
        echo "ok $n - $name"
    else
        echo "not ok $n - $name"
        fails=$((fails + 1))
        sed 's/^/# stderr: /' "$T/err" | head -n 5
    fi
}
# run CMD...: stdout to $T/out, stderr to $T/err, status to $rc
run() { "$@" >"$T/out" 2>"$T/err"; rc=$?; }
# refused STATUS TEXT: the last run exited with STATUS and said TEXT (fixed string)
refused() { [ "$rc" -eq "$1" ] && grep -qF -- "$2" "$T/err"; }

# ---- boundary clusters ----
printf 'name,send,recv\n' >"$T/empty.csv"
run "$H" run "$T/empty.csv"
check "empty node table: status 2, its own message" refused 2 "empty.csv: no nodes: the cluster is empty"
: >"$T/nothing.csv"
run "$H" run "$T/nothing.csv"
check "empty file: status 2, no header" refused 2 "nothing.csv: no header row"
printf '# only a comment\n\n' >"$T/comments.csv"
run "$H" run "$T/comments.csv"
check "comments only: status 2, no header" refused 2 "comments.csv: no header row"
printf ',\n' >"$T/emptymatrix.csv"
run "$H" run "$T/emptymatrix.csv"
check "empty latency matrix header: status 2" sh -c "[ $rc -eq 2 ] && [ -s $T/err ]"
printf 'from,to,time\n' >"$T/emptygraph.csv"
run "$H" run "$T/emptygraph.csv"
check "empty platform graph: status 2, no nodes" refused 2 "no nodes: the cluster is empty"

printf 'name,send,recv\nonly,1,2\n' >"$T/one.csv"
run "$H" run "$T/one.csv"
check "one node: status 0, says there is nothing to send" refused 0 "one.csv:2: warning: one node only (only, the source)"
check "one node: makespan 0" grep -q '^makespan *0$' "$T/out"
run "$H" compare "$T/one.csv" -s fnf -s optimal -s random-pair --summary
check "one node: compare runs every scheduler" sh -c "[ $rc -eq 0 ] && grep -q '^random-pair *0 ' $T/out"
printf ',solo\nsolo,0\n' >"$T/onem.csv"
run "$H" run "$T/onem.csv" -s binomial
check "one-node matrix: a tree scheduler, status 0, the message" refused 0 "one node only"
printf 'from,to,time\nsolo,,\n' >"$T/oneg.csv"
run "$H" run "$T/oneg.csv" -s grow-tree
check "one-node graph: a pipelined tree, status 0, the message" refused 0 "one node only"

printf '# source: ghost\nname,send,recv\na,1,2\nb,1,2\n' >"$T/ghost.csv"
run "$H" run "$T/ghost.csv"
check "# source: not a node: status 2, file:line" refused 2 "ghost.csv:1: source: \"ghost\" is not a node of this cluster"
run "$H" run "$T/one.csv" --source ghost
check "--source not a node: status 2, names the nodes" refused 2 "--source: \"ghost\" is not a node of"
run "$H" run "$T/no-such-file.csv"
check "a file that does not exist: status 2" refused 2 "no-such-file.csv: cannot open: No such file or directory"
run "$H" run "$T"
check "a directory: status 2" sh -c "[ $rc -eq 2 ] && [ -s $T/err ]"

# ---- numbers: one case a line, "file text|expected message" ----
num=0
while IFS='|' read -r text want; do
    num=$((num + 1))
    printf "$text" >"$T/num$num.csv"
    run "$H" run "$T/num$num.csv"
    check "refused with file:line: $want" refused 2 "num$num.csv:$want"
done <<'CASES'
name,send,recv\na,1e999,1\nb,1,1\n|2: send: "1e999" is out of range
name,send,recv\na,1,-1e999\nb,1,1\n|2: recv: "-1e999" is out of range
name,send,recv\na,1e101,1\nb,1,1\n|2: send: "1e101" is out of range (times are at most 1e+100)
name,send,recv\na,nan,1\nb,1,1\n|2: send: "nan" is not a number
name,send,recv\na,NaN,1\nb,1,1\n|2: send: "NaN" is not a number
name,send,recv\na,1,inf\nb,1,1\n|2: recv: "inf" is not a number
name,send,recv\na,1,-Infinity\nb,1,1\n|2: recv: "-Infinity" is not a number
name,send,recv\na,1,1\nb,-0.5,1\n|3: send: "-0.5" is negative
name,send,recv\na,1,1\nb,0x10,1\n|3: send: "0x10" is not a number
name,send,recv,count\na,1,1,1e400\n|2: count: "1e400" is too large
name,send,recv,count\na,1,1,-3\n|2: count: "-3" is not a positive integer
name,send,recv,count\na,1,1,2.5\n|2: count: "2.5" is not a positive integer
# latency: nan\nname,send,recv\na,1,1\nb,1,1\n|1: latency: "nan" is not a number
# latency: -1\nname,send,recv\na,1,1\nb,1,1\n|1: latency: "-1" is negative
# unit: 1e309\n,a,b\na,0,1\nb,1,0\n|1: unit: "1e309" is out of range
,a,b\na,0,1e999\nb,1,0\n|2: b: "1e999" is out of range
,a,b\na,0,1\nb,-1,0\n|3: a: "-1" is negative
,a,b\na,0,nan\nb,1,0\n|2: b: "nan" is not a number
,a,b,send\na,0,1,inf\nb,1,0,1\n|2: send: "inf" is not a number
from,to,time\na,b,1e999\n|2: time: "1e999" is out of range
from,to,time\na,b,0\n|2: time: "0" must be greater than 0
from,to,time\na,b,-2\n|2: time: "-2" is negative
from,to,time,send\na,b,1,nan\n|2: send: "nan" is not a number
CASES

# Lua: the same numbers from a script, refused with the script's file:line.
lnum=0
while IFS='|' read -r text want; do
    lnum=$((lnum + 1))
    printf "$text" >"$T/s$lnum.lua"
    run "$H" run "$T/s$lnum.lua"
    check "Lua: refused with file:line: $want" refused 2 "s$lnum.lua:$want"
done <<'CASES'
node("a", 0/0) node("b")\n|1: node: send must be a finite number >= 0
node("a", 1, math.huge) node("b")\n|1: node: recv must be a finite number >= 0
node("a", -1) node("b")\n|1: node: send must be a finite number >= 0
node("a", 1e300)\nnode("b")\n|1: send: a: send time must be a finite number >= 0 (and at most 1e+100)
node("a") node("b")\nedge("a", "b", 1e150)\n|2: time: edge a -> b: time must be a finite number > 0
CASES
# (latency and unit have no line in the model: the message names the script)
printf 'node("a") node("b")\nlatency(1e200)\n' >"$T/lat.lua"
run "$H" run "$T/lat.lua"
check "Lua: a latency above the limit: status 2, names the script" refused 2 "lat.lua: latency: must be a finite number >= 0 (and at most 1e+100)"
printf -- '-- no nodes\n' >"$T/nonodes.lua"
run "$H" run "$T/nonodes.lua"
check "Lua: a script that makes no node: status 2, no nodes" refused 2 "no nodes"
printf 'node("solo", 1, 1)\n' >"$T/solo.lua"
run "$H" run "$T/solo.lua"
check "Lua: one node: status 0, the message" refused 0 "one node only (solo, the source)"

# ---- more than an algorithm can do ----
awk 'BEGIN { print "name,send,recv"; for (i = 0; i < 500; i++) printf "n%d,%d,%d\n", i, 1 + i % 50, 2 + i % 50 }' >"$T/n500.csv"
run "$H" run "$T/n500.csv" -s optimal --summary
check "optimal on 500 nodes: refused, names what works" sh -c "[ $rc -ne 0 ] && grep -q 'beyond the exact search' $T/err && grep -q -- '-s fnf' $T/err"
run "$H" run "$T/n500.csv" --summary
check "fnf on the same 500 nodes: status 0" sh -c "[ $rc -eq 0 ] && grep -q '^makespan' $T/out"

awk 'BEGIN { print "from,to,time"; for (i = 1; i <= 4096; i++) printf "g%d,g%d,1\n", i - 1, i }' >"$T/g4097.csv"
run "$H" run "$T/g4097.csv" -s grow-tree --summary
check "a platform graph over 4096 nodes: refused at the line of node 4097" refused 2 "g4097.csv:4097: too many nodes (a platform graph has at most 4096)"

# A 400-node platform: the throughput LP is solved (cuts and columns, a fraction
# of a second); under a time limit it cannot meet, it gives up and says what works.
awk 'BEGIN { n = 400; x = 12345; print "from,to,time,bidirectional"
             for (i = 1; i < n; i++) { x = (x * 1103515245 + 12345) % 2147483648
                 printf "g%d,g%d,%d,1\n", x % i, i, 1 + x % 9; used[x % i "," i] = used[i "," x % i] = 1 }
             for (k = 0; k < 2 * n; k++) { x = (x * 1103515245 + 12345) % 2147483648; a = x % n
                 x = (x * 1103515245 + 12345) % 2147483648; b = x % n
                 if (a == b || used[a "," b]) continue; used[a "," b] = 1
                 printf "g%d,g%d,%d,0\n", a, b, 1 + x % 9 } }' >"$T/g400.csv"
run "$H" run "$T/g400.csv" -s lp-prune --summary
check "lp-prune on a 400-node platform: the LP solved, status 0" sh -c "[ $rc -eq 0 ] && grep -q '^LP optimum    0\.0204' $T/out"
run "$H" run "$T/g400.csv" -s lp-prune --summary --time-limit 0.001
check "lp-prune on it within 0.001 s: gives up, names what works" sh -c "[ $rc -ne 0 ] && grep -q 'gave up after' $T/err && grep -q 'prune-simple' $T/err"

# ---- a large file: linear loading (a quadratic one would time out) ----
awk 'BEGIN { print "# source: n99999"; print "name,send,recv"
             for (i = 0; i < 100000; i++) printf "n%d,%d,%d\n", i, 1 + i % 20, 2 + i % 20 }' >"$T/big.csv"
run "$H" run "$T/big.csv" --summary
check "100000 nodes: loads and runs fnf" sh -c "[ $rc -eq 0 ] && grep -q '100000 nodes, source n99999' $T/out"
printf 'name,send,recv,count\nn,1,2,100000\nn-7,1,2,\n' >"$T/dupcount.csv"
run "$H" run "$T/dupcount.csv"
check "a duplicate after 100000 counted nodes: found, with both lines" refused 2 "dupcount.csv:3: name: duplicate node name \"n-7\" (first on line 2)"

# ---- many `# description:` lines: linear loading (a quadratic one would time out) ----
awk 'BEGIN { for (i = 0; i < 200000; i++) printf "# description: line %d\n", i
             print "name,send,recv"; print "a,1,2"; print "b,2,1" }' >"$T/desc.csv"
run timeout 20 "$H" run "$T/desc.csv" --summary
check "200000 description lines: load within 20 s" sh -c "[ $rc -eq 0 ] && grep -q '^makespan' $T/out"
cat >"$T/desc.lua" <<'LUA'
local t = {}
for i = 1, 200000 do t[i] = "line " .. i end
description(table.concat(t, "\n"))
node("a", 1, 2)
node("b", 2, 1)
LUA
run timeout 20 "$H" run "$T/desc.lua" --summary --save-cluster "$T/desc-lua.csv"
check "a Lua description of 200000 lines: saved" sh -c "[ $rc -eq 0 ] && [ -s $T/desc-lua.csv ]"
run timeout 20 "$H" run "$T/desc-lua.csv" --summary
check "the saved 200000-line description reloads within 20 s" \
    sh -c "[ $rc -eq 0 ] && [ \$(grep -c '^# description: line ' $T/desc-lua.csv) -eq 200000 ]"

# ---- what a Lua script sets, a cluster file can hold: texts over 128 KiB refused ----
for what in 'name(big)' 'node("c", 1, 1, {class = big})' 'node(big, 1, 1)' \
            'description("first" .. string.char(10) .. big)'; do
    printf 'local big = string.rep("x", 1153434)\nnode("a", 1, 2)\nnode("b", 2, 1)\n%s\n' \
        "$what" >"$T/bigtext.lua"
    rm -f "$T/bigtext.csv"
    run "$H" run "$T/bigtext.lua" --save-cluster "$T/bigtext.csv"
    check "a 1.1 MiB text in $what: refused at its line, status 2, nothing saved" \
        sh -c "[ $rc -eq 2 ] && grep -q 'bigtext.lua:4: .* is longer than 128 KiB (1153434 bytes): refused' $T/err && [ ! -e $T/bigtext.csv ]"
done
printf 'local ok = string.rep("x", 131072)\nname(ok)\nnode(ok, 1, 2)\nnode("b", 2, 1, {class = ok, group = ok})\ndescription(ok .. "\\n" .. ok)\n' \
    >"$T/oktext.lua"
run "$H" run "$T/oktext.lua" --summary --save-cluster "$T/oktext.csv"
check "texts of 128 KiB: saved" sh -c "[ $rc -eq 0 ] && [ -s $T/oktext.csv ]"
"$H" run "$T/oktext.lua" >"$T/oktext.out" 2>/dev/null
run "$H" run "$T/oktext.csv"
check "texts of 128 KiB: the saved file reloads and schedules as the script" cmp "$T/out" "$T/oktext.out"

cat >"$T/longnames.lua" <<'LUA'
for i = 1, 12 do node(string.rep("n", 100000) .. i) end
local m = {}
for i = 1, 12 do m[i] = {}; for j = 1, 12 do m[i][j] = i == j and 0 or 1 end end
matrix(m)
LUA
rm -f "$T/longnames.csv"
run "$H" run "$T/longnames.lua" --save-cluster "$T/longnames.csv"
check "a matrix whose header row would pass 1 MiB: refused at matrix(), nothing saved" \
    sh -c "[ $rc -eq 2 ] && grep -q 'longnames.lua:4: the 12 nodes. names take 1200051 bytes in a latency matrix.s header row' $T/err && [ ! -e $T/longnames.csv ]"

# ---- a 100 MB line of commas: refused at its line, memory bounded ----
{ printf 'name,send,recv\n'; head -c 100000000 /dev/zero | tr '\0' ','; printf '\n'; } >"$T/commas.csv"
if [ -x /usr/bin/time ]; then
    run /usr/bin/time -f 'maxrss %M' "$H" run "$T/commas.csv"
    check "a 100 MB line of commas: refused at file:line, status 2" \
        refused 2 "commas.csv:2: line longer than 1024 KiB (100000001 bytes): refused"
    check "a 100 MB line of commas: under 1 GB of memory" \
        sh -c "[ \$(sed -n 's/^maxrss //p' $T/err) -lt 1000000 ]"
    printf 'name,send,recv\na,1,2\nb,2,1\n' >"$T/ab.csv"
    run /usr/bin/time -f 'maxrss %M' "$H" compare "$T/ab.csv" --trace "$T/commas.csv"
    check "a trace with a 100 MB line of commas: refused at file:line, status 2" \
        refused 2 "commas.csv:2: line longer than 1024 KiB (100000001 bytes): refused"
    check "a trace with a 100 MB line of commas: under 1 GB of memory" \
        sh -c "[ \$(sed -n 's/^maxrss //p' $T/err) -lt 1000000 ]"
else
    for i in 1 2 3 4; do n=$((n + 1)); echo "ok $n # SKIP /usr/bin/time is not installed"; done
fi
rm -f "$T/commas.csv"

# ---- nothing lost: a save that fails leaves the old file ----
printf 'old\n' >"$T/keep.csv"
run "$H" run clusters/counterexample.csv --save-cluster "$T/missing-dir/keep.csv"
check "save into a missing directory: status 1, says why" refused 1 "missing-dir/keep.csv: cannot create a temporary file"
run sh -c "trap '' XFSZ; ulimit -f 8; exec \"$H\" run \"$T/big.csv\" --summary --save-cluster \"$T/keep.csv\""
check "save that fills the disk: status 1, says why" refused 1 "keep.csv: write error: File too large"
check "save that fills the disk: the old file is intact" sh -c "[ \"\$(cat $T/keep.csv)\" = old ]"
check "save that fills the disk: no temporary file left" sh -c "[ -z \"\$(ls -A $T | grep '^\.keep')\" ]"

echo "1..$n"
[ "$fails" -eq 0 ]
