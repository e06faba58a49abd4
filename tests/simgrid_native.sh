#!/bin/sh
# simgrid_native.sh - SimGrid <cluster> platforms read without SimGrid
# (model/cluster_simgrid_native.c, a fast path; docs/formats.md, "SimGrid
# platforms"), on the real binary (TAP).  $HETCAST is the binary.  For each
# platform generated below (flat with and without backbone, each sharing
# policy, limiters, loopbacks, radical lists, units, a wrapping zone, fat
# trees of one to three levels, 1 to 300 hosts), every output that depends on
# the routes - json and csv per transfer under several schedulers and port
# models, the text report (under sync: the links named), the cluster's CSV, a
# comparison - must be the same bytes, messages and status with the fast paths
# on and with HETCAST_NO_FASTPATH=1 (the helper hetcast-simgrid, SimGrid 3.32).
# A copy of hetcast beside a helper that always fails shows which files the
# native reader took, and that the others (torus, dragonfly, anything it does
# not follow exactly, SimGrid's refusals) still go to SimGrid.  So are the
# files of tests/data/simgrid-fuzzed/.  Skipped in a build without SimGrid.
. tests/tap.sh

run "$H" run tests/data/simgrid-star.xml
if has "built without SimGrid" "$T/err"; then
    skip "native <cluster> reader" "built without SimGrid"
    done_testing
fi

# The platforms, a line each: NAME|RADICAL|ATTRIBUTES|ZONE ROUTING (empty: no zone)|NATIVE (yes/no)
cat >"$T/table" <<'TABLE'
one|0|bw="125MBps" lat="50us"||yes
two|0-1|bw="125MBps" lat="50us"||yes
shared|0-29|bw="125MBps" lat="50us" sharing_policy="SHARED"||yes
split|0-12|bw="125MBps" lat="50us" sharing_policy="SPLITDUPLEX"||yes
full|0-29|bw="125MBps" lat="50us" sharing_policy="FULLDUPLEX"||yes
fatpipe|0-29|bw="125MBps" lat="50us" sharing_policy="FATPIPE"||yes
bb|0-99|bw="125MBps" lat="50us" bb_bw="2.25GBps" bb_lat="500us"||yes
bbfat|0-40|bw="125MBps" lat="50us" bb_bw="2.25GBps" bb_lat="500us" bb_sharing_policy="FATPIPE"||yes
bbslow|0-40|bw="1Gbps" lat="10us" bb_bw="200MBps" bb_lat="1ms" sharing_policy="SHARED"||yes
bbbw|0-40|bw="1Gbps" lat="10us" bb_bw="10Gbps"||yes
bbzero|0-10|bw="1Gbps" lat="10us" bb_bw="0Bps"||yes
limiter|0-40|bw="1Gbps" lat="10us" bb_bw="10Gbps" bb_lat="1ms" limiter_link="50MBps"||yes
limfat|0-40|bw="1Gbps" lat="10us" limiter_link="50MBps" sharing_policy="FATPIPE"||yes
loopback|0-20|bw="1Gbps" lat="10us" loopback_bw="10GBps" loopback_lat="1ns"||yes
radlist|0-9,20-24,100,7000-7004|bw="125MBps" lat="50us" bb_bw="1GBps" bb_lat="100us"||yes
units|0-30|bw="1.5GiBps" lat="0.1ms" bb_bw="12.5e3kbps" bb_lat="2e-6s" core="4"||yes
unitless|0-5|bw="125000000" lat="0" bb_bw="1e9" bb_lat="0.0001"||yes
zone|0-50|bw="125MBps" lat="50us" bb_bw="2.25GBps" bb_lat="500us"|Full|yes
zonefloyd|3-23|bw="125MBps" lat="50us" sharing_policy="SHARED"|Floyd|yes
big|0-299|bw="125MBps" lat="50us" bb_bw="2.25GBps" bb_lat="500us"||yes
ft16|0-15|bw="125MBps" lat="50us" topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2"||yes
ft16shared|0-15|bw="125MBps" lat="50us" topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2" sharing_policy="SHARED"||yes
ft16fat|0-15|bw="125MBps" lat="50us" topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2" sharing_policy="FATPIPE"||yes
ft16lim|0-15|bw="125MBps" lat="50us" topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2" limiter_link="60MBps"||yes
ft16more|0-19|bw="125MBps" lat="50us" topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2"||yes
ft3|0-63|bw="1Gbps" lat="1us" topology="FAT_TREE" topo_parameters="3;4,4,4;1,4,2;1,1,1"||yes
ft3par|0-63|bw="1Gbps" lat="1us" topology="FAT_TREE" topo_parameters="3;4,4,4;1,2,2;1,2,1"||yes
ft3down|0-7|bw="125MBps" lat="50us" topology="FAT_TREE" topo_parameters="3;2,2,2;1,1,2;1,2,1"||yes
ft256|0-255|bw="1Gbps" lat="1us" topology="FAT_TREE" topo_parameters="2;16,16;1,16;1,1"||yes
ftpar|0-63|bw="1Gbps" lat="1us" topology="FAT_TREE" topo_parameters="2;8,8;1,4;2,2"||yes
ftzone|0-15|bw="125MBps" lat="50us" topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2"|Full|yes
ftdijkstra|0-15|bw="125MBps" lat="50us" topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2" limiter_link="1GBps"|Dijkstra|yes
ftone|0|bw="125MBps" lat="50us" topology="FAT_TREE" topo_parameters="1;1;1;1"||yes
ft1lev|0-7|bw="125MBps" lat="50us" topology="FAT_TREE" topo_parameters="1;8;1;1"||yes
ft1levpar|0-7|bw="125MBps" lat="50us" topology="FAT_TREE" topo_parameters="1;8;2;3" limiter_link="2GBps"||yes
torus|0-26|bw="125MBps" lat="50us" topology="TORUS" topo_parameters="3,3,3"||no
zonecache|0-9|bw="125MBps" lat="50us"|DijkstraCache|no
dragonfly|0-15|bw="125MBps" lat="50us" topology="DRAGONFLY" topo_parameters="2,1;2,1;2,1;2"||no
routerid|0-5|bw="125MBps" lat="50us" router_id="r"||no
duplicate|0-3,2|bw="125MBps" lat="50us"||no
badunit|0-3|bw="12 MBps" lat="50us"||no
ftfew|0-9|bw="125MBps" lat="50us" topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2"||no
TABLE

