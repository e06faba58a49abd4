#!/bin/sh
# multicast_cli.sh - a multicast on the real binary (TAP): clusters/multicast.csv
# (fnf 17, relay-fnf and optimal 13 through the relay R), --targets, the
# targets in the text, CSV and JSON outputs, --certify, the refusals
# (status 2, naming the option or file:line), and the view in tmux at 60x16,
# 80x24 and 160x45: targets marked on the lanes, the relay in the tree.
set -u
HETCAST=${HETCAST:-build/hetcast}
case $HETCAST in /*) ;; *) HETCAST=$(pwd)/$HETCAST ;; esac
H=$HETCAST
C=clusters/multicast.csv
T=$(mktemp -d)
n=0
fails=0
check() {   # check NAME COMMAND... : ok if the command succeeds
    name=$1; shift
    n=$((n + 1))
    if "$@" >/dev/null 2>&1; then echo "ok $n - $name"; else echo "not ok $n - $name"; fails=$((fails + 1)); fi
}
run() { "$@" >"$T/out" 2>"$T/err"; rc=$?; }
has() { grep -q -- "$1" "$2"; }

run "$H" run $C
check "run: fnf serves the targets only, 17" sh -c "[ $rc -eq 0 ] && grep -q '^makespan *17$' $T/out && ! grep -q ' R  *T' $T/out"
check "run: the targets under the cluster line" has "^targets: T1,T2,T3 (3 of 5 nodes; the others may relay)" "$T/out"
check "run: the optimum 13 beside" has "^optimum *13 " "$T/out"
check "run: no 2T + beta for a multicast" has "2T + beta: applies to broadcasts only (this is a multicast)" "$T/out"
run "$H" run $C -s relay-fnf
check "relay-fnf: 13, S serves the relay R first" sh -c "[ $rc -eq 0 ] && grep -q '^makespan *13$' $T/out && grep -q '^ *1  S  *R .*a relay' $T/out"
run "$H" run $C -s optimal --summary
check "optimal: its proof named once, with its search nodes counted in one parenthesis" grep -Eq '^note +proven optimal: the least of the exact optima of every set of relays \([0-9]+ search nodes?, [0-9.]+ s\)$' "$T/out"
run "$H" run $C -s optimal --certify
check "optimal --certify: 13, certified by the integer program" sh -c "[ $rc -eq 0 ] && grep -q '^makespan *13$' $T/out && grep -q '^certified *13 .*the same optimum' $T/out"
run "$H" run $C -s relay-fnf --format json
check "JSON: the targets listed" has '"targets": \["T1", "T2", "T3"\]' "$T/out"
run "$H" run $C --format csv
check "CSV: # targets:" has "^# targets: T1,T2,T3$" "$T/out"
run "$H" run clusters/counterexample.csv --targets p2 -s optimal
check "--targets p2 on the counterexample: one target, 5" sh -c "[ $rc -eq 0 ] && grep -q '^targets: p2 (1 of 3' $T/out && grep -q '^makespan *5$' $T/out"
run "$H" run $C --targets T1 --save-cluster "$T/saved.csv" --summary
check "--targets replaces the file's, and --save-cluster keeps it" sh -c "[ $rc -eq 0 ] && grep -q '^# targets: T1$' $T/saved.csv && grep -q '^makespan *9$' $T/out"

run "$H" run $C --targets T1,Q
check "--targets naming no node: status 2, the option and the name" sh -c "[ $rc -eq 2 ] && grep -q -- '--targets: \"Q\" is not a node of this cluster (clusters/multicast.csv)' $T/err"
printf '# targets: A,Z\nname,send,recv\nS,1,1\nA,1,1\n' >"$T/bad.csv"
run "$H" run "$T/bad.csv"
check "# targets: naming no node: status 2, file:line" sh -c "[ $rc -eq 2 ] && grep -q 'bad.csv:1: targets: \"Z\" is not a node' $T/err"
run "$H" run $C -s fef
check "fef on a multicast: status 2, naming what works" sh -c "[ $rc -eq 2 ] && grep -q 'scheduler fef sends to every node.*use fnf, optimal, relay-fnf or kk-round' $T/err"
run "$H" run $C --pattern all-to-all
check "a personalized exchange of a multicast: status 2, pointing to --receivers" sh -c "[ $rc -eq 2 ] && grep -q 'a personalized exchange has no targets.*--receivers' $T/err"
rm -rf "$T"

# The view in tmux (skipped without tmux).
if ! command -v tmux >/dev/null 2>&1; then
    echo "1..$n # tmux is not installed: the view's checks skipped"
    [ "$fails" -eq 0 ]
    exit
fi
m=$n
. "$(dirname "$0")/tmux_lib.sh"
n=$m   # tmux_lib.sh counts from 0: go on from the checks above
failed=$fails
for size in "80 24" "60 16" "160 45"; do
    # shellcheck disable=SC2086
    start $size -- $C -s relay-fnf
    wait_for "step 0/16"
    grep -q "3 targets" "$TMP/screen"
    ok $? "${size% *} columns: the title counts the targets"
    grep -q "◎ T1" "$TMP/screen" && grep -q "◎ T3" "$TMP/screen" && ! grep -q "◎ R" "$TMP/screen"
    ok $? "${size% *} columns: the targets marked on their lanes, the relay not"
    keys End t
    wait_for "3/3 targets hold"
    ok $? "${size% *} columns: the tree counts the targets"
    grep -q "S -> R (relay)" "$TMP/screen"
    ok $? "${size% *} columns: the tree names the relay"
    keys q
    sane
    ok $? "${size% *} columns: the terminal restored"
done
start 80 24 -- $C
wait_for "step 0/"
keys x
wait_for "targets 0/3"
ok $? "exercise: the targets counted in its head"
keys Enter
wait_for "S sends to:"
grep -q "▸ R  *holds at 6" "$TMP/screen"
ok $? "exercise: the relay R offered as a receiver"
keys Enter
wait_for "You: S -> R, R holds it at 6"
grep -q "Best" "$TMP/screen" && grep -q "reachable still 13" "$TMP/screen"
ok $? "exercise: serving the relay keeps the best reachable at 13"
keys q q
sane
ok $? "exercise: the terminal restored"
echo "1..$n"
[ "$failed" -eq 0 ]
