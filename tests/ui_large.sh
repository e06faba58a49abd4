#!/bin/sh
# ui_large.sh - the view on a large cluster, on the real binary in tmux (TAP):
# a generated node table of 200 000 nodes at 80x24.  The first frame: the
# title's nodes and steps (async with a latency: four events a transfer), the
# makespan and lower bound of hetcast run, those that matter on the first
# lanes (n0 first).  Stepping over the first tie in time narrates hetcast
# run's fourth transfer (its start after the first send's end, both at
# t=5.38: the timeline's (time, booking, kind) order), and L logs the first
# transfer with run's reason (written only when shown); End narrates the last
# hold; PgDn shows nodes 17-32; t at step 3 draws the tree from the source
# with run's first transfers; two schedulers open in compare mode with both makespans
# and the merged steps.  Skips when tmux is missing.
. "$(dirname "$0")/tmux_lib.sh"

N=200000
C=$TMP/large.csv
awk -v n=$N -v seed=7 'BEGIN { srand(seed); print "# latency: 1"; print "name,send,recv";
    for (i = 0; i < n; i++) { s = int(100 + rand() * 900) / 100; printf "n%d,%.2f,%.2f\n", i, s, s + 1 } }' >"$C"
field() { "$HETCAST" run "$C" --summary 2>/dev/null | awk -v f="$1" '$1 == f { print $2 }'; }
MS=$(field makespan)
LB=$("$HETCAST" run "$C" --summary 2>/dev/null | awk '$1 == "lower" { print $3 }')
MS_FEF=$("$HETCAST" run "$C" -s fef --summary 2>/dev/null | awk '$1 == "makespan" { print $2 }')
"$HETCAST" run "$C" 2>/dev/null >"$TMP/run.txt"
# the view prints times as %g
MS=$(printf %g "$MS")
LB=$(printf %g "$LB")
MS_FEF=$(printf %g "$MS_FEF")
# hetcast run's transfers: "K from to [send) [link) [receive) holds-at why"
T4=$(awk '$1 == "4" { print $2, $3; exit }' "$TMP/run.txt")
T1=$(awk '$1 == "1" { print $2, $3, $10; exit }' "$TMP/run.txt")
set -- $T4
FROM4=$1 TO4=$2
set -- $T1
TO1=$2 HOLD1=$3
WHY1=$(sed -n 's/^ *1  .* \(n0 can finish a send first .*\)$/\1/p' "$TMP/run.txt")
STEPS=$((4 * (N - 1)))

start 80 24 -- "$C"
wait_for "step 0/$STEPS" 600
ok $? "opens on $N nodes with $STEPS steps (four events a transfer)"
grep -q "· $N nodes, source n0 · async · fnf" "$TMP/screen"
ok $? "the title names the cluster's $N nodes, the source, the model and fnf"
grep -q "makespan $MS · lower bound $LB · optimum ?" "$TMP/screen"
ok $? "the summary has hetcast run's makespan ($MS) and lower bound ($LB)"
grep -q "of $N nodes: those that matter (PgDn: all)" "$TMP/screen" && grep -q "^n0  *│" "$TMP/screen"
ok $? "the first page shows those that matter, the source n0 first"
keys l l l
wait_for "step 3/$STEPS"
tr -d '\n' <"$TMP/screen" | tr -s ' ' | grep -q "$FROM4 starts sending the message to $TO4: $FROM4 can finish a send first"
ok $? "step 3 narrates run's fourth transfer, $FROM4 to $TO4, after the first send's end at the same time"
keys L
wait_for "narration log: 3 events up to step 3"
[ -n "$WHY1" ] && tr -d '\n' <"$TMP/screen" | tr -s ' ' | grep -qF "t=0: n0 starts sending the message to $TO1: $WHY1"
ok $? "L logs the first transfer with run's reason, written when shown"
keys Escape
keys G
wait_for "step $STEPS/$STEPS"
tr -d '\n' <"$TMP/screen" | tr -s ' ' | grep -q "t=$MS: n[0-9]* holds the message from n[0-9]* ($N of $N nodes hold it)"
ok $? "End narrates the last hold at the makespan, every node holding the message"
keys g NPage
wait_for "nodes 17-32 of $N"
grep -q "^n16  *│" "$TMP/screen" && grep -q "^n31  *│" "$TMP/screen"
ok $? "PgDn shows the nodes 17-32, n16 to n31"
keys l l l t
wait_for "tree fnf"
grep -q "│ n0 (source) " "$TMP/screen" && grep -q "├─n0 -> $TO1 *($HOLD1)" "$TMP/screen" &&
    grep -q "└─n0 -> $TO4 " "$TMP/screen"
ok $? "t at step 3 draws the tree from n0: $TO1 holding at $HOLD1 as in run, then $TO4"
keys q
wait_for "EXIT=0" 100
ok $? "q quits with status 0"

start 80 24 -- "$C" -s fnf -s fef
wait_for "step 0/$((2 * STEPS))" 600
ok $? "two schedulers open in compare mode, their $((2 * STEPS)) steps merged"
grep -q "fnf vs fef" "$TMP/screen" && grep -q "fnf $MS · fef $MS_FEF · difference" "$TMP/screen"
ok $? "the summary compares run's makespans, fnf $MS and fef $MS_FEF"
grep -q "^ fnf · makespan $MS" "$TMP/screen" && grep -q "^ fef · makespan $MS_FEF" "$TMP/screen"
ok $? "a pane for each, titled with its makespan"
keys q
wait_for "EXIT=0" 100
ok $? "q quits with status 0"
echo "1..$n"
[ "$failed" -eq 0 ]
