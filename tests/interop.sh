#!/bin/sh
# interop.sh - hetcast's schedules read by the field's tools (TAP;
# docs/interop.md): the Paje trace through pj_dump (PajeNG), the tree through
# dot -Tsvg (Graphviz), and the SMPI traces replayed by smpirun (SimGrid),
# whose simulated time must equal hetcast's makespan: 6 for fnf and 5 for
# optimal on the counterexample, and more models and cluster kinds beside.
# A tool that is not installed skips its checks with the reason (setup.sh
# installs them all).  $HETCAST is the binary.
. tests/tap.sh
CX=clusters/counterexample.csv
# A cluster whose names would break every format if written raw.
printf 'name,send,recv\n"say ""hi""",1,2\n"two lines",1,2\n"back\\slash <&>",2,3\n"tab here",1,1\n' >"$T/hostile.csv"

# ---- Paje ----
run "$H" run "$CX" --format paje
check "paje: status 0" test "$rc" -eq 0
cp "$T/out" "$T/cx.paje"
if command -v pj_dump >/dev/null; then
    check "paje: pj_dump reads it" sh -c "pj_dump $T/cx.paje >$T/dump"
    check "paje: p0's two sends [0,1) and [1,2)" sh -c "grep -q '^State, p0, send port, 0.000000, 1.000000' $T/dump && grep -q '^State, p0, send port, 1.000000, 2.000000' $T/dump"
    check "paje: p2's receive [3,6)" has "^State, p2, recv port, 3.000000, 6.000000" "$T/dump"
    check "paje: the arrows p0 -> p1 (0 to 4) and p0 -> p2 (1 to 6)" sh -c "grep -q '^Link, fnf (async), message, 0.000000, 4.000000, 4.000000, message, p0, p1' $T/dump && grep -q '^Link, fnf (async), message, 1.000000, 6.000000, 5.000000, message, p0, p2' $T/dump"
    run "$H" compare "$CX" --format paje
    check "paje compare: pj_dump reads both runs" sh -c "pj_dump $T/out >$T/dump2 && grep -q '^Container, 0, run, 0, 6, 6, fnf (async)' $T/dump2 && grep -q '^Container, 0, run, 0, 6, 6, optimal (async)' $T/dump2"
    run "$H" run "$T/hostile.csv" -m sync --format paje
    check "paje: pj_dump reads hostile names, escaped" sh -c "pj_dump $T/out >$T/dump3 && grep -q \"^Container, fnf (sync), node, .*, say 'hi'\$\" $T/dump3 && grep -q '^Container, fnf (sync), node, .*, two lines\$' $T/dump3"
    run "$H" run clusters/platform-small.csv -s grow-tree --slices 3 --format paje
    check "paje: a pipelined tree reads too (6 receivers, 3 slices: 18 arrows)" sh -c "pj_dump $T/out | grep -c '^Link' | grep -qx 18"
else
    for t in "pj_dump reads it" "sends" "receive" "arrows" "compare" "hostile names" "pipelined"; do
        skip "paje: $t" "pj_dump not installed (Debian: pajeng)"
    done
fi
run "$H" run "$CX" --format paje --summary
check "paje --summary: still every transfer (the trace needs them)" test "$(grep -c '^8 ' "$T/out")" -eq 2

# ---- DOT ----
run "$H" run "$CX" --format dot
check "dot: status 0, the tree p0 -> p1, p0 -> p2" sh -c "[ $rc -eq 0 ] && grep -q '^  n0 -> n1 ' $T/out && grep -q '^  n0 -> n2 ' $T/out"
cp "$T/out" "$T/cx.dot"
if command -v dot >/dev/null; then
    check "dot: dot -Tsvg draws it" sh -c "dot -Tsvg $T/cx.dot >$T/cx.svg && grep -q '<svg' $T/cx.svg && grep -q 'holds at 6' $T/cx.svg"
    run "$H" compare "$CX" --format dot
    check "dot compare: one graph, a cluster per run, dot draws it" sh -c "dot -Tsvg $T/out >$T/c.svg && grep -c 'subgraph cluster_' $T/out | grep -qx 2"
    run "$H" run "$T/hostile.csv" --format dot
    check "dot: hostile names draw, quotes and markup as text" sh -c "dot -Tsvg $T/out >$T/h.svg && grep -q 'say &quot;hi&quot;' $T/h.svg && grep -q 'back\\\\slash &lt;&amp;&gt;' $T/h.svg"
