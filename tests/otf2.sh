#!/bin/sh
# otf2.sh - --format otf2 --output DIR, the OTF2 archive Vampir opens, read
# back by otf2-print (TAP; skipped where otf2-print is missing): a run and a
# measured trace, their locations (a process per node, a location per track of
# its ports' intervals that never overlap),
# regions, events and times at a nanosecond a unit; DIR replaced when it
# holds an archive of hetcast, refused when it holds anything else.
. "$(dirname "$0")/tap.sh"
C=clusters/counterexample.csv
M=tests/data/counterexample-measured.csv
if ! command -v otf2-print >/dev/null 2>&1; then
    skip "otf2-print reads the archives" "otf2-print not installed (otf2-tools)"
    done_testing
fi

run "$H" run $C --format otf2 --output "$T/run"
check "run --format otf2: exit 0, says what it wrote" sh -c "[ $rc -eq 0 ] && grep -q '^wrote .*/run/traces.otf2 (1 run)' $T/out"
run otf2-print "$T/run/traces.otf2"
cp "$T/out" "$T/run.ev"
check "otf2-print reads the run" test $rc -eq 0
# the events: location, ticks, region; otf2-print's columns squeezed
tr -s ' ' <"$T/run.ev" | sed -n 's/^\(ENTER\|LEAVE\) \([0-9]*\) \([0-9]*\) Region: "\([a-z]*\)".*/\1 \2 \3 \4/p' >"$T/run.events"
check "the run: 2 transfers, 6 intervals, an ENTER and a LEAVE each" sh -c "[ \$(grep -c '^ENTER' $T/run.events) -eq 6 ] && [ \$(grep -c '^LEAVE' $T/run.events) -eq 6 ]"
check "p0's send port (location 0): sends at 0 and 1 s, each 1 s" sh -c "grep -q '^ENTER 0 0 send$' $T/run.events && grep -q '^LEAVE 0 1000000000 send$' $T/run.events && grep -q '^ENTER 0 1000000000 send$' $T/run.events && grep -q '^LEAVE 0 2000000000 send$' $T/run.events"
check "p2's track (location 2): its link from 2 s, its receive from 3 s to its hold at 6 s" sh -c "grep -q '^ENTER 2 2000000000 link$' $T/run.events && grep -q '^LEAVE 2 3000000000 link$' $T/run.events && grep -q '^ENTER 2 3000000000 receive$' $T/run.events && grep -q '^LEAVE 2 6000000000 receive$' $T/run.events"
check "the transfer and why in the ENTER's attributes" has '("from" <1>; STRING; "p0" <[0-9]*>), ("to" <2>; STRING; "p2" <[0-9]*>), ("why" <3>; STRING; "p0 can finish a send first' "$T/run.ev"
run otf2-print -G "$T/run/traces.otf2"
cp "$T/out" "$T/run.defs"
check "definitions: a process per node" sh -c "[ \$(grep -c '^LOCATION_GROUP .*Type: PROCESS' $T/run.defs) -eq 3 ] && grep -q 'Name: \"p2\" <[0-9]*>, Type: PROCESS' $T/run.defs"
check "definitions: a location a busy node's track, named for its ports: p0 sends, p1 and p2 receive" sh -c "[ \$(grep -c '^LOCATION ' $T/run.defs) -eq 3 ] && grep -q '^LOCATION  *0  Name: \"send port\" <[0-9]*>, Type: CPU_THREAD, # Events: 6, Group: \"p0\"' $T/run.defs && grep -q '^LOCATION  *2  Name: \"link in, receive port\" <[0-9]*>, Type: CPU_THREAD, # Events: 5, Group: \"p2\"' $T/run.defs"
check "definitions: the regions send, link, receive; a nanosecond a tick" sh -c "grep -q '^REGION  *0  Name: \"send\"' $T/run.defs && grep -q '^REGION  *2  Name: \"receive\"' $T/run.defs && grep -q 'Ticks per Seconds: 1000000000' $T/run.defs"
# the messages: read back with otf2-print and matched to the schedule (run --format csv): per
# transfer an MPI_SEND on the track of the sender's send port at its start and an MPI_RECV on the
# track of the receiver's receive port at its end, each naming the other's location (a rank of the communicator), tag seq
cat >"$T/msgs.py" <<'PY'
import csv, re, sys
ev, defs, sched, prefix = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3], sys.argv[4]
groups = dict(re.findall(r'^LOCATION_GROUP +(\d+) +Name: "([^"]*)"', defs, re.M))
locs = {int(l): (n, groups[g]) for l, n, g in re.findall(
    r'^LOCATION +(\d+) +Name: "([^"]*)" <\d+>, Type: CPU_THREAD, # Events: \d+, Group: "[^"]*" <(\d+)>', defs, re.M)}
