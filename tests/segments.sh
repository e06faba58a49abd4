#!/bin/sh
# segments.sh - size segments of a node table (`# segment:`, docs/formats.md),
# as hetcast-mpi calibrate --sizes writes them, on the real binary (TAP):
# `run --size` takes the latency of the segment covering the size (the
# transfer's times follow L + size x G), a size no segment covers is refused,
# --save-cluster keeps them, a malformed segment is refused with its file and
# line (status 2).
. tests/tap.sh
cat >"$T/seg.csv" <<'CSV'
# unit: us
# latency: 0.5
# segment: 0..4096 latency=0.5 per-byte=0.001
# segment: 4097..1048576 latency=3 per-byte=0.0002
name,send,recv
a,1,2
b,1,2
CSV
# one transfer a -> b: it ends at s + L + size x G + r
for case in "64 3.564" "4096 7.596" "4097 6.8194" "1048576 215.7152"; do
    set -- $case
    run "$H" run "$T/seg.csv" --size "$1" --format csv
    check "--size $1: its segment's latency (a -> b ends at $2)" \
        sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && grep -v '^#' '$T/out' | tail -n 1 | grep -q ',$2\$'"
done
run "$H" run "$T/seg.csv" --format csv
check "no --size: # latency: as written (ends at 3.5)" sh -c "grep -v '^#' '$T/out' | tail -n 1 | grep -q ',3.5\$'"
run "$H" run "$T/seg.csv" --size 1048577
check "--size past every segment: status 2, says what they cover" \
    sh -c "[ $rc -eq 2 ] && grep -q '^hetcast: --size 1048577: no size segment of $T/seg.csv covers it (they cover 0 to 1048576 bytes, from line 3' '$T/err'"
run "$H" run "$T/seg.csv" --save-cluster "$T/seg2.csv"
check "--save-cluster keeps the segments" \
    sh -c "[ $rc -eq 0 ] && [ \$(grep -c '^# segment: ' '$T/seg2.csv') -eq 2 ] && grep -q '^# segment: 4097..1048576 latency=3 per-byte=0.0002$' '$T/seg2.csv'"
sed 's/^# segment: 4097..1048576 latency=3 per-byte=0.0002$/# segment: 4000..1048576 latency=3 per-byte=0.0002/' "$T/seg.csv" >"$T/overlap.csv"
run "$H" run "$T/overlap.csv"
check "overlapping segments: status 2, the file and the line" \
    sh -c "[ $rc -eq 2 ] && grep -q '^hetcast: $T/overlap.csv:4: segment: 4000..1048576 does not start after the segment of line 3 (0..4096)' '$T/err'"
sed 's/^# segment: 0..4096 latency=0.5 per-byte=0.001$/# segment: 0..4096 latency=0.5 per_byte=0.001/' "$T/seg.csv" >"$T/key.csv"
run "$H" run "$T/key.csv"
check "a misspelt key: status 2, the file and the line" \
    sh -c "[ $rc -eq 2 ] && grep -q '^hetcast: $T/key.csv:3: segment: \"per_byte\" is not latency=L or per-byte=G' '$T/err'"
done_testing
