#!/bin/sh
# trace_cli.sh - measured traces beside predictions (TAP): hetcast compare
# --trace in text, CSV, JSON and SVG on tests/data/counterexample-measured.csv
# (hand-made: fnf 6.01, optimal 5.003 on clusters/counterexample.csv), which
# scheduler is predicted (the trace's column, -s, a mismatch), hetcast's own
# schedule CSV read back as a trace (error 0), and every mistake in a trace
# as one message naming the file and line, exit status 2.
. "$(dirname "$0")/tap.sh"
C=clusters/counterexample.csv
M=tests/data/counterexample-measured.csv

run "$H" compare $C --trace $M
check "compare --trace: exit 0" test $rc -eq 0
check "text: fnf predicted 6, measured 6.01, error +0.01" has "^fnf  *6  *6.01  *+0.01 (+0.17 %)$" "$T/out"
check "text: optimal predicted 5, measured 5.003" has "^optimal  *5  *5.003  *+0.003 (+0.06 %)$" "$T/out"
check "text: per transfer, predicted -> measured and the shift" has "p0  *-> p2  *start 1 -> 1.001 *(+0.001) *holds at 6 -> 6.01 *(+0.01)$" "$T/out"
check "text: the trace's provenance comments" has "^  # ranks: 3" "$T/out"
check "text: the difference, predicted and measured" has "^difference *fnf - optimal = 1 predicted, 1.007 measured$" "$T/out"

run "$H" compare $C --trace $M --format csv
check "csv: header" has "^scheduler,seq,from,to,predicted_start,measured_start,start_error,predicted_hold,measured_hold,hold_error,error_percent$" "$T/out"
check "csv: a transfer row" has "^fnf,2,p0,p2,1,1.001,0.001,6,6.01,0.01,0.166666666667$" "$T/out"
check "csv: the makespan row" has "^optimal,makespan,,,,,,5,5.003,0.003,0.06$" "$T/out"
run "$H" compare $C --trace $M --format csv --summary -s optimal
check "csv --summary -s optimal: the version, the header, one row" sh -c "[ \$(wc -l < $T/out) -eq 4 ] && head -n 1 $T/out | grep -q '^# format_version: 2$' && sed -n 2p $T/out | grep -q '^# hetcast: ' && grep -q '^optimal,5,5.003,0.003,0.06$' $T/out"

run "$H" compare $C --trace $M --format json
check "json: valid" python3 -c "import json,sys; json.load(open('$T/out'))"
check "json: fnf's makespans and error, the format's version" python3 -c "
import json; d = json.load(open('$T/out')); s = d['schedulers'][0]
assert d['format_version'] == 2
assert s['scheduler'] == 'fnf' and s['predicted_makespan'] == 6 and s['measured_makespan'] == 6.01
assert s['error'] == 0.01 and s['transfers'][1]['hold_error'] == 0.01 and len(d['notes']) == 3"

run "$H" compare $C --trace $M --format svg
cp "$T/out" "$T/t.svg"
if command -v xmllint >/dev/null 2>&1; then
    check "svg: well-formed XML (xmllint)" xmllint --noout "$T/t.svg"
else
    check "svg: well-formed XML (python)" python3 -c "import xml.dom.minidom; xml.dom.minidom.parse('$T/t.svg')"
fi
check "svg: both runs and the error in the subtitle" sh -c "grep -q 'fnf (measured): makespan 6.01' $T/t.svg && grep -q 'fnf: predicted 6, measured 6.01, error +0.01 (+0.17 %)' $T/t.svg"
check "svg: the prediction as outlines under the measured bars" has 'stroke-dasharray="3,2"' "$T/t.svg"

# hetcast's own schedule CSV is a trace: measured exactly as predicted
"$H" run $C -s optimal --format csv >"$T/own.csv"
run "$H" compare $C --trace "$T/own.csv"
check "run --format csv read back: error 0" has "^optimal  *5  *5  *0 (+0.00 %)$" "$T/out"

# which scheduler: -s picks rows; a trace without a scheduler column goes with -s
run "$H" compare $C --trace $M -s slowest-first
check "-s naming no rows of the trace: exit 2" test $rc -eq 2
check "... says which schedulers the trace holds" has "no rows of the scheduler slowest-first; the trace holds fnf, optimal" "$T/err"
sed -n '4p;7,8p' $M | cut -d, -f2- >"$T/nosched.csv"
run "$H" compare $C --trace "$T/nosched.csv" -s optimal
check "no scheduler column, -s optimal: optimal's rows" has "^optimal  *5  *5.003 " "$T/out"
run "$H" compare $C --trace "$T/nosched.csv"
check "no scheduler column, no -s: fnf, and optimal's rows (same pairs, other order) are not fnf's" sh -c "[ $rc -eq 2 ] && grep -q \"nosched.csv:2: seq: p0 -> p2 is fnf's transfer 2, not 1\" $T/err"