assert re.search(r'^COMM +0 +Name: "transfers"', defs, re.M), "no communicator"
sends = re.findall(r'^MPI_SEND +(\d+) +(\d+) +Receiver: (\d+) .*Communicator: "transfers" <0>, Tag: (\d+), Length: 1$', ev, re.M)
recvs = re.findall(r'^MPI_RECV +(\d+) +(\d+) +Sender: (\d+) .*Communicator: "transfers" <0>, Tag: (\d+), Length: 1$', ev, re.M)
port = lambda l, p: p if p in locs[int(l)][0].split(", ") else locs[int(l)][0]
got = sorted((locs[int(l)][1], port(l, "send port"), int(t), locs[int(r)][1], int(tag)) for l, t, r, tag in sends)
got += sorted((locs[int(l)][1], port(l, "receive port"), int(t), locs[int(s)][1], int(tag)) for l, t, s, tag in recvs)
got = [g for g in got if g[0].startswith(prefix)]
rows = list(csv.DictReader(l for l in open(sched) if not l.startswith("#")))
ns = lambda x: round(float(x) * 1e9)
want = sorted((prefix + r["from"], "send port", ns(r["send_start"]), prefix + r["to"], int(r["seq"])) for r in rows)
want += sorted((prefix + r["to"], "receive port", ns(r["recv_end"]), prefix + r["from"], int(r["seq"])) for r in rows)
assert got == want, (got, want)
PY
"$H" run $C --format csv >"$T/run.csv"
check "the messages: an MPI_SEND and an MPI_RECV per transfer, matched to the schedule" python3 "$T/msgs.py" "$T/run.ev" "$T/run.defs" "$T/run.csv" ""
run otf2-print -A "$T/run/traces.otf2"
check "the archive's property HETCAST::TIME_UNIT" sh -c "grep -A1 'HETCAST::TIME_UNIT' $T/out | grep -q 'a time unit of the cluster is 1 s (unit: none (abstract units, each drawn as 1 s))'"

run "$H" compare $C --trace $M --format otf2 --output "$T/meas"
check "compare --trace --format otf2: exit 0, 4 runs" sh -c "[ $rc -eq 0 ] && grep -q '(4 runs)' $T/out"
run otf2-print -G "$T/meas/traces.otf2"
check "measured: a system tree node per run, the measured ones named so" sh -c "grep -q 'Name: \"fnf (async, measured)\"' $T/out && grep -q 'Name: \"optimal (async, measured)\"' $T/out && grep -q 'Name: \"fnf (measured): p2\" <[0-9]*>, Type: PROCESS' $T/out"
run otf2-print "$T/meas/traces.otf2"
cp "$T/out" "$T/meas.ev"
otf2-print -G "$T/meas/traces.otf2" >"$T/meas.defs"
"$H" run $C -s optimal --format csv >"$T/opt.csv"
check "measured: optimal's messages among the four runs', matched to its schedule" python3 "$T/msgs.py" "$T/meas.ev" "$T/meas.defs" "$T/opt.csv" "optimal: "
# fnf (measured)'s p2: its track is location 5
check "measured: fnf's p2 receives until 6.01 s, as the trace says" sh -c "tr -s ' ' < $T/out | grep -q '^LEAVE 5 6010000000 Region: \"receive\"'"
# every location's intervals, as otf2-print gives them: an ENTER, then its LEAVE, in time order
cat >"$T/tracks.py" <<'PY'
import re, sys
last = {}
for kind, loc, t in re.findall(r'^(ENTER|LEAVE) +(\d+) +(\d+) ', open(sys.argv[1]).read(), re.M):
    was = last.get(loc, ('LEAVE', 0))
    assert was[0] != kind and int(t) >= was[1], (loc, was, kind, t)
    last[loc] = (kind, int(t))
