#!/bin/sh
# simgrid_shared.sh - shared links (docs/models.md, "Shared links"), with
# SimGrid as the referee (TAP).  $HETCAST is the binary.  On every platform of
# tests/data (a backbone, a fat tree, a torus, a dragonfly, a Cluster zone,
# zones and bypass routes, Vivaldi coordinates, a ring, SHARED, FATPIPE and
# SPLITDUPLEX links side by side, a torus of split-duplex links), for
# schedulers of each family (fnf, binomial, the MPI trees, a Lua heuristic,
# fef on a platform graph) and from two sources, under one-port senders (the
# default) and multi-port ones, hetcast's makespan and every node's hold
# time equal SimGrid 3.32's replay of the same schedule (CM02, TCP-gamma 0,
# no cross-traffic: hetcast-simgrid --replay) to 1e-5 relative, SimGrid's own
# maxmin precision.  Then what the report says about sharing: the model
# line, the line of a model that ignores it, the exact search refused.
. tests/tap.sh
run "$H" run tests/data/simgrid-star.xml
if has "built without SimGrid" "$T/err"; then
    skip "shared links against SimGrid" "this hetcast was built without SimGrid"
    done_testing
fi

# agrees FILE ARGS...: hetcast's run with --simgrid; SimGrid's makespan and the largest
# node difference within 1e-5 of the makespan
agrees() {
    f=$1; shift
    "$H" run "$f" --summary --simgrid "$@" >"$T/out" 2>"$T/err" || return 1
    sed -n "s/^simgrid .*SimGrid's makespan \([^,]*\), hetcast's \([^ ]*\) .*largest node difference \([^ ]*\) s.*/\1 \2 \3/p" "$T/out" >"$T/nums"
    [ -s "$T/nums" ] || return 1
    awk '{ s = $1; h = $2; d = $3; r = s - h; if (r < 0) r = -r; exit !(s > 0 && r <= 1e-5 * s && d <= 1e-5 * s) }' "$T/nums"
}

for m in one-port multi-port; do
    for f in clusters routing star vivaldi links backbone; do
        x=tests/data/simgrid-$f.xml
        for s in fnf binomial knomial two-tree lua/ecef.lua; do
            check "$f, $m, $s: makespan and every hold time equal SimGrid's" agrees "$x" --size 1e6 -m "$m" -s "$s"
        done
    done
    check "links from m2 (a split-duplex host link, the slowest latency), $m, fnf" agrees tests/data/simgrid-links.xml --size 1e6 -m "$m" --source m2
    check "clusters from a dragonfly host, $m, fnf" agrees tests/data/simgrid-clusters.xml --size 1e6 -m "$m" --source df-5
    check "backbone from a torus host, $m, scatter-allgather" agrees tests/data/simgrid-backbone.xml --size 1e5 -m "$m" --source t-3 -s scatter-allgather
    check "ring (a platform graph), $m, fef" agrees tests/data/simgrid-ring.xml --size 1e6 -m "$m" -s fef
    check "links, 1-byte messages (latency bound), $m" agrees tests/data/simgrid-links.xml -m "$m"
done

