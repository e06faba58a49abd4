#!/bin/sh
# export_cli.sh - SVG export from the command line on the real binary:
# `hetcast run FILE --format svg` and `hetcast compare ... --format svg`
# print a whole SVG document (Gantt and tree), and an unknown format names
# svg among the valid ones.  Output: TAP.

HETCAST=${HETCAST:-build/hetcast}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hetcast-svg.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
n=0
failed=0
ok() {
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}

"$HETCAST" run clusters/counterexample.csv --format svg >"$TMP/run.svg"
ok $? "run --format svg succeeds"
head -n 1 "$TMP/run.svg" | grep -q '^<?xml' && tail -n 1 "$TMP/run.svg" | grep -q '^</svg>$'
ok $? "a whole SVG document"
grep -q 'fnf: makespan 6' "$TMP/run.svg" && grep -q 'p0 -&gt; p2' "$TMP/run.svg"
ok $? "the Gantt heading and the tree"
[ "$(grep -c '<rect' "$TMP/run.svg")" -ge 8 ]
ok $? "bars drawn"

"$HETCAST" compare clusters/counterexample.csv --format svg >"$TMP/cmp.svg"
ok $? "compare --format svg succeeds"
grep -q 'fnf: makespan 6' "$TMP/cmp.svg" && grep -q 'optimal: makespan 5' "$TMP/cmp.svg"
ok $? "both runs on one picture"

"$HETCAST" run clusters/counterexample.csv --format bogus >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q 'svg' "$TMP/err"
ok $? "an unknown format: status 2, svg among the valid ones"

# Slides: the parts and the nodes of the picture.
"$HETCAST" compare clusters/counterexample.csv --format svg --svg-parts gantt >"$TMP/g.svg"
ok $? "--svg-parts gantt succeeds"
grep -q 'optimal: makespan 5' "$TMP/g.svg" && ! grep -q 'broadcast tree' "$TMP/g.svg" &&
    tail -n 1 "$TMP/g.svg" | grep -q '^</svg>$'
ok $? "--svg-parts gantt: the charts, no tree"
"$HETCAST" compare clusters/counterexample.csv --format svg --svg-parts tree >"$TMP/t.svg"
grep -q 'broadcast tree (optimal)' "$TMP/t.svg" && ! grep -q 'optimal: makespan 5 (proven' "$TMP/t.svg" &&
    ! grep -q 'receive port' "$TMP/t.svg"
ok $? "--svg-parts tree: the trees, no chart and no legend"
hg=$(sed -n 's/.*<svg [^>]* height="\([0-9]*\)".*/\1/p' "$TMP/g.svg")
hb=$(sed -n 's/.*<svg [^>]* height="\([0-9]*\)".*/\1/p' "$TMP/cmp.svg")
[ "${hg:-0}" -gt 0 ] && [ "$hg" -lt "$hb" ]
ok $? "a part alone is a shorter picture ($hg px, both $hb px)"
"$HETCAST" run clusters/k-class.lua --param n=8 --format svg --svg-nodes fast-1,normal-2,slow-4 >"$TMP/s.svg"
grep -q 'showing 3 of 8 nodes: the nodes chosen' "$TMP/s.svg" && grep -q '>normal-2<' "$TMP/s.svg" &&
    ! grep -q '>normal-1<' "$TMP/s.svg"
ok $? "--svg-nodes NAMES: those lanes only, and it says so"
"$HETCAST" run clusters/fig6-100.csv --format svg --svg-nodes critical >"$TMP/c.svg"
grep -q 'showing 13 of 100 nodes: the source and the critical path' "$TMP/c.svg" &&
    grep -q 'fast-1 -&gt; slow-23' "$TMP/c.svg"
ok $? "--svg-nodes critical: the source and the critical path (fast-1 -> slow-23 on fig6-100, after the 11 sends that hold fast-1's port)"
"$HETCAST" run clusters/counterexample.csv --format svg --svg-nodes p0,p9 >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && grep -q 'no node named "p9"' "$TMP/err" && [ ! -s "$TMP/out" ]
ok $? "--svg-nodes with an unknown name: status 2, names it, prints no picture"
"$HETCAST" run clusters/counterexample.csv --svg-parts gantt >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q 'add --format svg' "$TMP/err"
ok $? "--svg-parts without --format svg: status 2"
"$HETCAST" run clusters/counterexample.csv --format svg --svg-parts slides >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q 'gantt, tree or both' "$TMP/err"
ok $? "--svg-parts with an unknown part: status 2 and the valid ones"

echo "1..$n"
[ "$failed" -eq 0 ]
