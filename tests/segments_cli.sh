#!/bin/sh
# segments_cli.sh - MPI's segmented broadcasts on the real binary (TAP):
# --slices K on node tables and matrices, the refusals with status 2, the
# K-segment report lines, JSON and an export. $HETCAST is the binary.
. tests/tap.sh

run "$H" run clusters/counterexample.csv -s two-tree --slices 4
check "two-tree, 4 segments: exit 0, makespan 14 (tests/test_segment.c works it by hand)" sh -c "[ $rc -eq 0 ] && grep -q '^makespan *14$' $T/out"
check "two-tree: the 4-segment bound 14, met, so proven" sh -c "grep -q '^lower bound *14 *(4 segments' $T/out && grep -q '^optimum *14 *(proven: the schedule meets the lower bound for 4 segments)' $T/out"
check "two-tree: each transfer names its segment, step and tree" has "segment 1 of 4: two trees, step 1 (colour 0): the source sends segments 1, 3, 5 ... to rank 2, the root of T1" "$T/out"
check "two-tree: the note counts the coloured steps (6 for 4 segments on 2 ranks, test_segment.c)" has "in 6 steps of the paper's edge colouring" "$T/out"
check "two-tree: no fnf guarantee claimed for segments" has "^guarantee *2T + beta: fnf's, for one message" "$T/out"

run "$H" run clusters/counterexample.csv -s chain
check "chain without --slices: the one-message chain, no segments line" sh -c "[ $rc -eq 0 ] && grep -q '^makespan *9$' $T/out && ! grep -q '^segments' $T/out"
run "$H" run clusters/counterexample.csv -s chain --slices 3 --format json
check "chain --slices 3 in JSON: \"segments\": 3 and each transfer's segment" sh -c "[ $rc -eq 0 ] && grep -q '\"segments\": 3' $T/out && grep -q '\"segment\": 3' $T/out"

run "$H" run clusters/platform-small.csv -s two-tree
check "two-tree on a platform graph: status 2, what works named" sh -c "[ $rc -eq 2 ] && grep -q 'scheduler two-tree does not work on a platform graph; use one of' $T/err"
run "$H" run clusters/platform-small.csv -s scatter-allgather
check "scatter-allgather on a platform graph: status 2" sh -c "[ $rc -eq 2 ] && grep -q 'scatter-allgather does not work on a platform graph' $T/err"
run "$H" run clusters/counterexample.csv -s scatter-allgather --slices 0
check "--slices 0: status 2, the range named" sh -c "[ $rc -eq 2 ] && grep -q -- '--slices: \"0\" is not an integer from 1 to 100000' $T/err"
run "$H" compare clusters/fig6-100.csv -s fnf -s knomial --slices 30000 --summary
check "too many transfers: status 2 before running, the count and the limit named" sh -c "[ $rc -eq 2 ] && grep -q -- '--slices 30000 on 100 nodes would book 2970000 transfers (at most 2000000' $T/err && [ ! -s $T/out ]"
run "$H" run clusters/fig6-100.csv -s binomial --slices 30000 --summary
check "the binomial that dispatches by kind is checked too" sh -c "[ $rc -eq 2 ] && grep -q 'would book 2970000' $T/err"

run "$H" compare clusters/calibrated-vm6.csv -m sync -s binomial -s knomial -s chain -s scatter-allgather -s two-tree -s optimal --slices 16 --summary
check "compare with segments: exit 0, each row its segments" sh -c "[ $rc -eq 0 ] && grep -q '^two-tree  *[0-9.]*  *[0-9.]*  *-  *16 segments' $T/out && grep -q '^optimal .* 1 segment ' $T/out"
check "compare: the long name keeps its column" has "^scatter-allgather  [0-9]" "$T/out"

check "the first difference calls the late piece a segment" has "then vm:2 gets segment 1 late under knomial" "$T/out"

run "$H" run clusters/calibrated-vm6.csv -s two-tree --slices 8 --format svg
check "an SVG of a segmented run, its footer says 8 segments" sh -c "[ $rc -eq 0 ] && grep -q '<svg' $T/out && grep -q 'lower bound [0-9.]* .* 8 segments</text>' $T/out"
check "the SVG's numbers as the text report prints them (10.557, not 10.556999999999999)" sh -c "grep -q 'makespan 10.557 ' $T/out && ! grep -q '10.5569999' $T/out"
run "$H" run clusters/calibrated-vm6.csv -s scatter-allgather --slices 8 --format chrome
check "a Chrome trace of a segmented run: each event names its segment" sh -c "[ $rc -eq 0 ] && grep -q 'traceEvents' $T/out && grep -q '\"name\": \"vm:0 -> vm:2 (segment 5)\"' $T/out && grep -q '\"segment\": 5' $T/out && ! grep -q slice $T/out"

done_testing
