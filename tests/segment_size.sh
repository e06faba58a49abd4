#!/bin/sh
# segment_size.sh - hetcast experiment segments on the real binary (TAP): the
# best number of segments of a message on a node table with size segments,
# on a cluster worked by hand, the cuts it tries, the run it names to repeat
# the best, and the refusals with status 2.  $HETCAST is the binary.
. tests/tap.sh

# Three nodes, s = r = 1, no latency but 0.012 a byte (async).  A segment of
# m = ceil(1000 / K) bytes takes 1 + 0.012 m + 1 from a send to its hold.
#  chain a -> b -> c: a sends segment k (k = 0 .. K-1) at k; b holds it at
#  k + 2 + 0.012 m (its receives never queue: one arrives every 1) and
#  passes it on at once (b's sends, 1 each, keep pace); c holds it 2 + 0.012 m
#  later: the makespan is K + 3 + 0.024 m.  K = 4 (m = 250): 13; K = 5
#  (m = 200): 12.8; K = 6 (m = 167): 13.008; K = 3 (m = 334): 14.016; K = 1:
#  28.  The best is K = 5.
#  binomial: a sends each segment to c, then to b, at 0, 1, 2 ...: the last,
#  to b, at 2K - 1, held 2 + 0.012 m later: 2K + 1 + 0.012 m.  K = 1: 15,
#  K = 2 (m = 500): 11, K = 3: 11.008.  The best is K = 2.
cat >"$T/seg3.csv" <<'CSV'
# unit: us
# segment: 0..1000 latency=0 per-byte=0.012
name,send,recv
a,1,1
b,1,1
c,1,1
CSV
run "$H" experiment segments "$T/seg3.csv" --size 1000 -s chain -s binomial --max-segments 8
check "exit 0, every cut K = 1 to 8 tried" sh -c "[ $rc -eq 0 ] && [ ! -s $T/err ] && grep -q 'K = 1 to 8 segments of ceil(1000 / K) bytes (the 8 values' $T/out"
check "the chain's rows as worked by hand (K = 1, 4, 5, 6)" sh -c "grep -Eq '^ +1 +1000 +28 +15\$' $T/out && grep -Eq '^ +4 +250 +13 +12\$' $T/out && grep -Eq '^ +5 +200 +12.8 +13.4\$' $T/out && grep -Eq '^ +6 +167 +13.008 ' $T/out"
check "the chain's best: K = 5, 12.8, its neighbours 13 and 13.008" has "^best chain  *K = 5 (segments of 200 bytes): makespan 12.8, the least of 8 cuts; K = 4: 13; K = 6: 13.008\$" "$T/out"
check "the binomial's best: K = 2, 11" has "^best binomial  *K = 2 (segments of 500 bytes): makespan 11, the least of 8 cuts; K = 1: 15; K = 3: 11.008\$" "$T/out"
check "the run that repeats it" has "^     repeat: hetcast run $T/seg3.csv -m async -s chain --slices 5 --size 200\$" "$T/out"
run "$H" run "$T/seg3.csv" -m async -s chain --slices 5 --size 200 --summary
check "... and that run's makespan is the best's" sh -c "[ $rc -eq 0 ] && grep -q '^makespan *12.8\$' $T/out"
check "the cluster line keeps the file's latency" sh -c "'$H' experiment segments '$T/seg3.csv' --size 1000 -s chain --max-segments 2 | grep -q 'latency 0, times in us'"

# The cuts: 10 bytes in K = 6 segments of 2 bytes leaves the sixth empty (5
# segments of 2 do it), so K = 6 to 9 are left out and K = 10 (1 byte) is in.
run "$H" experiment segments "$T/seg3.csv" --size 10 -s chain --format csv
check "CSV: the cuts K = 1 2 3 4 5 10, the best marked once" sh -c "[ $rc -eq 0 ] && [ \"\$(grep '^chain,' $T/out | cut -d, -f2 | tr '\n' ' ')\" = '1 2 3 4 5 10 ' ] && [ \$(grep -c ',1\$' $T/out) -eq 1 ] && grep -q '^scheduler,segments,segment_bytes,makespan,best\$' $T/out && grep -q '^# study: segments\$' $T/out"

