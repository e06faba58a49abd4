#!/bin/sh
# ui_trace.sh - the view with --trace on the real binary in tmux (TAP): the
# counterexample's prediction (fnf 6) beside its measured run
# (tests/data/counterexample-measured.csv: 6.01), at 80x24, 60x16 and
# 160x40: both panes, the makespan error in the summary, how far each
# transfer is off between the panes and in the narration and node facts,
# s choosing the prediction (optimal: 5 beside 5.003), c and back, and a
# bad trace refused before the screen opens (file:line, status 2).
# Skips when tmux is missing.
. "$(dirname "$0")/tmux_lib.sh"
C=clusters/counterexample.csv
M=tests/data/counterexample-measured.csv

start 80 24 -- $C --trace $M
wait_for "step 0/16"
ok $? "80x24: opens with both timelines merged (16 steps)"
grep -q "fnf: predicted vs measured" "$TMP/screen"
ok $? "80x24: the title says predicted vs measured"
grep -q "fnf 6 · measured 6.01 · error +0.01 (+0.17%)" "$TMP/screen"
ok $? "80x24: the makespan error in the summary"
grep -q "fnf (predicted) · makespan 6" "$TMP/screen" && grep -q "fnf (measured) · makespan 6.01" "$TMP/screen"
ok $? "80x24: two panes, each under its heading"
keys End
wait_for "step 16/16"
ok $? "End: the last event of both"
grep -q "measured - predicted, held: p1 +0.004 · p2 +0.01" "$TMP/screen"
ok $? "between the panes: how far each transfer is off"
grep -q "fnf (measured): t=6.01: p2 holds the message" "$TMP/screen"
ok $? "the measured narration"
keys Home l l
wait_for "step 2/16"
grep -q "measured (line 5):" "$TMP/screen" && grep -q "held 0.004 later than predicted" "$TMP/screen"
ok $? "a measured send's narration gives its shift and its trace line"
keys End Down i
wait_for "measured - predicted: its transfer starts"
ok $? "the facts of a node: measured - predicted"
keys q
keys s
wait_for "optimal"
keys Home Down Down Down Down Down
wait_for "optimal"
keys Enter
wait_for "optimal 5 · measured 5.003"
ok $? "s optimal: the prediction 5 beside the trace's optimal rows, 5.003"
keys c
wait_for "c compare"
grep -q "optimal · makespan\|makespan 5" "$TMP/screen" && ! grep -q "measured" "$TMP/screen"
ok $? "c: the prediction alone"
keys c
wait_for "optimal (measured)"
ok $? "c again: the measured pane is back"
keys q
sane
ok $? "q: the terminal is sane"

start 60 16 -- $C --trace $M
wait_for "step 0/16"
ok $? "60x16: opens"
grep -q "measured 6.01" "$TMP/screen" && grep -q "fnf (measured)" "$TMP/screen"
ok $? "60x16: the measured makespan and its pane"
keys q
sane

start 160 40 -- $C --trace $M
wait_for "step 0/16"
keys End
wait_for "step 16/16"
grep -q "error +0.01 (+0.17%) · lower bound 5 · optimum 5" "$TMP/screen"
ok $? "160x40: the error beside the bounds"
[ "$(grep -c '│' "$TMP/screen")" -ge 12 ] 
ok $? "160x40: both panes drawn whole (12 lanes)"
keys q
sane

printf 'scheduler,seq,from,to,send_start,send_end,link_start,link_end,recv_start,recv_end,hold\nfnf,1,p0,p7,0,1,1,2,2,4,4\n' >"$TMP/bad.csv"
start 80 24 -- $C --trace "$TMP/bad.csv"
wait_for "EXIT=2" 50
ok $? "a bad trace: status 2 before the screen opens"
grep -q 'bad.csv:2: to: "p7" is not a node' "$TMP/screen"
ok $? "... with file:line and the problem"
echo "1..$n"
[ "$failed" -eq 0 ]