# gen NAME RADICAL ATTRIBUTES ZONE: the platform file $T/NAME.xml ($plat, not $name: check sets $name)
gen() {
    {
        printf '<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n'
        printf '<platform version="4.1">\n'
        [ -z "$4" ] || printf '  <zone id="world" routing="%s">\n' "$4"
        printf '  <cluster id="c" prefix="node-" suffix="" radical="%s" speed="1Gf" %s/>\n' "$2" "$3"
        [ -z "$4" ] || printf '  </zone>\n'
        printf '</platform>\n'
    } >"$T/$1.xml"
}

# A hetcast whose helper always fails: what it reads, it read without SimGrid.
mkdir "$T/bin"
cp "$H" "$T/bin/hetcast"
: >"$T/bin/hetcast-uninstalled"
printf '#!/bin/sh\necho "the helper ran" >&2\nexit 1\n' >"$T/bin/hetcast-simgrid"
chmod +x "$T/bin/hetcast-simgrid"

# same ARGS...: hetcast ARGS the same (stdout, stderr, status, the files named
# $T/f.*) with and without the fast paths ($fast: the binary of the first run)
fast=$H
same() {
    rm -f "$T"/f.*
    "$fast" "$@" >"$T/fast.out" 2>"$T/fast.err"
    echo "status $?" >>"$T/fast.err"
    for f in "$T"/f.*; do [ -e "$f" ] && mv "$f" "$f.fast"; done
    HETCAST_NO_FASTPATH=1 "$H" "$@" >"$T/slow.out" 2>"$T/slow.err"
    echo "status $?" >>"$T/slow.err"
    for f in "$T"/f.*; do [ -e "$f" ] && case $f in *.fast) ;; *) cmp -s "$f" "$f.fast" || return 1 ;; esac; done
    cmp -s "$T/fast.out" "$T/slow.out" && cmp -s "$T/fast.err" "$T/slow.err"
}

i=0
while IFS='|' read -r plat radical attrs zone native; do
    i=$((i + 1))
    gen "$plat" "$radical" "$attrs" "$zone"
    P=$T/$plat.xml
    if [ "$native" = yes ]; then
        check "$plat: read without SimGrid" "$T/bin/hetcast" run "$P" --summary
    else
        run "$T/bin/hetcast" run "$P" --summary
        check "$plat: left to SimGrid" has "the helper ran" "$T/err"
    fi
    # the schedulers and models turn with the platforms
    case $((i % 4)) in
    0) s2=binomial m2=multi-port ;;
    1) s2=fef m2=one-port ;;
    2) s2=knomial m2=sync ;;
    *) s2=relay-fnf m2=sender-only ;;
    esac
    check "$plat: run --format json, the same" same run "$P" --format json
    check "$plat: $s2 $m2 --size 1e6 --format csv, the same" same run "$P" -s "$s2" -m "$m2" --size 1e6 --format csv
    check "$plat: the report and the cluster's CSV, the same" same run "$P" --size 1e5 -m multi-port -s binomial --save-cluster "$T/f.csv"
    check "$plat: compare fnf $s2 -m one-port, the same" same compare "$P" -s fnf -s "$s2" -m one-port --size 3e4
    # the report under sync names the links that carry several routes at once: which
    # of a fat tree's parallel links a route takes shows there (ft3down, ft3par)
    check "$plat: -m sync, the links named alike" same run "$P" -m sync --size 1e6 --node-limit 2000
done <"$T/table"

# The platforms a fuzzer found that the native reader takes (tests/fuzz/fuzz_simgrid.c's
# inputs, minimized: odd radicals, units, zones, fat trees, comments), each read alike.
# Their fast run is the copy whose helper always fails: it must not need it.  The
# optimum (up to 16 nodes, where no SHARED link is shared) within a count of search
# nodes, not seconds: under a loaded sanitizer a 10 s limit ended one run, not the other.
fast=$T/bin/hetcast
for P in tests/data/simgrid-fuzzed/*.xml; do
    check "fuzzed ${P##*/}: read without SimGrid; json on the shared links and the cluster's CSV as SimGrid's" \
        same run "$P" --size 1e6 --format json --save-cluster "$T/f.csv" --node-limit 20000
done
fast=$H

# a message too large for a route: the same refusal, naming the same route
check "bb: --size 1e300, the same refusal" same run "$T/bb.xml" --size 1e300
check "ft3par: --size 1e300, the same refusal" same run "$T/ft3par.xml" --size 1e300

run env HETCAST_NO_FASTPATH=1 "$T/bin/hetcast" run "$T/bb.xml" --summary
check "HETCAST_NO_FASTPATH=1: the helper reads even a <cluster>" has "the helper ran" "$T/err"

# The two paths refuse alike: SimGrid's message for what the native reader leaves to it.
run "$H" run "$T/duplicate.xml"
check "duplicate hosts: SimGrid's refusal, status 2" sh -c "[ $rc -eq 2 ] && grep -q 'SimGrid refused it' $T/err"
done_testing
