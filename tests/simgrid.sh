#!/bin/sh
# simgrid.sh - SimGrid platforms in (docs/formats.md, "SimGrid platforms"),
# on the real binary (TAP).  $HETCAST is the binary.  A build without
# SimGrid must refuse a .xml file with a message naming it; a build with it
# reads tests/data/simgrid-star.xml (every route three links: a latency
# matrix) and tests/data/simgrid-ring.xml (direct links in a ring, the
# others two hops: a platform graph), every routing and cluster kind
# (simgrid-routing.xml, simgrid-clusters.xml, simgrid-vivaldi.xml) with
# SimGrid's own cost of one message, refuses wifi (simgrid-wifi.xml), turns
# SimGrid's refusals and crashes into one message, and refuses zones nested
# too deep before SimGrid reads them.
. tests/tap.sh
# near GOT WANT: equal to 12 significant digits
near() { awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= 1e-12 * (w < 0 ? -w : w) + 1e-300) }'; }
STAR=tests/data/simgrid-star.xml
RING=tests/data/simgrid-ring.xml

run "$H" run "$STAR"
if has "built without SimGrid" "$T/err"; then
    check "without SimGrid: a .xml is refused with status 2" test "$rc" -eq 2
    check "without SimGrid: the message names the file" has "^hetcast run: $STAR: a SimGrid platform, but this hetcast was built without SimGrid" "$T/err"
    done_testing
fi

check "star: loads and schedules (status 0)" test "$rc" -eq 0
check "star: a latency matrix of 4 nodes" has "^cluster: simgrid-star (latency matrix, 4 nodes, source gpu, times in s)" "$T/out"
check "star: nothing from SimGrid on stderr" test ! -s "$T/err"

run "$H" run "$STAR" --save-cluster "$T/star.csv"
check "star: hosts in natural order (node-2 before node-10)" has "^,gpu,node-1,node-2,node-10$" "$T/star.csv"
d=$(awk -F, '$1 == "gpu" { print $3 }' "$T/star.csv")
check "star: gpu -> node-1 = 111 us latency + 1 byte / 12.5 MB/s" near "$d" 0.00011108
run "$H" run "$STAR" --size 1e6 --save-cluster "$T/star6.csv"
d=$(awk -F, '$1 == "gpu" { print $3 }' "$T/star6.csv")
check "star --size 1e6: gpu -> node-1 = 111 us + 1e6 / 12.5e6 s" near "$d" 0.080111
d=$(awk -F, '$1 == "node-1" { print $5 }' "$T/star6.csv")
check "star --size 1e6: node-1 -> node-10 = 16 us + 1e6 / 125e6 s" near "$d" 0.008016

run "$H" run "$STAR" -m one-port -s optimal --format json --summary
m=$(sed -n 's/.*"makespan": \([^,]*\),.*/\1/p' "$T/out")
check "star one-port optimal: 106.08 + 16.008 + 26.008 us (relayed by node-10)" near "$m" 0.000148096

run "$H" run "$RING" --size 1000 --save-cluster "$T/ring.csv"
check "ring: loads and schedules (status 0)" test "$rc" -eq 0
check "ring: a platform graph of 5 nodes" has "^cluster: simgrid-ring (platform graph, 5 nodes, source r0, times in s)" "$T/out"
check "ring: the 5 direct links, both ways (10 edges)" test "$(grep -c '^r[0-9],r[0-9],' "$T/ring.csv")" -eq 10
check "ring: no edge for a two-hop route" sh -c "! grep -q '^r0,r2,' $T/ring.csv"
t=$(awk -F, '$1 == "r0" && $2 == "r4" { print $3 }' "$T/ring.csv")
check "ring: r0 -> r4 = 1 ms + 1000 B / 4 MB/s" near "$t" 0.00125
run "$H" run "$RING" --size 1000 -s optimal --format json --summary
m=$(sed -n 's/.*"makespan": \([^,]*\),.*/\1/p' "$T/out")
check "ring: one-port optimum 6.25 ms" near "$m" 0.00625
run "$H" run "$RING" -s grow-tree --summary
check "ring: a pipelined tree runs on it" sh -c "[ $rc -eq 0 ] && grep -q '^LP optimum' $T/out"

