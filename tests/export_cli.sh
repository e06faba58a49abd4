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

echo "1..$n"
[ "$failed" -eq 0 ]
