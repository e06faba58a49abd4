#!/bin/sh
# bench/cp_broadcast.sh - the least makespan of a broadcast on a hetcast node
# table in the async model, by the constraint program bench/cp_broadcast.mzn
# solved by Gecode through MiniZinc (Debian: minizinc, libgecodeflatzinc49),
# to check hetcast's optima and to time a constraint solver beside it.
# OR-tools' CP-SAT is neither a Debian package nor on the npm registry, the
# two sources this project's machines reach; Gecode is the CP solver Debian
# ships.  The model says what a CP-SAT model would (a send port sends one
# message at a time) as all-different (sender, place) pairs.
#
# Not run by the tests or CI.
# Run:   bench/cp_broadcast.sh TABLE.csv [SECONDS]     (time limit, default 10)
# It prints one line:
#   cp makespan M proven (Gecode optimal, T s)
#   cp makespan M not proven: Gecode stopped at its time limit (T s)
# M is the makespan of Gecode's schedule timed again here from its choices
# (the tree and each sender's order, no idle time) as the async model times
# them.  Exit status 2 on a table it cannot read, 1 when Gecode finds no
# schedule or its schedule times otherwise here.
#
# The table: `name,send,recv` rows (no quoted fields), `# latency: L`
# (default 0) and `# source: NAME` (default the first node); other `#` lines
# are ignored.  Every time must be a multiple of 10^-d for some d <= 6: the
# program scales them to integers (a CP solver's domain).
set -eu
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: bench/cp_broadcast.sh TABLE.csv [SECONDS]" >&2; exit 2; }
table=$1 limit=${2:-10}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The data: nodes scaled to integers, the source 1-based, U fnf's makespan.
awk -F, -v out="$tmp/t.dzn" -v names="$tmp/names" '
function die(m) { print "cp_broadcast: " FILENAME ":" FNR ": " m > "/dev/stderr"; bad = 1; exit 2 }
/^#[ \t]*latency[ \t]*:/ { sub(/^#[ \t]*latency[ \t]*:[ \t]*/, ""); L = $0 + 0; next }
/^#[ \t]*source[ \t]*:/ { sub(/^#[ \t]*source[ \t]*:[ \t]*/, ""); src = $0; next }
/^#/ || /^[ \t]*$/ { next }
index($0, "\"") { die("quoted fields are not read here") }
!hdr { if (tolower($1) != "name" || tolower($2) != "send" || tolower($3) != "recv") die("expected the header name,send,recv"); hdr = 1; next }
{ if ($2 !~ /^[0-9.]+$/ || $3 !~ /^[0-9.]+$/) die("send and recv must be numbers >= 0")
  n++; nm[n] = $1; s[n] = $2 + 0; r[n] = $3 + 0 }