# What SimGrid refuses, and how it crashes, become one message each.
printf '<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n<platform version="4.1">\n<zone id="a" routing="Full">\n<host id="x" speed="1f"/>\n<hots id="z"/>\n</zone></platform>\n' >"$T/bad.xml"
run "$H" run "$T/bad.xml"
check "bad XML: status 2" test "$rc" -eq 2
check "bad XML: SimGrid's parse error with the file and line" has "^hetcast run: $T/bad.xml: SimGrid refused it: Parse error at $T/bad.xml:6: " "$T/err"
check "bad XML: one line, no backtrace" test "$(wc -l <"$T/err")" -eq 1

printf '<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n<platform version="4.1">\n<zone id="a" routing="Full">\n<host id="x" speed="1f"/>\n<host id="y" speed="1f"/>\n</zone></platform>\n' >"$T/noroute.xml"
(cd "$T" && "$H" run noroute.xml >out 2>err; echo $? >rc)
check "no route: status 2" test "$(cat "$T/rc")" -eq 2
check "no route: the message names both hosts and asks for routes" has "^hetcast run: noroute.xml: no route from x to y: SimGrid cannot send a message between them (a platform must route every pair of hosts)$" "$T/err"
check "no route: no core file left behind" sh -c "! ls $T | grep -q core"

# Every kind of platform SimGrid simulates, each cost stated from the
# platform's numbers (a 1000-byte message: latency sum + 1000 / the slowest
# link's bandwidth), and equal to the time SimGrid 3.32 itself gives one
# message (CM02, network/TCP-gamma:0, network/crosstraffic:0).
# cost FILE.csv FROM TO: the saved matrix's time FROM -> TO
cost() { awk -F, -v a="$2" -v b="$3" '/^#/ { next } !h { for (i = 2; i <= NF; i++) col[$i] = i; h = 1; next } $1 == a { print $col[b] }' "$1"; }
ROUTING=tests/data/simgrid-routing.xml
run "$H" run "$ROUTING" --size 1000 --save-cluster "$T/routing.csv"
check "zones in Dijkstra, Full and Floyd zones, zone routes, bypass routes: loads (status 0)" test "$rc" -eq 0
check "routing: a latency matrix of 5 hosts" has "^cluster: simgrid-routing (latency matrix, 5 nodes, source f1, times in s)" "$T/out"
check "Full: f1 -> f2 = 10 + 20 us + 1000 B / 50 MBps = 50 us" near "$(cost "$T/routing.csv" f1 f2)" 0.00005
check "Floyd with a bypass route: g1 -> g2 = lg1 + lg2 = 10 us + 1000 / 200 MBps (not the 3 us detour)" near "$(cost "$T/routing.csv" g1 g2)" 0.000015
check "bypass zone route: f1 -> g1 = 10 + 100 + 5 us + 1000 / 100 MBps = 125 us" near "$(cost "$T/routing.csv" f1 g1)" 0.000125
check "zone route back (the bypass is one way): g1 -> f1 = 5 + 5000 + 10 us + 1000 / 1 MBps" near "$(cost "$T/routing.csv" g1 f1)" 0.006015
check "Dijkstra across two zone routes: f1 -> h1 = 10 + 5000 + 1000 us + 1000 / 1 MBps" near "$(cost "$T/routing.csv" f1 h1)" 0.00701