B=tests/data/simgrid-backbone.xml
run "$H" run "$B" --size 1e6 --summary
check "a platform's default: one-port senders on shared links, named on the model line" has "^model: one-port on shared links   scheduler: fnf$" "$T/out"
one=$(sed -n 's/^makespan *//p' "$T/out")
# fnf decides by each route's cost alone: where sharing moved a transfer, its
# reason says the times in it are the plan's; where it did not, it is as it was.
run "$H" run "$B" --size 1e6
check "a transfer that sharing slowed: its reason's times are the plan's, and it says so" has "^  17  node-1     t-1        \[0.03244, 0.06874361039) .* planned with each route's cost alone: node-1 can finish a send first (free at t=0.03244, s=0, overhead done at t=0.03244, port busy until t=0.04262); t-1 is the fastest" "$T/out"
check "a transfer sharing left alone: its reason as it was" has "^  16  node-0     t-0        \[0.03244, 0.0406) .* 0.0406   node-0 can finish a send first (free at t=0.03244" "$T/out"
check "the plan's words only where sharing moved a transfer: 6 of 23" test "$(grep -c "planned with each route's cost alone" "$T/out")" -eq 6
run "$H" compare "$B" --size 1e6 -s fnf -s binomial
check "compare: the late node's transfer took longer than its route alone, and the difference says so" has "under fnf, node-7 -> t-7 starts at 0.03244: node-7's send port is held until then by node-7 -> node-15 \[0.02433, 0.03244), and it takes 0.04018, 0.01022 on its route alone: it shares links$" "$T/out"
run "$H" compare "$B" --size 1e6 -m async -s fnf -s binomial
check "compare under async (private routes): no word of sharing in the difference" sh -c "grep -q '^first difference' $T/out && ! grep -q 'it shares links' $T/out"
run "$H" run "$B" --size 1e6 --summary -m multi-port
check "-m multi-port: every send at once, named" has "^model: multi-port on shared links   scheduler: fnf$" "$T/out"
multi=$(sed -n 's/^makespan *//p' "$T/out")
check "the backbone shared by 23 sends at once: multi-port is slower than one-port here" awk -v a="$multi" -v b="$one" 'BEGIN { exit !(a > b) }'
run "$H" run "$B" --size 1e6 --summary -m async
check "async on a platform: one line names the links its schedule shares, and how many routes at once" has "^shared links  6 links of the platform carry several of the schedule's routes at once: bb_link_0_UP (23 routes at once), bb_backbone (23 routes at once), wan (8 routes at once), " "$T/out"
check "async on a platform: its own times, each route a private pipe" has "^makespan      0.01022$" "$T/out"

run "$H" run "$B" --size 1e6 --summary -m async --simgrid
check "--simgrid under async: SimGrid replays every send at once and shares the links (18 times hetcast's private-pipe makespan)" has "^simgrid       fnf: SimGrid's makespan 0.1842919486, hetcast's 0.01022 (relative difference 0.945); .*multi-port senders$" "$T/out"
run "$H" compare tests/data/simgrid-star.xml --size 1e6 --simgrid
check "compare on a star (no two concurrent routes share a link): optimal runs, and SimGrid agrees with its 96.148 ms" has "^simgrid       optimal: SimGrid's makespan 0.096148, hetcast's 0.096148 (relative difference 0)" "$T/out"

run "$H" run tests/data/simgrid-clusters.xml -s optimal
check "optimal on shared links: refused with status 2" test "$rc" -eq 2
check "optimal on shared links: the sentence names a shared link and two routes" has "^hetcast run: tests/data/simgrid-clusters.xml: optimal searches the schedules by each route's cost alone, but on this platform transfers share links (link bb_backbone carries bb-0 -> bb-1 and bb-2 -> df-0, which a schedule may run at once), so nothing it found would be proven: not run" "$T/err"
run "$H" run tests/data/simgrid-clusters.xml -s optimal -m async --summary
check "optimal under async (private routes) still runs" test "$rc" -eq 0
run "$H" run tests/data/simgrid-ring.xml --size 1000 -s optimal --format json --summary
check "a ring's direct links (one route each): route costs exact, optimal runs" test "$rc" -eq 0
run "$H" compare "$B" --size 1e6 --simgrid
check "compare on shared links: fnf alone (no optimum to show), and SimGrid's line" sh -c "[ $rc -eq 0 ] && [ \$(grep -c '^simgrid ' $T/out) -eq 1 ]"
run "$H" run clusters/counterexample.csv --simgrid
check "--simgrid on a CSV cluster: refused with status 2" sh -c "[ $rc -eq 2 ] && grep -q -- '--simgrid replays a schedule in SimGrid: it needs a SimGrid platform' $T/err"
run "$H" run tests/data/simgrid-ring.xml -s binomial --simgrid
check "--simgrid on a pipelined run: refused (one message only)" sh -c "[ $rc -eq 2 ] && grep -q -- '--simgrid replays a broadcast of one message; binomial sends 20 slices' $T/err"

done_testing