# mistakes: one message naming file and line, exit 2
bad() {   # bad NAME LINE-PATTERN: the trace $T/bad.csv refused with that message
    run "$H" compare $C --trace "$T/bad.csv"
    check "bad trace, $1: exit 2, file:line" sh -c '[ "$1" -eq 2 ] && grep -qF -- "$2" "$3"' sh "$rc" "$2" "$T/err"
}
HDR=scheduler,seq,from,to,send_start,send_end,link_start,link_end,recv_start,recv_end,hold
printf '%s\nfnf,1,p0,p9,0,1,1,2,2,4,4\nfnf,2,p0,p2,1,2,2,3,3,6,6\n' $HDR >"$T/bad.csv"
bad "unknown node" 'bad.csv:2: to: "p9" is not a node of counterexample'
printf '%s\nfnf,1,p0,p1,0,1,1,2,2,4,x\nfnf,2,p0,p2,1,2,2,3,3,6,6\n' $HDR >"$T/bad.csv"
bad "bad number" 'bad.csv:2: hold: "x" is not a number'
printf '%s\nfnf,1,p0,p1,0,1,1,2,2,4,-4\nfnf,2,p0,p2,1,2,2,3,3,6,6\n' $HDR >"$T/bad.csv"
bad "negative time" 'bad.csv:2: hold: "-4" is negative'
printf 'scheduler,seq,from,to,send_start,send_end,link_start,link_end,recv_start,recv_end\nfnf,1,p0,p1,0,1,1,2,2,4\n' >"$T/bad.csv"
bad "missing column" 'bad.csv:1: missing column hold'
printf '# provenance\n%s\nfnf,1,p0,p1,0,1,1,2,2,4,4\nfnf,2,p1,p2,1,2,2,3,3,6,6\n' $HDR >"$T/bad.csv"
bad "a transfer not in the schedule" "bad.csv:4: the transfer p1 -> p2 is not in fnf's schedule (there p0 sends to it)"
printf '%s\nfnf,1,p0,p1,0,1,1,2,2,4,4\nfnf,2,p0,p2,1,0.5,2,3,3,6,6\n' $HDR >"$T/bad.csv"
bad "end before start" 'bad.csv:3: send_end: 0.5 is before send_start 1'
printf '%s\nfnf,1,p0,p1,0,1,1,2,2,4,4\nfnf,2,p0,p1,1,2,2,3,3,6,6\n' $HDR >"$T/bad.csv"
bad "a transfer twice" 'bad.csv:3: the transfer p0 -> p1 again (also on line 2)'
printf '%s\nfnf,1,p0,p1,0,1,1,2,2,4,4\nfnf,1,p0,p2,1,2,2,3,3,6,6\n' $HDR >"$T/bad.csv"
bad "seq twice" 'bad.csv:3: seq: seq 1 again (also on line 2)'
printf '%s\nfnf,1,p0,p1,0,1,1,2,2,4,4\n' $HDR >"$T/bad.csv"
bad "a predicted transfer missing" "bad.csv: fnf's transfer 2, p0 -> p2, has no row in the trace"
printf '%s\nfnf,1,p0,p1,0,1,1,2,2,4\n' $HDR >"$T/bad.csv"
bad "a row too short" 'bad.csv:2: 10 fields, but the header (line 1) has 11'
printf '%s\nfnf,1,p0,p1,0,1,1,2,2,4,4\nmpi,1,p0,p1,0,1,1,2,2,4,4\n' $HDR >"$T/bad.csv"
bad "a scheduler name hetcast does not know, beside another" 'bad.csv:3: scheduler: "mpi" is not one of'
printf '%s\n' $HDR >"$T/bad.csv"
bad "only a header" 'bad.csv: no transfers'
printf '%s\nfnf,1,"p0,p1,0,1,1,2,2,4,4\n' $HDR >"$T/bad.csv"
bad "a quote not closed" 'bad.csv:2: quoted field not closed'
run "$H" compare $C --trace "$T/missing.csv"
check "a trace that does not exist: exit 2, named" sh -c "[ $rc -eq 2 ] && grep -q 'missing.csv: cannot open' $T/err"