CLUSTERS=tests/data/simgrid-clusters.xml
run "$H" run "$CLUSTERS" --size 1000 --save-cluster "$T/clusters.csv"
check "cluster tags (backbone, fat tree, torus, dragonfly, Cluster zone): loads (status 0)" test "$rc" -eq 0
check "clusters: 31 hosts" has "^cluster: simgrid-clusters (latency matrix, 31 nodes, source bb-0, times in s)" "$T/out"
check "backbone: bb-0 -> bb-2 = 50 + 10 + 50 us + 1000 / 125 MBps = 118 us" near "$(cost "$T/clusters.csv" bb-0 bb-2)" 0.000118
check "fat tree: ft-0 -> ft-1 = 2 links of 20 us + 1000 / 100 MBps = 50 us" near "$(cost "$T/clusters.csv" ft-0 ft-1)" 0.00005
check "fat tree: ft-0 -> ft-3 = 4 links (through the root) = 90 us" near "$(cost "$T/clusters.csv" ft-0 ft-3)" 0.00009
check "torus 3x2: t-0 -> t-1 = 1 link of 5 us + 1000 / 200 MBps = 10 us" near "$(cost "$T/clusters.csv" t-0 t-1)" 0.00001
check "torus 3x2: t-0 -> t-5 = 2 links = 15 us" near "$(cost "$T/clusters.csv" t-0 t-5)" 0.000015
check "dragonfly: df-0 -> df-1 (one router) = 2 links of 30 us + 1000 / 250 MBps = 64 us" near "$(cost "$T/clusters.csv" df-0 df-1)" 0.000064
check "dragonfly: df-0 -> df-15 (another group) = 6 links = 184 us" near "$(cost "$T/clusters.csv" df-0 df-15)" 0.000184
check "Cluster zone: rc-2 -> rc-1 = 100 + 500 + 200 us (down link) + 1000 / 62.5 MBps = 816 us" near "$(cost "$T/clusters.csv" rc-2 rc-1)" 0.000816
check "two clusters joined: bb-0 -> ft-3 = 50 + 10 + 1000 + 80 us + 1000 / 10 MBps = 1240 us" near "$(cost "$T/clusters.csv" bb-0 ft-3)" 0.00124

VIVALDI=tests/data/simgrid-vivaldi.xml
run "$H" run "$VIVALDI" --size 1000 --save-cluster "$T/vivaldi.csv"
check "Vivaldi coordinates: loads (status 0)" test "$rc" -eq 0
check "Vivaldi: p0 -> p1 = |(30, 40)| = 50 ms + 1000 / 1 GBps" near "$(cost "$T/vivaldi.csv" p0 p1)" 0.050001
check "Vivaldi: p0 -> p2 = height 7 ms + 1000 / 1 MBps (p2's way in)" near "$(cost "$T/vivaldi.csv" p0 p2)" 0.008
check "Vivaldi: p2 -> p0 = 7 ms + 1000 / 2 MBps (p2's way out)" near "$(cost "$T/vivaldi.csv" p2 p0)" 0.0075

WIFI=tests/data/simgrid-wifi.xml
run "$H" run "$WIFI"
check "wifi zone: refused with status 2" test "$rc" -eq 2
check "wifi zone: the file, the zone's line and why" has "^hetcast run: $WIFI:8: zone \"cell\" is wifi (routing=\"Wifi\"): its stations share one radio medium at rates SimGrid sets per station, so a message's time depends on who else transmits and is no point-to-point cost: not read$" "$T/err"
sed -e 's/routing="Wifi"/routing="Cluster"/' -e '/access_point/d' "$WIFI" >"$T/wifilink.xml"
run "$H" run "$T/wifilink.xml"
check "wifi link (sharing_policy WIFI): refused, its line named" has "^hetcast run: $T/wifilink.xml:16: link \"air\" is wifi (sharing_policy=\"WIFI\")" "$T/err"
printf '<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n<platform version="4.1">\n<config id="c"><prop id="tracing" value="yes"/><prop id="tracing/filename" value="t.trace"/></config>\n<zone id="a" routing="Full">\n<host id="x" speed="1f"/>\n<host id="y" speed="1f"/>\n<link id="l" bandwidth="1GBps" latency="1us"/>\n<route src="x" dst="y"><link_ctn id="l"/></route>\n</zone></platform>\n' >"$T/traced.xml"
(cd "$T" && "$H" run traced.xml >out 2>err; echo $? >rc)
check "a platform that turns SimGrid's tracing on: read, and no trace file written" sh -c "[ \$(cat $T/rc) -eq 0 ] && [ ! -e $T/t.trace ]"