else
    for t in "draws it" "compare" "hostile names"; do skip "dot: $t" "dot not installed (Debian: graphviz)"; done
fi

# ---- SMPI ----
run "$H" run "$CX" --format smpi
check "smpi without --output: status 2" sh -c "[ $rc -eq 2 ] && grep -q 'give it --output DIR' $T/err"
run "$H" run "$CX" --format csv --output "$T/x"
check "--output with another format: status 2" sh -c "[ $rc -eq 2 ] && grep -q -- '--output DIR is for --format otf2 or smpi' $T/err"
run "$H" compare "$CX" --format smpi --output "$T/x"
check "compare --format smpi: status 2 (one schedule per replay)" test "$rc" -eq 2
: >"$T/afile"
run "$H" run "$CX" --format smpi --output "$T/afile"
check "smpi --output onto a file: refused (status 2, as otf2), the file left alone" sh -c "[ $rc -eq 2 ] && grep -q 'exists and is not a directory' $T/err && [ ! -s $T/afile ]"
run "$H" run clusters/platform-small.csv -s grow-tree --format smpi --output "$T/x"
check "smpi: pipelined slices refused (status 2), saying why" sh -c "[ $rc -eq 2 ] && grep -q 'cannot express' $T/err"
run "$H" run "$CX" --format smpi --output "$T/fnf"
check "smpi: the directory holds platform, hostfile, index, traces, README" sh -c "cd $T/fnf && [ -s platform.xml ] && [ -s hostfile ] && [ -s index.txt ] && [ -s rank-0.txt ] && [ -s rank-2.txt ] && [ -s README ]"
check "smpi: README holds the smpirun command" sh -c "grep -q '^  smpirun -np 3 -platform platform.xml -hostfile hostfile -replay index.txt --cfg=network/model:CM02 --cfg=network/TCP-gamma:0' $T/fnf/README"
check "smpi: no temporary file left" sh -c "! ls -a $T/fnf | grep -q tmp"

run "$H" run tests/data/counterexample-ms.csv --format smpi --output "$T/ms"
check "smpi: a cluster in ms gives latencies in ms and hosts at a flop a ms" sh -c "grep -q 'latency=\"1ms\"' $T/ms/platform.xml && grep -q 'speed=\"1000f\"' $T/ms/platform.xml && grep -q 'T = makespan x 0.001' $T/ms/README"
run "$H" run tests/data/counterexample-us.csv --format smpi --output "$T/us"
check "smpi: a cluster in us gives latencies in us and hosts at a flop a us" sh -c "grep -q 'latency=\"1000us\"' $T/us/platform.xml && grep -q 'speed=\"1e+06f\"' $T/us/platform.xml"
check "smpi: no unit, seconds as before" sh -c "grep -q 'latency=\"1s\"' $T/fnf/platform.xml && grep -q 'speed=\"1f\"' $T/fnf/platform.xml"