assert last and all(k == 'LEAVE' for k, _ in last.values()), last
PY
check "measured: no two intervals of a location cross" python3 "$T/tracks.py" "$T/meas.ev"
# a measured run whose two sends from p0 overlap: the second on a track of its own
sed 's/^fnf,2,p0,p2,1.001,/fnf,2,p0,p2,0.5,/' $M >"$T/overlap.csv"
run "$H" compare $C --trace "$T/overlap.csv" -s fnf --format otf2 --output "$T/ov"
otf2-print "$T/ov/traces.otf2" >"$T/ov.ev" 2>&1
otf2-print -G "$T/ov/traces.otf2" >"$T/ov.defs" 2>&1
check "overlapping sends: no two intervals of a location cross" python3 "$T/tracks.py" "$T/ov.ev"
check "overlapping sends: the measured p0 on 'send port' and 'send port 2'" sh -c "grep -q '^LOCATION  *3  Name: \"send port\" .*Group: \"fnf (measured): p0\"' $T/ov.defs && grep -q '^LOCATION  *4  Name: \"send port 2\" .*Group: \"fnf (measured): p0\"' $T/ov.defs"
# the one-port model: a receive port busy all along its link: link in and receive port, two tracks
"$H" run $C -m one-port --format otf2 --output "$T/one" >/dev/null 2>&1
otf2-print "$T/one/traces.otf2" >"$T/one.ev" 2>&1
check "one-port: link in and receive port on two tracks of p2, no two intervals of a location cross" sh -c "python3 $T/tracks.py $T/one.ev && otf2-print -G $T/one/traces.otf2 | grep -q '^LOCATION  *4  Name: \"receive port\" .*Group: \"p2\"'"

# DIR: replaced when it holds hetcast's archive, refused otherwise
"$H" run $C -s optimal --format otf2 --output "$T/run" >/dev/null 2>&1
check "a second archive replaces the first (optimal: p2 holds at 5 s), nothing left beside" sh -c "otf2-print $T/run/traces.otf2 | tr -s ' ' | grep -q '^LEAVE 2 5000000000 Region: \"receive\"' && ! ls -A $T | grep -q 'run\.hetcast-'"
mkdir "$T/mine" && echo keep >"$T/mine/notes.txt"
run "$H" run $C --format otf2 --output "$T/mine"
check "a directory with other files: status 2, untouched" sh -c "[ $rc -eq 2 ] && grep -q 'holds notes.txt, which is not part of an OTF2 archive of hetcast' $T/err && [ \$(ls $T/mine) = notes.txt ] && ! ls -A $T | grep -q 'mine\.hetcast-'"
printf 'x\n' >"$T/afile"
run "$H" run $C --format otf2 --output "$T/afile"
check "a file as DIR: status 2, names it" sh -c "[ $rc -eq 2 ] && grep -q 'afile: exists and is not a directory' $T/err && [ \$(cat $T/afile) = x ]"
run "$H" run $C --format otf2
check "--format otf2 without --output: status 2" sh -c "[ $rc -eq 2 ] && grep -q 'give it --output DIR' $T/err"
# the cluster's unit sets the clock: the counterexample in ms and the same in us are one trace
"$H" run tests/data/counterexample-ms.csv --format otf2 --output "$T/ms" >/dev/null 2>&1
"$H" run tests/data/counterexample-us.csv --format otf2 --output "$T/us" >/dev/null 2>&1
otf2-print "$T/ms/traces.otf2" 2>&1 | tr -s ' ' | grep '^\(ENTER\|LEAVE\)' | cut -d' ' -f1-3 >"$T/ms.events"
otf2-print "$T/us/traces.otf2" 2>&1 | tr -s ' ' | grep '^\(ENTER\|LEAVE\)' | cut -d' ' -f1-3 >"$T/us.events"
check "unit ms and unit us: the same events at the same ticks (p2 receives until 6 ms)" sh -c "[ \$(wc -l < $T/ms.events) -eq 12 ] && cmp -s $T/ms.events $T/us.events && grep -q '^LEAVE 2 6000000\$' $T/ms.events"
check "unit ms: HETCAST::TIME_UNIT says it" sh -c "otf2-print -A $T/ms/traces.otf2 | grep -A1 'HETCAST::TIME_UNIT' | grep -q 'a time unit of the cluster is 0.001 s (unit: ms)'"
# more locations than one archive object of libotf2 writes (2048; the rest by part archives
# whose event files move in): 3000 nodes, a location each, every one with its files
awk 'BEGIN { print "# latency: 1"; print "name,send,recv"
             for (i = 0; i < 3000; i++) printf "n%d,%d,%d\n", i, 1 + i % 7, 2 + i % 7 }' >"$T/big.csv"
