#!/bin/sh
# bench/frontier.sh - the exact search's frontier: for each port model, the
# largest n at which 10 of 10 random node tables are proven optimal within
# the time limit, for two builds of hetcast side by side (before and after a
# change), paired table by table.
#
# Needs: two hetcast binaries (BEFORE and AFTER; they may be the same),
# /usr/bin/time, uptime, awk.  Not run by the tests or CI: it takes minutes
# to an hour of CPU and its figures depend on the machine and its load.
#
# Run:   bench/frontier.sh BEFORE AFTER OUT.csv MODEL:N,N,... [MODEL:N,...]
# e.g.   bench/frontier.sh /tmp/before/hetcast build/hetcast frontier.csv \
#            async:16,24,32,40 sync:12,14,16,18,20
# Environment: LIMIT (the --time-limit, default 10), TABLES (default 10),
#   SEED (default 1), GEN (the binary that draws the tables, default AFTER),
#   TABLEDIR (where the tables are kept, default a temporary folder).
#
# The tables: `hetcast experiment optima --classes 0` draws them with the
# generator of the studies (docs/optima.md): every node on its own, s in
# [1, 10] in steps of 0.1, r = s + 1, latency 0, source p0; table j of a
# size from --seed and j alone (--node-limit 1: nothing is solved there).
# Each table is solved by `hetcast run T -m MODEL -s optimal --summary
# --time-limit LIMIT`, one process at a time, BEFORE and AFTER back to back
# (which goes first alternates from table to table), so that the load hits
# both alike.  A run counts as proven when its `optimum` line says "proven
# optimal"; "unknown: between A and B" is a give-up.  --time-limit is
# wall-clock: the CPU seconds (user + system, /usr/bin/time) and the load
# average are written beside each run, and the search nodes the run says it
# explored (none when a bound is met before any branching): the same
# search gives the same count whatever the load, when it proves within its
# first pass (three quarters of the limit, wall-clock; sched/optimal.c).
#
# The sizes of a model are tried in the order given while at least one
# build proves every table; then the interval between the last such size
# and the first where neither does is halved (integers) until it closes.
# At a size, once both builds have given up on some table, its remaining
# tables are skipped (that size cannot be 10 of 10 for either): the row
# says how many tables were run.
#
# OUT.csv gets one row a run; the summary (a row a model and size) goes to
# standard output.
set -eu