# replay FILE SCHED MODEL [OPTIONS]: "hetcast's makespan = SimGrid's time" or why not
replay() {
    f=$1 s=$2 m=$3
    shift 3
    d="$T/rep-$s-$m"
    "$H" run "$f" -s "$s" -m "$m" --format smpi --output "$d" "$@" >"$T/rlog" 2>&1 || { cat "$T/rlog"; return; }
    want=$(sed -n 's/^makespan \([^ ]*\) .*/\1/p' "$T/rlog")
    cmd=$(sed -n 's/^  \(smpirun .*\)/\1/p' "$d/README")
    got=$(cd "$d" && eval "$cmd" 2>&1 | sed -n 's/.*Simulation time \([0-9.e+-]*\).*/\1/p')
    echo "$want $got"
}
# same WANT GOT: SimGrid's 6 decimals equal hetcast's number
same() { awk -v w="$1" -v g="$2" 'BEGIN { exit !(g != "" && sprintf("%.6f", w) == sprintf("%.6f", g)) }'; }
if command -v smpirun >/dev/null; then
    set -- $(replay "$CX" fnf async)
    check "smpirun replays fnf on the counterexample in 6 (hetcast: ${1:-?}, SimGrid: ${2:-?})" sh -c "[ '${1:-}' = 6 ] && [ '${2:-}' = 6.000000 ]"
    set -- $(replay "$CX" optimal async)
    check "smpirun replays optimal on the counterexample in 5 (hetcast: ${1:-?}, SimGrid: ${2:-?})" sh -c "[ '${1:-}' = 5 ] && [ '${2:-}' = 5.000000 ]"
    # more models and kinds: sync makes the sender wait for the arrival and
    # the receive (send-is-detached-thresh:0), graphs carry T on the link
    for c in "$CX slowest-first sync" "$CX fnf sender-only" "$CX optimal one-port" "$CX fnf multi-port" \
             "clusters/figueira-table1.csv binomial sync" "clusters/figueira-table1.csv depth-first async" \
             "clusters/platform-small.csv fef one-port" "clusters/platform-small.csv optimal multi-port" \
             "clusters/fig6-100.csv fnf async" "$T/hostile.csv optimal sync"; do
        set -- $c
        name="$(basename "$1") $2 -m $3"
        set -- $(replay $c)
        check "smpirun replays $name in hetcast's makespan (hetcast: ${1:-?}, SimGrid: ${2:-?})" same "${1:-x}" "${2:-}"
    done
    set -- $(replay clusters/platform-small.csv grow-tree one-port --slices 1)
    check "smpirun replays a one-slice pipelined tree (hetcast: ${1:-?}, SimGrid: ${2:-?})" same "${1:-x}" "${2:-}"
    # the cluster's unit travels: the counterexample in ms replays in 0.006 s
    set -- $(replay tests/data/counterexample-ms.csv fnf async)
    check "smpirun replays the counterexample in ms in 6 ms (hetcast: ${1:-?} ms, SimGrid: ${2:-?} s)" sh -c "[ '${1:-}' = 6 ] && [ '${2:-}' = 0.006000 ]"
    # a SimGrid platform read by hetcast, scheduled, and replayed by SimGrid again
    if "$H" run tests/data/simgrid-ring.xml --summary >/dev/null 2>&1; then
        set -- $(replay tests/data/simgrid-ring.xml optimal one-port --size 1000)
        check "smpirun replays optimal on simgrid-ring.xml (hetcast: ${1:-?}, SimGrid: ${2:-?})" same "${1:-x}" "${2:-}"
    else
        skip "smpirun replays optimal on simgrid-ring.xml" "hetcast built without SimGrid"
    fi
    check "smpi: hostile names give rank-I hosts, the names XML-escaped" sh -c "grep -q '<host id=\"rank-1\"' $T/rep-optimal-sync/platform.xml && grep -q 'value=\"two lines\"' $T/rep-optimal-sync/platform.xml"
else
    for t in "fnf 6" "optimal 5" "other models" ; do
        skip "smpirun replays: $t" "smpirun not installed (Debian: libsimgrid-dev)"
    done
fi

# The platform hetcast wrote loads back into hetcast (when built with SimGrid):
# the node table's latency comes back as a matrix of it.
run "$H" run "$T/fnf/platform.xml" --save-cluster "$T/back.csv"
if has "built without SimGrid" "$T/err"; then
    skip "smpi platform.xml loads back" "hetcast built without SimGrid"
else
    check "smpi platform.xml loads back: p0..p2 at latency 1" sh -c "[ $rc -eq 0 ] && grep -q '^,p0,p1,p2$' $T/back.csv && grep -q '^p0,0,1,1$' $T/back.csv"
fi

done_testing