# two traces joined by cat (hetcast-mpi exec writes one scheduler a file): the
# Paje and DOT: each prediction followed by its measured run
run "$H" compare $C --trace $M --format paje
check "paje: exit 0, a container per run, the measured ones named so" sh -c "[ $rc -eq 0 ] && grep -q '^4 0 r1 R 0 \"fnf (async, measured)\"$' $T/out && grep -q '^4 0 r3 R 0 \"optimal (async, measured)\"$' $T/out"
check "paje: the measured hold of p2 (fnf, 6.01) ends its receive state" has "^7 6.01 V r1n2$" "$T/out"
if command -v pj_dump >/dev/null 2>&1; then
    cp "$T/out" "$T/t.paje"
    run pj_dump "$T/t.paje"
    check "paje: pj_dump reads it; fnf's measured arrow p0 -> p2 from 1.001 to 6.01" has "^Link, fnf (async, measured), message, 1.001000, 6.010000, .*, p0, p2," "$T/out"
else
    skip "paje: pj_dump reads it" "pj_dump not installed"
fi
run "$H" compare $C --trace $M --format dot
check "dot: a subgraph per run, the measured ones named so" sh -c "[ $rc -eq 0 ] && grep -q 'label=\"fnf (measured), async: makespan 6.01\"' $T/out && grep -q 'r3n2 \[label=\"p2.nholds at 5.003\"' $T/out"
if command -v dot >/dev/null 2>&1; then
    check "dot: Graphviz reads it" dot -Tsvg -o "$T/t.dot.svg" "$T/out"
else
    skip "dot: Graphviz reads it" "dot not installed"
fi
# second header is skipped; a header with other columns is still a bad row
"$H" run $C -s fnf --format csv >"$T/f.csv"
"$H" run $C -s optimal --format csv >"$T/o.csv"
cat "$T/f.csv" "$T/o.csv" >"$T/both.csv"
run "$H" compare $C --trace "$T/both.csv"
check "hetcast's own CSV as a trace: its format_version line is no provenance note" sh -c "! grep -q 'format_version' $T/out"
check "two traces joined by cat: both schedulers, error 0" sh -c "[ $rc -eq 0 ] && grep -q '^fnf  *6  *6  *0 ' $T/out && grep -q '^optimal  *5  *5  *0 ' $T/out"
printf 'scheduler,seq,from,to,send_start,send_end,link_start,link_end,recv_start,recv_end,hold\nfnf,1,p0,p1,0,1,1,2,2,4,4\nscheduler,seq,from,to,send_start,send_end,link_start,link_end,hold,recv_start,recv_end\n' >"$T/bad.csv"
bad "a second header in another order is a row, refused" 'bad.csv:3:'

# the problems as one message "hetcast compare: file:line: problem" (the view: "hetcast: ..."), one a line
printf '%s\nfnf,1,p0,p9,0,1,1,2,2,4,4\nfnf,2,p0,p8,1,2,2,3,3,6,6\n' $HDR >"$T/bad.csv"
run "$H" compare $C --trace "$T/bad.csv"
check "compare: the trace's problems, one a line, the message starting with hetcast compare:" sh -c "[ $rc -eq 2 ] && head -n 1 $T/err | grep -q '^hetcast compare: .*/bad.csv:2: to: \"p9\" is not a node of counterexample$' && sed -n 2p $T/err | grep -q '^.*/bad.csv:3: to: \"p8\" is not a node' && [ \$(wc -l < $T/err) -eq 2 ]"
run "$H" $C --trace "$T/bad.csv"
check "the view: the same message" sh -c "[ $rc -eq 2 ] && head -n 1 $T/err | grep -q '^hetcast: .*/bad.csv:2: to: \"p9\" is not a node of counterexample$' && [ \$(wc -l < $T/err) -eq 2 ]"

# where --trace does not go
run "$H" run $C --trace $M
check "run --trace: refused, pointing to compare" sh -c "[ $rc -eq 2 ] && grep -q 'hetcast compare' $T/err"
run "$H" compare $C --trace $M --format smpi --output "$T/replay"
check "compare --trace --format smpi: refused, naming the formats that take --trace" sh -c "[ $rc -eq 2 ] && grep -q 'svg, paje, dot, chrome or otf2 (not --format smpi)' $T/err && [ ! -e $T/replay ]"
run "$H" compare $C --trace $M --pattern all-to-all
check "--trace with an exchange: refused" sh -c "[ $rc -eq 2 ] && grep -q 'personalized exchange' $T/err"
run "$H" $C --trace $M --pattern all-to-all
check "the view, --trace with an exchange: refused" sh -c "[ $rc -eq 2 ] && grep -q 'personalized exchange' $T/err"
done_testing