# Zones nested deeper than 100 are refused before SimGrid reads the file (its
# parser corrupted its memory at 500: "SimGrid refused it: malloc(): ...").
# nested DEPTH [EXTRA]: a platform of DEPTH zones, one in the other, EXTRA
# written inside the deepest one.
nested() {
    printf '<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n<platform version="4.1">\n'
    i=0; while [ $i -lt $1 ]; do printf '<zone id="z%d" routing="Full">\n' $i; i=$((i + 1)); done
    printf '%s\n' "${2:-}"
    printf '<host id="x" speed="1f"/>\n<host id="y" speed="1f"/>\n<link id="l" bandwidth="1GBps" latency="1us"/>\n'
    printf '<route src="x" dst="y"><link_ctn id="l"/></route>\n'
    i=0; while [ $i -lt $1 ]; do printf '</zone>\n'; i=$((i + 1)); done
    printf '</platform>\n'
}
nested 500 >"$T/deep.xml"
run "$H" run "$T/deep.xml"
check "500 nested zones: status 2" test "$rc" -eq 2
check "500 nested zones: one message, the file, the line of the 101st zone, the limit" \
    sh -c "[ \$(wc -l <'$T/err') -eq 1 ] && grep -q -x 'hetcast run: $T/deep.xml:104: zones nested more than 100 deep: not read (SimGrid.s parser fails on deep nesting)' '$T/err'"
nested 100 '<prop id="p" value="x/> > &lt;zone>"/><!-- <zone id="c"> <zone id="d"> -->' >"$T/deep100.xml"
run "$H" run "$T/deep100.xml"
check "100 nested zones (the limit; zones in a comment do not count, nor '>' in a value): read" \
    sh -c "[ $rc -eq 0 ] && grep -q '^cluster: deep100 (latency matrix, 2 nodes, source x, times in s)' '$T/out'"

run "$H" run "$T/none.xml"
check "missing file: cannot open" sh -c "[ $rc -eq 2 ] && grep -q 'none.xml: cannot open: No such file' $T/err"
run "$H" run "$STAR" --size -1
check "--size -1 is refused" sh -c "[ $rc -eq 2 ] && grep -q -- '--size: \"-1\" is not a number >= 0' $T/err"
run "$H" run clusters/counterexample.csv --size 10
check "--size on a CSV cluster: a warning, and the run" sh -c "[ $rc -eq 0 ] && grep -q -- '--size is for SimGrid platforms' $T/err && grep -q '^makespan *6' $T/out"

# ---- at scale: 1500 hosts in ten clusters joined by a backbone (tests/data/gen-grid.sh) ----
sh tests/data/gen-grid.sh 10 150 >"$T/grid.xml"
# at most 30 s of CPU for hetcast and for its helper (each loads it in about 2 s)
run sh -c "ulimit -t 30; exec \"\$0\" run '$T/grid.xml' --size 1000 --save-cluster '$T/grid.csv' --summary" "$H"
check "1500 hosts, 10 clusters: load and schedule within 30 s of CPU" \
    sh -c "[ $rc -eq 0 ] && grep -q '^cluster: grid (latency matrix, 1500 nodes, source c0-0, times in s)' '$T/out'"
check "1500 hosts: the model line" has "^model: one-port on shared links   scheduler: fnf$" "$T/out"
check "grid: c0-0 -> c1-0 = 50 + 10 + 2000 + 5000 + 2000 + 10 + 50 us + 1000 B / 125 MBps" near "$(cost "$T/grid.csv" c0-0 c1-0)" 0.009128
check "grid: c9-149 -> c3-7 (the last host to another cluster's)" near "$(cost "$T/grid.csv" c9-149 c3-7)" 0.009128
check "grid: c3-1 -> c3-7 = 50 + 10 + 50 us + 1000 B / 125 MBps (inside a cluster)" near "$(cost "$T/grid.csv" c3-1 c3-7)" 0.000118
check "grid: no progress line when stderr is no terminal" sh -c "[ ! -s '$T/err' ]"

# ---- the helper run by hand: its usage, never SimGrid's backtrace ----
SG=$(dirname "$H")/hetcast-simgrid
if [ -x "$SG" ]; then
    run "$SG" --help
    check "hetcast-simgrid --help: its usage, status 0" sh -c "[ $rc -eq 0 ] && grep -q '^usage: hetcast-simgrid PLATFORM.xml' $T/out"
    run "$SG" "$T/none.xml"
    check "hetcast-simgrid on a missing file: one line, status 2" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <$T/err) -eq 1 ] && grep -q 'hetcast-simgrid: cannot read .*none.xml: No such file' $T/err"
    run "$SG" --replay "$STAR" two-port 1
    check "hetcast-simgrid --replay with no such model: its usage, status 2" sh -c "[ $rc -eq 2 ] && grep -q '^usage:' $T/err && ! grep -q backtrace $T/err"
fi

done_testing