# scatter-rdb among the defaults on a power of two only.
cp "$T/seg3.csv" "$T/seg4.csv"
printf 'd,2,1\n' >>"$T/seg4.csv"
cp "$T/seg4.csv" "$T/seg5.csv"
printf 'e,1,3\n' >>"$T/seg5.csv"
run "$H" experiment segments "$T/seg4.csv" --size 64 --max-segments 4
check "4 nodes: the default broadcasts, scatter-rdb among them" sh -c "[ $rc -eq 0 ] && grep -Eq '^ +K +bytes +chain +binomial +knomial +scatter-allgather +scatter-rdb +two-tree\$' $T/out"
run "$H" experiment segments "$T/seg5.csv" --size 64 --max-segments 4
check "5 nodes: no scatter-rdb row (it would be scatter-allgather's)" sh -c "[ $rc -eq 0 ] && grep -Eq '^ +K +bytes +chain +binomial +knomial +scatter-allgather +two-tree\$' $T/out"
run "$H" experiment segments "$T/seg5.csv" --size 64 --max-segments 4 -s scatter-rdb
check "5 nodes, scatter-rdb asked: the table says it is the ring's" sh -c "[ $rc -eq 0 ] && grep -q '^scatter-rdb on 5 ranks, no power of two: the ring allgather, as MPICH falls back' $T/out"

# Refusals.
run "$H" experiment segments "$T/seg4.csv" -s chain
check "no --size: status 2" sh -c "[ $rc -eq 2 ] && grep -q -- '--size BYTES is required' $T/err && [ ! -s $T/out ]"
run "$H" experiment segments clusters/counterexample.csv --size 1000
check "a node table without # segment: lines: status 2, why" sh -c "[ $rc -eq 2 ] && grep -q 'clusters/counterexample.csv has no # segment: lines: the cost of a segment shorter than the message is unknown' $T/err"
run "$H" experiment segments clusters/calibrated-vm6.csv --size 1000
check "a latency matrix: status 2" sh -c "[ $rc -eq 2 ] && grep -q 'calibrated-vm6.csv is no node table' $T/err"
run "$H" experiment segments "$T/seg4.csv" --size 1001
check "a size no segment covers: status 2, what they cover" sh -c "[ $rc -eq 2 ] && grep -q -- '--size 1001: no size segment of $T/seg4.csv covers it (they cover 0 to 1000 bytes, from line 2' $T/err && [ ! -s $T/out ]"
sed 's/^# segment: 0..1000/# segment: 100..1000/' "$T/seg4.csv" >"$T/short.csv"
run "$H" experiment segments "$T/short.csv" --size 1000 --max-segments 20
check "a segment size no segment covers: status 2, the K and the limit to give" sh -c "[ $rc -eq 2 ] && grep -q -- '--size 1000 in 11 segments: segments of 91 bytes, which no size segment of $T/short.csv covers (they cover 100 to 1000 bytes, from line 2); --max-segments 10 stops before it' $T/err && [ ! -s $T/out ]"
run "$H" experiment segments "$T/seg4.csv" --size 1000 -s fnf
check "a scheduler that does not cut the message: status 2" sh -c "[ $rc -eq 2 ] && grep -q -- '-s fnf: not a segmented broadcast' $T/err"
run "$H" experiment segments "$T/seg4.csv" --size 1000 --max-segments 0
check "--max-segments 0: status 2" sh -c "[ $rc -eq 2 ] && grep -q -- '--max-segments' $T/err"
run "$H" experiment segments "$T/seg4.csv" --size 1000 -m one-port -s chain --max-segments 3
check "-m one-port: its makespans" sh -c "[ $rc -eq 0 ] && grep -q '^model: one-port' $T/out"

done_testing