run "$H" run "$T/big.csv" --format otf2 --output "$T/big"
otf2-print -G "$T/big/traces.otf2" >"$T/big.defs" 2>&1
nloc=$(grep -c '^LOCATION ' "$T/big.defs")
check "3000 nodes: more than 2048 locations, an event and a definition file each, nothing else" sh -c "[ $rc -eq 0 ] && [ $nloc -gt 2048 ] && [ \"\$(ls $T/big | xargs)\" = 'traces traces.def traces.otf2' ] && [ \$(ls $T/big/traces | grep -c '\.evt\$') -eq $nloc ] && [ \$(ls $T/big/traces | grep -c '\.def\$') -eq $nloc ] && [ \$(ls $T/big/traces | wc -l) -eq $((2 * nloc)) ]"
check "3000 nodes: the definition files are one file, hard-linked (no block each)" sh -c "[ \$(stat -c %h $T/big/traces/0.def) -eq $nloc ] && [ \$(stat -c %i $T/big/traces/0.def) = \$(stat -c %i $T/big/traces/$((nloc - 1)).def) ]"
# where the file system makes no links (FAT): the part archives' event files are moved in and
# the definition files copied, the same archive file for file (but the anchor file's random
# trace id)
if [ -n "${HETCAST_NOLINKS:-}" ] && [ -f "$HETCAST_NOLINKS" ]; then
    LD_PRELOAD=$HETCAST_NOLINKS run "$H" run "$T/big.csv" --format otf2 --output "$T/nolinks"
    check "3000 nodes, no links: the same files, copies" sh -c "[ $rc -eq 0 ] && (cd $T/big && find . -type f ! -name traces.otf2 | sort | xargs md5sum) >$T/big.sums && (cd $T/nolinks && find . -type f ! -name traces.otf2 | sort | xargs md5sum) >$T/nolinks.sums && [ \$(wc -l <$T/big.sums) -gt 6000 ] && cmp -s $T/big.sums $T/nolinks.sums && [ \$(stat -c %h $T/nolinks/traces/0.def) -eq 1 ] && [ -z \"\$(find $T/nolinks -type l)\" ]"
else
    skip "3000 nodes, no links: the same files" "HETCAST_NOLINKS is not set (meson test sets it)"
fi
if [ "$(ulimit -n)" = unlimited ] || [ "$(ulimit -n)" -gt $((2 * nloc + 64)) ]; then
    otf2-print "$T/big/traces.otf2" >"$T/big.ev" 2>&1
    check "3000 nodes: otf2-print reads every location's events: 2999 messages sent and received" sh -c "[ \$(grep -c '^MPI_SEND ' $T/big.ev) -eq 2999 ] && [ \$(grep -c '^MPI_RECV ' $T/big.ev) -eq 2999 ] && ! grep -q 'error' $T/big.ev"
else
    skip "3000 nodes: otf2-print reads every location's events" "otf2-print keeps a file open per location: ulimit -n $(ulimit -n)"
fi
done_testing