END {
    if (bad) exit 2
    if (n == 0) { print "cp_broadcast: " FILENAME ": no nodes" > "/dev/stderr"; exit 2 }
    si = 1
    if (src != "") { si = 0; for (i = 1; i <= n; i++) if (nm[i] == src) si = i
        if (!si) { print "cp_broadcast: " FILENAME ": the source " src " is not a node" > "/dev/stderr"; exit 2 } }
    for (d = 0; d <= 6; d++) {   # the least d with every time a whole multiple of 10^-d
        k = 10 ^ d; ok = (L * k == int(L * k + 0.5))
        for (i = 1; i <= n && ok; i++) {
            a = s[i] * k; b = r[i] * k
            if (a - int(a + 0.5) > 1e-9 * (a > 1 ? a : 1) || int(a + 0.5) - a > 1e-9 * (a > 1 ? a : 1)) ok = 0
            if (b - int(b + 0.5) > 1e-9 * (b > 1 ? b : 1) || int(b + 0.5) - b > 1e-9 * (b > 1 ? b : 1)) ok = 0
        }
        if (ok) break
    }
    if (d > 6) { print "cp_broadcast: " FILENAME ": times with more than 6 decimals" > "/dev/stderr"; exit 2 }
    U = 0
    for (i = 1; i <= n; i++) { S[i] = int(s[i] * k + 0.5); Rr[i] = int(r[i] * k + 0.5) }
    Li = int(L * k + 0.5)
    for (i = 1; i <= n; i++) if (i != si && S[si] + Li + Rr[i] <= 0)
        { print "cp_broadcast: " FILENAME ": a transfer of no time (the model needs every s + L + r > 0)" > "/dev/stderr"; exit 2 }
    # U: the makespan of fastest node first (docs/models.md), as bench/highs_broadcast.mjs
    # gives HiGHS: the holder whose next send ends first sends to the waiting node of
    # least s (then r, then index)
    for (i = 1; i <= n; i++) { ready[i] = -1; waiting[i] = (i != si) }
    ready[si] = 0
    for (m = 1; m < n; m++) {
        p = 0
        for (i = 1; i <= n; i++) if (waiting[i] && (!p || S[i] < S[p] || (S[i] == S[p] && Rr[i] < Rr[p]))) p = i
        q = 0
        for (i = 1; i <= n; i++) if (ready[i] >= 0 && (!q || ready[i] + S[i] < ready[q] + S[q])) q = i
        h = ready[q] + S[q] + Li + Rr[p]; ready[q] += S[q]; ready[p] = h; waiting[p] = 0
        if (h > U) U = h
    }
    printf "n = %d;\nsrc = %d;\nL = %d;\nU = %d;\n", n, si, Li, U > out
    printf "s = [" > out; for (i = 1; i <= n; i++) printf "%s%d", (i > 1 ? ", " : ""), S[i] > out; print "];" > out
    printf "r = [" > out; for (i = 1; i <= n; i++) printf "%s%d", (i > 1 ? ", " : ""), Rr[i] > out; print "];" > out
    printf "%d %d %d\n", n, si, k > names
    for (i = 1; i <= n; i++) print S[i], Rr[i] > names
    print Li > names
}' "$table" || exit 2

start=$(date +%s.%N)
status=0
minizinc --solver gecode --time-limit "$(awk -v s="$limit" 'BEGIN { printf "%d", s * 1000 }')" \
    "$here/cp_broadcast.mzn" "$tmp/t.dzn" >"$tmp/out" 2>"$tmp/err" || status=$?
wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
if [ "$status" -ne 0 ] || ! grep -q '^makespan ' "$tmp/out"; then
    echo "cp_broadcast: Gecode found no schedule (status $status)" >&2
    cat "$tmp/err" >&2
    exit 1
fi

# The last schedule Gecode printed, timed again: each sender's children in the
# order of their places, one after another from when it holds.
awk -v wall="$wall" -v proven="$(grep -c '^==========$' "$tmp/out" || true)" '
FNR == NR { if (FNR == 1) { n = $1; si = $2; k = $3 } else if (FNR <= n + 1) { S[FNR - 1] = $1; R[FNR - 1] = $2 } else L = $1; next }
/^makespan / { obj = $2 }
/^parent / { gsub(/[^0-9 ,]/, ""); np = split($0, P, /, */) }
/^place / { gsub(/[^0-9 ,]/, ""); split($0, T, /, */) }
END {
    for (i = 1; i <= n; i++) hold[i] = -1
    hold[si] = 0; ready[si] = 0; done = 1
    while (done < n) {   # the least place among the nodes whose parent holds
        b = 0
        for (p = 1; p <= n; p++)
            if (hold[p] < 0 && hold[P[p] + 0] >= 0 && (!b || T[p] + 0 < T[b] + 0 || (T[p] + 0 == T[b] + 0 && p < b))) b = p
        if (!b) { print "cp_broadcast: the parents are not a tree" > "/dev/stderr"; exit 1 }
        q = P[b] + 0
        hold[b] = ready[q] + S[q] + L + R[b]; ready[q] += S[q]; ready[b] = hold[b]; done++
    }
    m = 0
    for (p = 1; p <= n; p++) if (hold[p] > m) m = hold[p]
    if (m > obj + 0) { print "cp_broadcast: the schedule times to " m " here, Gecode says " obj > "/dev/stderr"; exit 1 }
    if (proven + 0 > 0 && m < obj + 0) { print "cp_broadcast: Gecode says " obj " is optimal, its own schedule times to " m > "/dev/stderr"; exit 1 }
    if (proven + 0 > 0) printf "cp makespan %.10g proven (Gecode optimal, %s s)\n", m / k, wall
    else printf "cp makespan %.10g not proven: Gecode stopped at its time limit (%s s)\n", m / k, wall
}' "$tmp/names" "$tmp/out"
