#!/bin/sh
# teach_cli.sh - what the command line says to a class (issue 15): the
# "first difference:" line of hetcast compare (both picks, the node that
# finishes late and why), optimal's reasons (what each choice achieves), and
# the lessons: every shipped lesson runs with --print, and the numbers its
# handout prints match hetcast run / compare on the same clusters.
# Output: TAP.

HETCAST=${HETCAST:-build/hetcast}
n=0
failed=0
ok() {
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hetcast-teach.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# ---- first difference ----

"$HETCAST" compare clusters/counterexample.csv >"$TMP/cmp"
ok $? "compare runs"
grep "^first difference:" "$TMP/cmp" >"$TMP/fd"
ok $? "a line starts with first difference:"
grep -q "p0 -> p1" "$TMP/fd" && grep -q "p0 -> p2" "$TMP/fd"
ok $? "it names both picks, p0 -> p1 and p0 -> p2"
grep -q "p2 finishes late under fnf" "$TMP/fd"
ok $? "and p2 as the node that finishes late"
grep -q "its receive starts at 3, not 2" "$TMP/fd" && grep -q "s(p0) + L + r(p2) = 5 is missed by 1" "$TMP/fd"
ok $? "and why: its receive starts later, the bound it misses"
"$HETCAST" compare clusters/counterexample.csv -s fnf -s fnf | grep -q "^first difference: none"
ok $? "two equal schedules: no difference"
"$HETCAST" compare clusters/k-class.lua --param n=8 | grep -q "^first difference: decision"
ok $? "k-class n=8: a first difference too"

# ---- optimal says what its choice achieves ----

"$HETCAST" run clusters/counterexample.csv -s optimal | grep -q "p2 is served as early as it can ever be (holds it at t=5), within the lower bound 5"
ok $? "optimal's reason: p2 served as early as it can be, meeting the lower bound"

# ---- lessons: every shipped one prints, and its numbers are hetcast's ----

lessons=0
for f in lua/lessons/*.lua; do
    lessons=$((lessons + 1))
    name=$(basename "$f")
    "$HETCAST" lesson "$f" --print >"$TMP/handout" 2>"$TMP/err"
    ok $? "$name: --print runs"
    grep -q "^## 1/" "$TMP/handout"
    ok $? "$name: the handout has its slides"
    checks=0
    bad=0
    grep "^check: hetcast compare " "$TMP/handout" >"$TMP/checks"
    while IFS= read -r line; do
        checks=$((checks + 1))
        cmd=${line#check: hetcast compare }
        args=${cmd% =>*}
        want=${cmd#*=> }
        # shellcheck disable=SC2086
        "$HETCAST" compare $args >"$TMP/out" 2>/dev/null
        echo "$want" | tr ',' '\n' | while read -r sched value; do
            got=$(awk -v s="$sched" '$1 == s && $2 ~ /^[0-9.e+-]+$/ { print $2; exit }' "$TMP/out")
            [ "$got" = "$value" ] || echo "# $name: $sched: the handout says $value, hetcast compare $args says ${got:-nothing}"
        done >"$TMP/diff"
        [ -s "$TMP/diff" ] && { cat "$TMP/diff"; bad=$((bad + 1)); }
    done <"$TMP/checks"
    [ "$checks" -gt 0 ] && [ "$bad" -eq 0 ]
    ok $? "$name: the numbers of its $checks slides match hetcast compare on the same clusters"
done
[ "$lessons" -ge 5 ]
ok $? "at least five lessons are shipped ($lessons)"

# A slide's makespan in the handout is the one hetcast run prints.
"$HETCAST" lesson lua/lessons/fnf-loses.lua --print | grep -A1 "^cluster: counterexample" | grep -q "fnf            makespan 6" &&
    "$HETCAST" run clusters/counterexample.csv | grep -q "^makespan      6"
ok $? "fnf-loses: fnf's makespan 6 is hetcast run's"

# A broken lesson is a message with the file and line, status 2.
printf 'return {slides = {{title = "x"}}}\n' >"$TMP/bad.lua"
"$HETCAST" lesson "$TMP/bad.lua" --print >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "cluster = \"FILE\" is missing" "$TMP/err"
ok $? "a slide without a cluster: status 2 and what is missing"

echo "1..$n"
[ "$failed" -eq 0 ]
