#!/bin/sh
# bench/solver_frontier.sh - another solver's frontier beside hetcast's
# (bench/frontier.sh): the largest n at which it proves 10 of 10 random node
# tables (async) within its time limit, on the tables frontier.sh draws.
# SOLVER is highs (bench/highs_broadcast.mjs: a mixed-integer program, HiGHS)
# or cp (bench/cp_broadcast.sh: a constraint program, Gecode).
#
# Needs: hetcast (only to draw the tables), /usr/bin/time, and for highs node
# and `npm install` in bench/, for cp minizinc with Gecode.  Not run by the
# tests or CI.
# Run:   bench/solver_frontier.sh SOLVER HETCAST OUT.csv N,N,...
# Environment: LIMIT (the solver's time limit, wall-clock, default 10), TABLES
#   (default 10), SEED (default 1), TABLEDIR (shared with frontier.sh).
#
# The tables are those of frontier.sh (hetcast experiment optima --classes 0,
# the same seed).  One solve at a time; a size stops at its first table not
# proven.  The sizes are tried in the order given while every table is
# proven, then the interval to the first failing size is halved.  OUT.csv
# gets a row a solve (the CPU seconds of the whole node process, the load
# average at its start); the summary goes to standard output.
set -eu
[ $# -eq 4 ] || { echo "usage: bench/solver_frontier.sh highs|cp HETCAST OUT.csv N,N,..." >&2; exit 2; }
solver=$1 hc=$2 out=$3 sizes=$4
case $solver in highs | cp) ;; *) echo "solver_frontier.sh: the solver is highs or cp, not $solver" >&2; exit 2 ;; esac
LIMIT=${LIMIT:-10} TABLES=${TABLES:-10} SEED=${SEED:-1}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TABLEDIR=${TABLEDIR:-$tmp/tables}
mkdir -p "$TABLEDIR"
[ -s "$out" ] || echo "n,table,proven,makespan,cpu_s,wall_s,load1" >"$out"
echo "# solver_frontier.sh: $solver, time_limit $LIMIT (wall-clock), $TABLES tables a size, seed $SEED"
echo "# start: $(date -u '+%Y-%m-%d %H:%M UTC'), load $(uptime | sed 's/.*average: //')"

size() {   # n: sets ok (1: every table proven)
    d=$TABLEDIR/n$1
    [ -f "$d/index.csv" ] || "$hc" experiment optima --out "$d" --nodes "$1" --runs "$TABLES" \
        --classes 0 --models async --node-limit 1 --seed "$SEED" --quiet >/dev/null
    ok=1 proven=0 t=1
    while [ "$t" -le "$TABLES" ]; do
        f=$(printf '%s/n%02d-%03d.csv' "$d" "$1" "$t")
        load1=$(awk '{ print $1 }' /proc/loadavg)
        if [ "$solver" = highs ]; then
            /usr/bin/time -f '%U %S %e' -o "$tmp/time" \
                node "$here/highs_broadcast.mjs" "$f" --time-limit "$LIMIT" >"$tmp/run" 2>&1 || true
        else
            /usr/bin/time -f '%U %S %e' -o "$tmp/time" \
                "$here/cp_broadcast.sh" "$f" "$LIMIT" >"$tmp/run" 2>&1 || true
        fi
        read -r u s w <"$tmp/time"
        p=0
        grep -q ' proven (' "$tmp/run" && p=1
        mk=$(awk '{ print $3 }' "$tmp/run")
        echo "$1,$t,$p,$mk,$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }'),$w,$load1" >>"$out"
        if [ "$p" = 1 ]; then proven=$((proven + 1)); else ok=0; break; fi
        t=$((t + 1))
    done
    printf '%s %4s  proven %2d of %2d run  load %s\n' "$solver" "$1" "$proven" "$(( t > TABLES ? TABLES : t ))" \
        "$(awk '{ print $1 }' /proc/loadavg)"
}

lo=0 hi=0
for n in $(echo "$sizes" | tr ',' ' '); do
    size "$n"
    if [ "$ok" = 1 ]; then lo=$n; else hi=$n; break; fi
done
while [ "$hi" -gt 0 ] && [ $((hi - lo)) -gt 1 ]; do
    mid=$(((lo + hi) / 2))
    size "$mid"
    if [ "$ok" = 1 ]; then lo=$mid; else hi=$mid; fi
done
echo "FRONTIER $solver $lo"
echo "# end: $(date -u '+%Y-%m-%d %H:%M UTC'), load $(uptime | sed 's/.*average: //')"