if [ $# -lt 4 ]; then
    echo "usage: bench/frontier.sh BEFORE AFTER OUT.csv MODEL:N,N,... [MODEL:N,...]" >&2
    exit 2
fi
before=$1 after=$2 out=$3
shift 3
LIMIT=${LIMIT:-10} TABLES=${TABLES:-10} SEED=${SEED:-1} GEN=${GEN:-$after}
for b in "$before" "$after" "$GEN"; do
    [ -x "$b" ] || { echo "frontier.sh: $b: not an executable" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TABLEDIR=${TABLEDIR:-$tmp/tables}
mkdir -p "$TABLEDIR"
[ -s "$out" ] || echo "model,n,table,build,first,proven,makespan,lower,cpu_s,wall_s,load1,search_nodes" >"$out"
echo "# frontier.sh: --time-limit $LIMIT (wall-clock), $TABLES tables a size, seed $SEED"
echo "# before: $before ($("$before" --version 2>&1 | head -1))"
echo "# after:  $after ($("$after" --version 2>&1 | head -1))"
echo "# start: $(date -u '+%Y-%m-%d %H:%M UTC'), load $(uptime | sed 's/.*average: //')"

# the tables of size n, drawn once
tables() {
    d=$TABLEDIR/n$1
    if [ ! -f "$d/index.csv" ]; then
        "$GEN" experiment optima --out "$d" --nodes "$1" --runs "$TABLES" --classes 0 \
            --models async --node-limit 1 --seed "$SEED" --quiet >/dev/null
    fi
}

# one solve: prints 1 (proven) or 0, appends its row to OUT
solve() {   # build-label binary model n table first
    f=$(printf '%s/n%s/n%02d-%03d.csv' "$TABLEDIR" "$4" "$4" "$5")
    load1=$(awk '{ print $1 }' /proc/loadavg)
    /usr/bin/time -f '%U %S %e' -o "$tmp/time" \
        "$2" run "$f" -m "$3" -s optimal --summary --time-limit "$LIMIT" >"$tmp/run" 2>&1 || true
    awk -v load1="$load1" -v tf="$tmp/time" '
        /^optimum / { line = $0 }
        /^optimum / && match($0, /[0-9]+ (search )?nodes/) { nodes = substr($0, RSTART, RLENGTH); sub(/ .*/, "", nodes) }
        END {
            getline t < tf; split(t, a, " ")
            if (line ~ /\(proven optimal/) { split(line, w, " +"); p = 1; mk = w[2]; lo = w[2] }
            else if (line ~ /unknown: between/) {
                match(line, /between [^ ]+ and [^ ]+/); split(substr(line, RSTART, RLENGTH), w, " ")
                p = 0; lo = w[2]; mk = w[4]
            } else { p = -1; mk = "?"; lo = "?" }
            printf "%d %s %s %.2f %s %s %s\n", p, mk, lo, a[1] + a[2], a[3], load1, nodes == "" ? "-" : nodes
        }' "$tmp/run" >"$tmp/res"
    read -r p mk lo cpu wall l1 nodes <"$tmp/res"
    if [ "$p" -lt 0 ]; then
        echo "frontier.sh: $1 on $f ($3) printed neither a proof nor a give-up:" >&2
        cat "$tmp/run" >&2
        exit 1
    fi
    echo "$3,$4,$5,$1,$6,$p,$mk,$lo,$cpu,$wall,$l1,$nodes" >>"$out"
    echo "$p"
}

# a size: sets ok_b, ok_a (1: every table proven) and prints its row
size() {   # model n
    tables "$2"
    pb=0 pa=0 gb=0 ga=0 run=0 cb=0 ca=0
    t=1
    while [ "$t" -le "$TABLES" ]; do
        if [ $((t % 2)) -eq 1 ]; then
            rb=$(solve before "$before" "$1" "$2" "$t" before)
            ra=$(solve after "$after" "$1" "$2" "$t" before)
        else
            ra=$(solve after "$after" "$1" "$2" "$t" after)
            rb=$(solve before "$before" "$1" "$2" "$t" after)
        fi
        run=$t
        if [ "$rb" = 1 ]; then pb=$((pb + 1)); else gb=1; fi
        if [ "$ra" = 1 ]; then pa=$((pa + 1)); else ga=1; fi
        [ "$gb" = 1 ] && [ "$ga" = 1 ] && break
        t=$((t + 1))
    done
    ok_b=0 ok_a=0
    [ "$pb" -eq "$TABLES" ] && ok_b=1
    [ "$pa" -eq "$TABLES" ] && ok_a=1
    cpu=$(awk -F, -v m="$1" -v n="$2" '$1 == m && $2 == n { if ($4 == "before") b += $9; else a += $9 }
                                       END { printf "%.1f %.1f", b, a }' "$out")
    printf '%-12s %4s  proven before %2d, after %2d of %2d run (%d drawn)  CPU s before %s, after %s  load %s\n' \
        "$1" "$2" "$pb" "$pa" "$run" "$TABLES" ${cpu% *} ${cpu#* } "$(awk '{ print $1 }' /proc/loadavg)"
}

for spec in "$@"; do
    model=${spec%%:*}
    lo=0 hi=0
    for n in $(echo "${spec#*:}" | tr ',' ' '); do
        size "$model" "$n"
        if [ "$ok_b" = 1 ] || [ "$ok_a" = 1 ]; then lo=$n; else hi=$n; break; fi
    done
    # halve the interval between the last size either build proved whole and the first neither did
    while [ "$hi" -gt 0 ] && [ $((hi - lo)) -gt 1 ]; do
        mid=$(((lo + hi) / 2))
        size "$model" "$mid"
        if [ "$ok_b" = 1 ] || [ "$ok_a" = 1 ]; then lo=$mid; else hi=$mid; fi
    done
    # the largest size with every table proven, each build
    awk -F, -v m="$model" -v T="$TABLES" '$1 == m { c[$2 "," $4] += $6 }
        END { for (k in c) if (c[k] == T) { split(k, w, ","); if (w[1] + 0 > best[w[2]]) best[w[2]] = w[1] + 0 }
              printf "FRONTIER %s before %d after %d\n", m, best["before"], best["after"] }' "$out"
done
echo "# end: $(date -u '+%Y-%m-%d %H:%M UTC'), load $(uptime | sed 's/.*average: //')"
