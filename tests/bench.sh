#!/bin/sh
# bench.sh - `hetcast bench --quick` on the real binary (TAP): it runs, and
# every figure comes out in its documented format (docs/performance.md).
# Timings are never checked -- a benchmark is not a test -- but counts that
# do not depend on the machine are: fnf on n nodes of the generated cluster
# (every cost > 0) has 4 (n - 1) events, the 100-node all-to-all 9900
# messages.  $HETCAST is the binary.
. tests/tap.sh   # H, T, check, run, has, done_testing
lines() { grep -c -E -- "$1" "$T/out"; }   # lines of $T/out matching an ERE
NUM='[0-9]+(\.[0-9]+)?'

mkdir "$T/tmp"
TMPDIR=$T/tmp run "$H" bench --quick
check "bench --quick: exit 0" test "$rc" -eq 0
check "bench --quick: nothing on stderr" test ! -s "$T/err"
check "the LogGOPSim header line" grep -q -x "# PERFORMANCE: nodes events seconds events/s bytes/node .*" "$T/out"
check "engine: 10^3 nodes, 3996 events, time, events/s, bytes/node" \
    grep -q -E -x "PERFORMANCE: 1000 3996 $NUM $NUM $NUM" "$T/out"
check "engine: 10^4 nodes, 39996 events" grep -q -E -x "PERFORMANCE: 10000 39996 $NUM $NUM $NUM" "$T/out"
check "engine: no larger size with --quick" test "$(lines '^PERFORMANCE:')" -eq 2
check "csv: nodes, bytes, seconds, MB/s" \
    grep -q -E -x "CSV: nodes 10000 bytes [0-9]+ seconds $NUM MB/s $NUM" "$T/out"
for f in 2-class 3-class random; do
    check "optimal: $f, two time limits with the largest n solved" \
        test "$(lines "^OPTIMAL: $f $NUM [0-9]+ $NUM\$")" -eq 2
done
check "lp: the 50-node platform (nodes edges seconds throughput rows columns rounds)" \
    grep -q -E -x "LP: 50 [0-9]+ $NUM $NUM(e-?[0-9]+)? [0-9]+ [0-9]+ [0-9]+" "$T/out"
check "view: one frame of fnf on 1000 nodes (3996 events) in a 200x60 buffer" \
    grep -q -E -x "VIEW: 1000 3996 200 60 $NUM" "$T/out"
check "exchange: all-to-all of 100 nodes, async and sync, 9900 messages each" \
    sh -c "grep -q -E -x 'EXCHANGE: 100 9900 async $NUM $NUM' '$T/out' &&
           grep -q -E -x 'EXCHANGE: 100 9900 sync $NUM $NUM' '$T/out'"
for f in csv json svg paje chrome; do
    check "export: $f of 10^4 nodes against --summary, whole processes" \
        grep -q -E -x "EXPORT: nodes 10000 format $f seconds $NUM summary $NUM ratio $NUM" "$T/out"
done
check "export: OTF2 (a file a node) of 10^3 nodes only" \
    sh -c "grep -q -E -x 'EXPORT: nodes 1000 format otf2 seconds $NUM summary $NUM ratio $NUM' '$T/out' &&
           [ \$(grep -c 'format otf2' '$T/out') -eq 1 ]"
check "no temporary file or directory left behind" test -z "$(ls -A "$T/tmp")"
check "every other line is a comment" \
    test "$(grep -v -c -E '^(#|PERFORMANCE:|CSV:|OPTIMAL:|LP:|VIEW:|EXCHANGE:|EXPORT:)' "$T/out")" -eq 0

run "$H" bench --quick --only engine,exchange --classes
check "--only engine,exchange: those figures only" \
    sh -c "[ $rc -eq 0 ] && ! grep -q -E '^(CSV|OPTIMAL|LP|VIEW):' '$T/out' &&
           grep -q '^EXCHANGE:' '$T/out'"
check "--classes: the papers' classes, still 4 (n - 1) events" \
    grep -q -E -x "PERFORMANCE: 1000 3996 $NUM $NUM $NUM" "$T/out"

run "$H" bench --quick --only engine --equal-times
check "--equal-times: integer times, long runs of equal times, still 4 (n - 1) events" \
    sh -c "[ $rc -eq 0 ] && grep -q 'long runs of equal times' '$T/out' &&
           grep -q -E -x 'PERFORMANCE: 10000 39996 $NUM $NUM $NUM' '$T/out'"
run "$H" bench --quick --only engine --equal-times --classes
check "--equal-times with --classes: exit 2, one table at a time" \
    sh -c "[ $rc -eq 2 ] && grep -q -- '--classes and --equal-times' '$T/err'"

run "$H" bench --only engine --max-nodes 1000 --full --repeat 1
check "--full: the full engine beside the lean one" \
    sh -c "[ $rc -eq 0 ] && grep -q -E -x 'PERFORMANCE-FULL: 1000 3996 $NUM $NUM $NUM' '$T/out' &&
           [ \$(grep -c '^PERFORMANCE:' '$T/out') -eq 1 ]"

run "$H" bench --only nothing
check "--only with an unknown figure: exit 2, the figures listed" \
    sh -c "[ $rc -eq 2 ] && grep -q 'engine, csv, optimal, lp, view, exchange, export' '$T/err'"
TMPDIR=$T/none run "$H" bench --quick --only export
check "export without a temporary file: exit 1, said" \
    sh -c "[ $rc -eq 1 ] && grep -q -x 'EXPORT: nodes 1000 failed: cannot write a temporary file' '$T/out'"
run "$H" bench --max-nodes 12
check "--max-nodes out of range: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'max-nodes' '$T/err'"
run "$H" bench --frobnicate
check "an unknown option: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'unknown option' '$T/err'"
run "$H" bench --help
check "--help: exit 0, the options" sh -c "[ $rc -eq 0 ] && grep -q -- '--quick' '$T/out'"
run "$H" --help
check "hetcast --help names the bench" grep -q "hetcast bench" "$T/out"

done_testing
