#!/bin/sh
# bench/solver_check.sh - checks another solver's program against hetcast's
# exact search: on random node tables of 3 to 8 nodes, its proven least
# makespan (async) must equal `hetcast run T -m async -s optimal --summary`'s
# proven optimum to 1e-9 relative.  A difference is either the program's
# error or hetcast's; the table is named.  SOLVER is highs
# (bench/highs_broadcast.mjs: a mixed-integer program, HiGHS) or cp
# (bench/cp_broadcast.sh: a constraint program, Gecode).
#
# Needs: hetcast, and for highs node and `npm install` in bench/, for cp
# minizinc with Gecode.  Not run by the tests or CI.
# Run:   bench/solver_check.sh SOLVER HETCAST [RUNS]     (RUNS tables of each
#        size and setting, default 6: 3 settings x 6 sizes x 6 = 108 tables)
# The settings, drawn by `hetcast experiment optima` (docs/optima.md):
# r = s + 1 and latency 0 (the studies' default); latency 1.5 with r drawn
# apart from s; the papers' three classes (many equal times) with latency 1.
# Exit status 1 on a difference or a table either leaves unproven.
set -eu
[ $# -ge 2 ] || { echo "usage: bench/solver_check.sh highs|cp HETCAST [RUNS]" >&2; exit 2; }
solver=$1 hc=$2 runs=${3:-6}
case $solver in highs | cp) ;; *) echo "solver_check.sh: the solver is highs or cp, not $solver" >&2; exit 2 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$hc" experiment optima --out "$tmp/a" --nodes 3:8 --runs "$runs" --classes 0 --models async \
    --node-limit 1 --quiet >/dev/null
"$hc" experiment optima --out "$tmp/b" --nodes 3:8 --runs "$runs" --classes 0 --models async \
    --latency 1.5 --recv independent --seed 7 --node-limit 1 --quiet >/dev/null
"$hc" experiment optima --out "$tmp/c" --nodes 3:8 --runs "$runs" --classes 3 --models async \
    --latency 1 --seed 11 --node-limit 1 --quiet >/dev/null
bad=0 same=0
for t in "$tmp"/[abc]/n*-*[0-9].csv; do
    h=$("$hc" run "$t" -m async -s optimal --summary 2>/dev/null | awk '/^optimum/ && /proven optimal/ { print $2 }')
    if [ "$solver" = highs ]; then
        g=$(node "$here/highs_broadcast.mjs" "$t" | awk '$4 == "proven" { print $3 }')
    else
        g=$("$here/cp_broadcast.sh" "$t" 60 2>/dev/null | awk '$4 == "proven" { print $3 }')
    fi
    if [ -z "$h" ] || [ -z "$g" ]; then
        echo "UNPROVEN ${t#"$tmp"/}: hetcast '$h', $solver '$g'"; bad=$((bad + 1)); continue
    fi
    if awk -v a="$h" -v b="$g" 'BEGIN { d = a - b; if (d < 0) d = -d; m = a < 0 ? -a : a; exit !(d <= 1e-9 * (m > 1 ? m : 1)) }'; then
        same=$((same + 1))
    else
        echo "DIFFER ${t#"$tmp"/}: hetcast $h, $solver $g"; cat "$t"; bad=$((bad + 1))
    fi
done
echo "solver_check: $solver: $same tables equal, $bad different or unproven"
[ "$bad" -eq 0 ]
