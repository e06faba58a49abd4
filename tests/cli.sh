#!/bin/sh
# cli.sh - the command line on the real binary (TAP). $HETCAST is the binary.
. tests/tap.sh   # H, T, check, run, has, done_testing

run "$H" --version
check "--version exits 0 and names hetcast" sh -c "[ $rc -eq 0 ] && grep -q '^hetcast [0-9]' $T/out"
check "--version names the licence (MIT source, GPL-3.0-or-later binary with GLPK)" sh -c "grep -q '^License: MIT' $T/out && grep -q 'GPL-3.0-or-later' $T/out"
run "$H" clusters/counterexample.csv --version
check "hetcast FILE --version: the version, exit 0, no view" sh -c "[ $rc -eq 0 ] && grep -q '^hetcast [0-9]' $T/out && [ ! -s $T/err ]"
run "$H" run clusters/counterexample.csv --version
check "hetcast run FILE --version: the version, nothing run" sh -c "[ $rc -eq 0 ] && grep -q '^hetcast [0-9]' $T/out && ! grep -q makespan $T/out"
run "$H" run --help
check "run --help: run's own usage, not the global one" sh -c "[ $rc -eq 0 ] && head -n 1 $T/out | grep -q '^usage: hetcast run FILE' && ! grep -q 'hetcast experiment NAME' $T/out && grep -q -- '--scheduler NAME' $T/out && grep -q '^schedulers: ' $T/out"
run "$H" compare -h
check "compare -h: compare's own usage (schedulers side by side, --trace)" sh -c "[ $rc -eq 0 ] && head -n 1 $T/out | grep -q '^usage: hetcast compare FILE' && grep -q 'hetcast compare FILE --trace MEASURED.csv' $T/out && ! grep -q 'hetcast lesson' $T/out"
run "$H" --help
check "--help lists the commands and schedulers" sh -c "[ $rc -eq 0 ] && grep -q 'hetcast run FILE' $T/out && grep -q 'slowest-first' $T/out"

run "$H" run clusters/counterexample.csv
check "run: exit 0" test $rc -eq 0
check "run: fnf makespan 6 on the counterexample" has "^makespan *6$" "$T/out"
check "run: lower bound 5" has "^lower bound *5 " "$T/out"
check "run: optimum 5 shown beside" has "^optimum *5 " "$T/out"
check "run: the guarantee 2T + beta" has "2T + beta = 2\*5 - 2 = 8" "$T/out"
check "run: a table of transfers with reasons" has "p0 *p1 .*fastest waiting node" "$T/out"

V=$("$H" --version | sed -n '1s/^hetcast //p')   # the version every JSON and CSV output names
run "$H" run clusters/counterexample.csv --format json
cat >"$T/want.json" <<JSON
{"format_version": 2, "hetcast": "$V", "cluster": "counterexample", "model": "async", "scheduler": "fnf", "nodes": 3,
 "makespan": 6, "lower_bound": 5, "optimal": 5,
 "transfers": [{"from": "p0", "to": "p1", "send_start": 0, "send_end": 1, "link_start": 1, "link_end": 2, "recv_start": 2, "recv_end": 4},
               {"from": "p0", "to": "p2", "send_start": 1, "send_end": 2, "link_start": 2, "link_end": 3, "recv_start": 3, "recv_end": 6}],
 "parent": {"p1": "p0", "p2": "p0"}}
JSON
check "json: exactly the SPEC's shape, with the format's version and every time of the CSV" cmp "$T/out" "$T/want.json"

run "$H" run clusters/counterexample.csv -s optimal --format json --summary
check "json --summary: optimal makespan 5, no transfers" sh -c "grep -q '\"makespan\": 5' $T/out && ! grep -q transfers $T/out"

run "$H" run clusters/counterexample.csv --format csv
check "csv: header" has "^scheduler,seq,from,to,send_start,send_end,link_start,link_end,recv_start,recv_end,hold$" "$T/out"
check "csv: second transfer" has "^fnf,2,p0,p2,1,2,2,3,3,6,6$" "$T/out"

"$H" run clusters/fig6-100.csv -m one-port --format csv >"$T/times.csv"
"$H" run clusters/fig6-100.csv -m one-port --format json >"$T/times.json"
check "json: each transfer has the CSV's six port times (fig6-100, one-port)" python3 -c "
import csv, json
rows = list(csv.DictReader(l for l in open('$T/times.csv') if not l.startswith('#')))
tr = json.load(open('$T/times.json'))['transfers']
keys = ('send_start', 'send_end', 'link_start', 'link_end', 'recv_start', 'recv_end')
assert len(rows) == len(tr) == 99
for r, t in zip(rows, tr):
    assert (r['from'], r['to']) == (t['from'], t['to'])
    assert all(float(r[k]) == t[k] for k in keys), (r, t)"
check "json and csv: the same format_version" sh -c "head -n 1 $T/times.csv | grep -q '^# format_version: 2$' && python3 -c \"import json; assert json.load(open('$T/times.json'))['format_version'] == 2\""

run "$H" compare clusters/counterexample.csv
check "compare: fnf 6" has "^fnf *6 " "$T/out"
check "compare: optimal 5, proven" has "^optimal *5 .*proven optimal" "$T/out"
check "compare: the difference" has "^difference *fnf - optimal = 1$" "$T/out"

run "$H" compare clusters/counterexample.csv -s fnf -s slowest-first -s random-order --seed 3 --summary --format csv
check "compare csv --summary: the version, the header and one row per scheduler" sh -c "[ \$(wc -l < $T/out) -eq 6 ] && head -n 1 $T/out | grep -q '^# format_version: 2$' && sed -n 2p $T/out | grep -qx '# hetcast: $V'"

run "$H" run clusters/counterexample.csv -m sync --summary
check "run -m sync" has "^model: sync" "$T/out"

run "$H" run clusters/counterexample.csv -s random-pair --seed 7 --format csv
cp "$T/out" "$T/a"
run "$H" run clusters/counterexample.csv -s random-pair --seed 7 --format csv
check "random-pair: same seed, same schedule" cmp "$T/a" "$T/out"

run "$H" run clusters/counterexample.csv -s nope
check "unknown scheduler: status 2" test $rc -eq 2
check "unknown scheduler: lists the valid ones" has "valid schedulers: fnf, slowest-first" "$T/err"
run "$H" run clusters/counterexample.csv -m warp
check "unknown model: status 2 and the list" sh -c "[ $rc -eq 2 ] && grep -q 'valid models: async, sender-only, sync, one-port, multi-port, one-port-uni' $T/err"
run "$H" run clusters/counterexample.csv -m one-port-uni
check "one-port-uni on a node table: status 2, the file and the kind's models" sh -c "[ $rc -eq 2 ] && grep -q 'clusters/counterexample.csv: the one-port-uni model does not apply to a node table; valid models for a node table: async, sender-only, sync, one-port, multi-port$' $T/err"
run "$H" compare clusters/figueira-table1.csv -m one-port-uni
check "one-port-uni on a latency matrix: status 2, refused" sh -c "[ $rc -eq 2 ] && grep -q 'does not apply to a latency matrix; valid models for a latency matrix: async' $T/err"
run "$H" run clusters/platform-small.csv -m sync
check "sync on a platform graph: status 2, lists one-port-uni" sh -c "[ $rc -eq 2 ] && grep -q 'valid models for a platform graph: one-port, multi-port, one-port-uni$' $T/err"
run "$H" run clusters/platform-uni.csv -s binomial -m one-port-uni --slices 40 --summary
check "one-port-uni on a platform graph: binomial's period 4, the LP bound 7/13" sh -c "[ $rc -eq 0 ] && grep -q '^throughput    0.25   (one-port-uni formula: period 4, set by a)' $T/out && grep -q '^LP bound      0.5384615385 ' $T/out"
run "$H" run clusters/khuller-kim.csv -m sender-only -s kk-round --epsilon 1
check "kk-round --epsilon 1: 8, within 2 of the least 7, the rounded optimum 8 of 3 classes" sh -c "[ $rc -eq 0 ] && grep -q '^makespan      8$' $T/out && grep -q '^note          within 2 of the least makespan, 2 by this run: the times rounded up to powers of 2 leave 3 classes (of 5); the rounded table.s optimum 8 ' $T/out && grep -q '^optimum       7 ' $T/out"
run "$H" run clusters/khuller-kim.csv -s kk-round --epsilon 0
check "kk-round --epsilon 0: status 2, the range named" sh -c "[ $rc -eq 2 ] && grep -q -- '--epsilon: \"0\" is not a number from 0.001 to 4' $T/err && [ ! -s $T/out ]"
run "$H" run clusters/figueira-table1.csv -s kk-round
check "kk-round on a latency matrix: status 2, what works named" sh -c "[ $rc -eq 2 ] && grep -q 'scheduler kk-round does not work on a latency matrix; use one of: fnf' $T/err"
run "$H" run clusters/counterexample.csv --frobnicate
check "unknown option: status 2 and the list" sh -c "[ $rc -eq 2 ] && grep -q 'valid options: -s, -m' $T/err"
run "$H" run clusters/counterexample.csv --format xml
check "unknown format: status 2" sh -c "[ $rc -eq 2 ] && grep -q 'valid formats' $T/err"
# One table of formats: the refusal, the help line, the other refusals and the
# bash completion list the same formats, in the same order.
check "unknown format: the refusal lists every format" has '^hetcast run: unknown format "xml"; valid formats: text, csv, json, svg, paje, dot, chrome, otf2, smpi$' "$T/err"
formats=$(sed -n 's/.*valid formats: //p' "$T/err" | tr -d ',')
run "$H" --help
check "--help: the formats' line lists the same formats with their notes" \
    has '^      --format F         text (default), csv, json, svg (Gantt and tree), paje, dot, chrome (Perfetto), otf2 (Vampir) or smpi (interop.md)$' "$T/out"
run "$H" compare clusters/counterexample.csv --trace tests/data/counterexample-measured.csv --format smpi --output "$T/r"
check "--trace with smpi: the formats that take --trace" sh -c "[ $rc -eq 2 ] && grep -q 'trace prints text, csv, json, svg, paje, dot, chrome or otf2 (not --format smpi)$' $T/err"
run "$H" run clusters/counterexample.csv --pattern all-to-all --format svg
check "--pattern with svg: the formats of an exchange" sh -c "[ $rc -eq 2 ] && grep -q 'a personalized exchange prints text, csv or json$' $T/err"
run "$H" run clusters/counterexample.csv --pattern all-to-all --format nope
check "--pattern with an unknown format: the formats of an exchange" sh -c "[ $rc -eq 2 ] && grep -q 'valid formats: text, csv, json$' $T/err"
COMP=$(dirname "$H")/hetcast.bash   # made at build time from the program's help (data/completions.py)
if command -v bash >/dev/null 2>&1 && [ -f "$COMP" ]; then
    offered=$(bash -c '. "$0"; COMP_WORDS=("$1" run x.csv --format ""); COMP_CWORD=4; _hetcast; echo "${COMPREPLY[*]}"' "$COMP" "$H")
    check "bash completion of --format: the formats the refusal lists ($offered)" test "$offered" = "$formats"
    # --format=j: bash splits the word at "=", the value is completed all the same
    offered=$(bash -c '. "$0"; COMP_WORDS=("$1" run x.csv --format = j); COMP_CWORD=5; _hetcast; echo "${COMPREPLY[*]}"' "$COMP" "$H")
    check "bash completion of --format=j: json ($offered)" test "$offered" = json
    offered=$(bash -c '. "$0"; COMP_WORDS=("$1" run x.csv --format =); COMP_CWORD=4; _hetcast; echo "${COMPREPLY[*]}"' "$COMP" "$H")
    check "bash completion of --format=: every format ($offered)" test "$offered" = "$formats"
    # in a completion (compopt works) readline marks folders itself: "app", not "app/" (shown "app//")
    offered=$(bash -c '. "$0"; compopt() { return 0; }; COMP_WORDS=("$1" run ap); COMP_CWORD=2; _hetcast; echo "${COMPREPLY[*]}"' "$COMP" "$H")
    check "bash completion of a folder under -o filenames: no slash of its own ($offered)" test "$offered" = app
    offered=$(bash -c '. "$0"; COMP_WORDS=("$1" les); COMP_CWORD=1; _hetcast; echo "${COMPREPLY[*]}"' "$COMP" "$H")
    check "bash completion of the command lesson ($offered)" test "$offered" = lesson
    offered=$(bash -c '. "$0"; COMP_WORDS=("$1" lesson lua/lessons/); COMP_CWORD=2; _hetcast; printf "%s\n" "${COMPREPLY[@]}"' "$COMP" "$H")
    check "bash completion of a lesson's FILE: Lua files and folders only" sh -c "echo '$offered' | grep -q '^lua/lessons/.*\.lua$' && ! echo '$offered' | grep -v -q '\.lua$\|/$'"
    offered=$(bash -c '. "$0"; COMP_WORDS=("$1" lesson x.lua --p); COMP_CWORD=3; _hetcast; echo "${COMPREPLY[*]}"' "$COMP" "$H")
    check "bash completion of lesson's options: --print ($offered)" test "$offered" = --print
else
    n=$((n + 1)); echo "ok $n - bash completion of --format # SKIP bash is not installed"
fi
run "$H" run clusters/counterexample.csv --source p9
check "unknown source: status 2, names it" sh -c "[ $rc -eq 2 ] && grep -q '\"p9\" is not a node' $T/err"
run "$H" run clusters/counterexample.csv --source p2 --summary
check "--source p2" has "source p2" "$T/out"
# the lower bound's label is the formula of its value in the model; the
# optimum's reason names the bound it met
run "$H" run clusters/counterexample.csv -m sender-only --summary
check "sender-only: the lower bound s(source) = 1, labelled so; the optimum 2 not said to meet it" \
    sh -c "grep -q '^lower bound   1   (s(source): a transfer costs its sender.s send time only)\$' '$T/out' && grep -q '^optimum       2   (proven: the exact search.s slot bound is 2 before any branching, and a schedule meets it)' '$T/out'"
# the LP's reason when it gives up, whole in the note and the LP line (a
# fixed buffer cut them: "... do not ne)")
awk 'BEGIN{srand(3); n=120; print "from,to,time"; for(i=1;i<n;i++){p=int(rand()*i); s[p","i]=1; print "n" p ",n" i "," 1+int(rand()*50)} for(k=0;k<600;k++){a=int(rand()*n); b=int(rand()*n); if(a!=b && !((a","b) in s)){s[a","b]=1; print "n" a ",n" b "," 1+int(rand()*50)}}}' >"$T/lpgive.csv"
run "$H" run "$T/lpgive.csv" -s grow-tree --time-limit 1e-6 --summary
check "the LP gave up: its reason whole in the note and in the LP line" \
    sh -c "[ $rc -eq 0 ] && grep -q '^note .*binomial do not need it\$' '$T/out' && grep -q '^LP optimum    unknown   (the throughput linear program gave up .*binomial do not need it)\$' '$T/out'"
# a platform graph whose first node cannot reach c: --source c reaches all
printf 'from,to,time\na,b,1\nc,a,1\nc,b,1\n' >"$T/reach.csv"
run "$H" run "$T/reach.csv" --source c --summary
check "--source on a graph: reachability from the source given, not the file's" \
    sh -c "[ $rc -eq 0 ] && grep -q 'source c' '$T/out' && [ ! -s '$T/err' ]"
run "$H" run "$T/reach.csv" --source b --summary
check "--source on a graph that it cannot reach from: status 2, the nodes named from it" \
    sh -c "[ $rc -eq 2 ] && grep -q 'node a is not reachable from the source b' '$T/err'"
run "$H" run no/such/file.csv
check "missing file: status 2 with the path" sh -c "[ $rc -eq 2 ] && grep -q 'no/such/file.csv' $T/err"
run "$H" run
check "missing FILE: status 2" test $rc -eq 2
printf '# latency: 0\nname,send,recv\na,0.1,0.2\nb,0.1,0.2\n' >"$T/noise.csv"
run "$H" run "$T/noise.csv"
check "text: 0.1 + 0.2 reads 0.3 (no rounding noise for people)" has "^makespan      0.3$" "$T/out"
run "$H" run "$T/noise.csv" --format csv
check "csv: the exact double 0.30000000000000004" has ",0.30000000000000004$" "$T/out"
run "$H" runn clusters/counterexample.csv
check "a mistyped command: status 2, the list of commands" sh -c "[ $rc -eq 2 ] && grep -q 'unknown command runn; did you mean \"run\"? the commands are run, compare' $T/err"
run "$H" no-such-file.csv
check "the view on a missing file: status 2, says so (before asking for a terminal)" sh -c "[ $rc -eq 2 ] && grep -q 'no-such-file.csv: cannot open' $T/err"

printf 'name,send,recv\na,1,2\nb,abc,2\n' >"$T/bad.csv"
run "$H" run "$T/bad.csv"
check "bad csv: status 2" test $rc -eq 2
check "bad csv: file:line: column: problem" has "bad.csv:3: send: \"abc\" is not a number" "$T/err"

printf 'name,send,recv\nfast,1,5\nslow,2,3\n' >"$T/incons.csv"
run "$H" run "$T/incons.csv" --summary
check "inconsistent speeds: loads with a warning" sh -c "[ $rc -eq 0 ] && grep -q 'warning: .*not consistent' $T/err"

run "$H" run clusters/fig6-100.csv --summary
check "100-node cluster: summary, optimum not computed by default" sh -c "[ $rc -eq 0 ] && grep -q '^optimum *unknown' $T/out"

run "$H" run clusters/counterexample.csv --save-cluster "$T/saved.csv" --summary
run "$H" run "$T/saved.csv" --format json
check "--save-cluster writes a cluster that gives the same schedule" sh -c "grep -q '\"makespan\": 6' $T/out"

run "$H" experiment --list
check "experiment --list" sh -c "[ $rc -eq 0 ] && grep -q fnf-vs-random $T/out && grep -q counterexample $T/out"
run "$H" experiment fnf-vs-random --nodes 6:8 --runs 5 --format csv
check "experiment fnf-vs-random: CSV columns" has "^n,fnf,random_pair_mean,random_order_mean,lower_bound$" "$T/out"
check "experiment fnf-vs-random: one row per n, after the provenance lines" sh -c "[ \$(grep -vc '^#' $T/out) -eq 4 ] && grep -q '^# seed: 1$' $T/out"
run "$H" experiment fnf-vs-optimal --nodes 4:6 --runs 30
check "experiment fnf-vs-optimal: a summary" sh -c "[ $rc -eq 0 ] && grep -q 'FNF optimal' $T/out"
run "$H" experiment counterexample --nodes 3:5 --runs 200 --seed 2
cp "$T/out" "$T/worst.csv"
check "experiment counterexample: prints a cluster CSV" has "^# description: worst of 200" "$T/worst.csv"
run "$H" compare "$T/worst.csv" --summary
check "experiment counterexample: the CSV opens" test $rc -eq 0
run "$H" experiment nope
check "unknown study: status 2 with the list" sh -c "[ $rc -eq 2 ] && grep -q 'valid studies' $T/err"

# Figueira's trees (docs/trees.md)
run "$H" run clusters/figueira-table1.csv -s balanced-path --format json --summary
check "balanced-path on Table 1: tree_cost 3 in JSON" has '"tree_cost": 3' "$T/out"
run "$H" run clusters/figueira-table1.csv -s depth-first
check "depth-first on Table 1: tree cost 7 beside the makespan" sh -c "grep -q '^tree cost *7 ' $T/out && grep -q '^makespan *7$' $T/out"
run "$H" experiment figueira --nodes 32 --format csv
check "experiment figueira: CSV, its provenance, 4 topologies x 6 strategies" sh -c "[ $rc -eq 0 ] && grep -q '^# study: figueira$' $T/out && grep -v '^#' $T/out | head -1 | grep -q '^nodes,max_groups,topology,groups,strategy,tree_cost_hops,makespan_us,time_s$' && [ \$(grep -vc '^#' $T/out) -eq 25 ]"
cp "$T/out" "$T/fig.csv"
run "$H" experiment figueira --nodes 32 --format csv
check "experiment figueira: same seed, same output" cmp "$T/out" "$T/fig.csv"
# Figures 13-15's maxima allow the same LNOWs (at most hops + 1 groups): each
# setting still draws its own, alone or among the six
for G in 32 64 128; do
    "$H" experiment figueira --nodes 128 --groups $G --runs 50 --format csv | cut -d, -f3- | md5sum
done >"$T/fig.md5"
check "experiment figueira: the settings 128/32, 128/64, 128/128 draw distinct LNOWs" \
    test "$(sort -u "$T/fig.md5" | wc -l)" -eq 3
"$H" experiment figueira --format csv | grep '^128,64,' >"$T/fig6.csv"
"$H" experiment figueira --nodes 128 --groups 64 --format csv | grep '^128,64,' >"$T/fig1.csv"
check "experiment figueira: a setting draws the same LNOWs alone or among the six" \
    sh -c "test -s '$T/fig1.csv' && cmp '$T/fig6.csv' '$T/fig1.csv'"
run "$H" experiment figueira --groups 0
check "experiment figueira: a bad option value, status 2" sh -c "[ $rc -eq 2 ] && grep -q -- '--groups: \"0\" is not an integer' $T/err"

# Personalized exchange (docs/exchange.md)
run "$H" run clusters/counterexample.csv --pattern all-to-all -m sync
check "exchange: sync caterpillar, completion 10 = the lower bound" sh -c "[ $rc -eq 0 ] && grep -q '^completion *10$' $T/out && grep -q '^lower bound *10 ' $T/out"
check "exchange: the table of sending orders" has "^   2  p1   p2   p0$" "$T/out"
check "exchange: p0 sits idle [4, 5) waiting for p2" has "p0 *p2 *3 *\[4, 5)" "$T/out"
run "$H" run clusters/counterexample.csv --pattern all-to-all -m sync --format json --summary
cat >"$T/want.json" <<JSON
{"format_version": 2, "hetcast": "$V", "cluster": "counterexample", "model": "sync", "scheduler": "caterpillar", "pattern": "all-to-all", "nodes": 3, "seed": 1,
 "completion": 10, "lower_bound": 10, "waits": 1, "idle": 1}
JSON
check "exchange json: completion and lower_bound, no makespan" cmp "$T/out" "$T/want.json"
"$H" run clusters/counterexample.csv --pattern all-to-all -m sync --format csv >"$T/x.csv"
"$H" run clusters/counterexample.csv --pattern all-to-all -m sync --format json >"$T/x.json"
check "exchange json: each transfer has the CSV's port times, link_start and recv_start too" python3 -c "
import csv, json
rows = list(csv.DictReader(l for l in open('$T/x.csv') if not l.startswith('#')))
tr = json.load(open('$T/x.json'))['transfers']
assert len(rows) == len(tr) == 6
for r, t in zip(rows, tr):
    for k in ('wait_start', 'send_start', 'send_end', 'link_start', 'link_end', 'recv_start', 'recv_end'):
        assert float(r[k]) == t[k], (k, r, t)"
run "$H" run clusters/counterexample.csv --pattern all-to-some --receivers p2 --format csv
check "exchange csv: two transfers to p2, with wait_start" sh -c "head -1 $T/out | grep -q '^# format_version: 2$' && sed -n 3p $T/out | grep -q '^scheduler,seq,from,to,step,wait_start,' && [ \$(grep -c ',p2,' $T/out) -eq 2 ]"
run "$H" run clusters/counterexample.csv -s caterpillar
check "an exchange order without --pattern: status 2, says so" sh -c "[ $rc -eq 2 ] && grep -q 'use it with --pattern' $T/err"
run "$H" run clusters/counterexample.csv --pattern all-to-all -s fnf
check "a broadcast scheduler with --pattern: status 2, lists the valid" sh -c "[ $rc -eq 2 ] && grep -q 'valid schedulers are: random, caterpillar, rspb, orspb, matching, greedy, open-shop' $T/err"
run "$H" run clusters/counterexample.csv --pattern all-to-some
check "all-to-some without --receivers: status 2" sh -c "[ $rc -eq 2 ] && grep -q -- '--receivers' $T/err"
run "$H" experiment alltoall --groups 4 --runs 3 --format csv
check "experiment alltoall: its provenance, Table 8's points, all in 992..1001" sh -c "[ $rc -eq 0 ] && grep -q '^# seed: 1$' $T/out && [ \$(grep -vc '^#' $T/out) -eq 25 ] && grep -v '^#' $T/out | awk -F, 'NR > 1 && (\$8 < 992 || \$8 > 1001) { bad = 1 } END { exit bad }'"

run "$H" run clusters/platform-small.csv --summary
check "no -s on a platform graph: a scheduler that works (fef), status 0" sh -c "[ $rc -eq 0 ] && grep -q 'scheduler: fef' $T/out"

# GNU option forms (getopt_long): the same results as the spaced forms.
run "$H" run clusters/counterexample.csv --format json --summary
cp "$T/out" "$T/spaced.json"
run "$H" run --format=json --summary clusters/counterexample.csv
check "--format=json (options before FILE): the same JSON" sh -c "[ $rc -eq 0 ] && cmp -s $T/out $T/spaced.json"
run "$H" run -sfnf clusters/counterexample.csv --form=json --summary
check "-sfnf and an abbreviated --form=json: the same JSON" sh -c "[ $rc -eq 0 ] && cmp -s $T/out $T/spaced.json"
run "$H" run -s slowest-first clusters/counterexample.csv --summary
check "-s slowest-first: its scheduler" sh -c "[ $rc -eq 0 ] && grep -q 'scheduler: slowest-first' $T/out"
run "$H" run --summary -- clusters/counterexample.csv
check "-- before FILE: FILE is read" sh -c "[ $rc -eq 0 ] && grep -q '^makespan *6$' $T/out"
cp clusters/counterexample.csv "$T/-dash.csv"
( cd "$T" && "$H" run --summary -- -dash.csv ) >"$T/out" 2>"$T/err"; rc=$?
check "-- before a FILE that starts with -: read as a file" sh -c "[ $rc -eq 0 ] && grep -q '^makespan *6$' $T/out"
run "$H" run --summary -- clusters/counterexample.csv --format=json
check "after --, an option is an operand: refused as a second FILE" sh -c "[ $rc -eq 2 ] && grep -q 'unexpected argument \"--format=json\"' $T/err"
run "$H" run --help
check "run --help: the usage, status 0" sh -c "[ $rc -eq 0 ] && grep -q 'hetcast run FILE' $T/out && grep -q -- '--format F' $T/out"
run "$H" compare -h
check "compare -h: the usage, status 0" sh -c "[ $rc -eq 0 ] && grep -q 'hetcast compare FILE' $T/out"
"$H" run - --summary <clusters/counterexample.csv >"$T/out" 2>"$T/err"; rc=$?
check "run -: the cluster from standard input" sh -c "[ $rc -eq 0 ] && grep -q '^makespan *6$' $T/out && grep -q '3 nodes, source p0' $T/out"
printf 'name,send,recv\np0,1,oops\n' | "$H" run - >"$T/out" 2>"$T/err"; rc=$?
check "run - with a bad row: status 2, <stdin>:2 named" sh -c "[ $rc -eq 2 ] && grep -q '<stdin>:2' $T/err"
run "$H" run clusters/counterexample.csv --fromat json
check "a mistyped long option: status 2 and the valid list" sh -c "[ $rc -eq 2 ] && grep -q 'unknown option --fromat; did you mean \"--format\"? valid options: -s, -m, --seed' $T/err"
run "$H" run clusters/counterexample.csv --seed
check "an option without its value: status 2, names it" sh -c "[ $rc -eq 2 ] && grep -q 'option --seed needs a value' $T/err"
run "$H" run clusters/counterexample.csv -s optimal --node-limit 1e30 --summary
check "--node-limit 1e30: capped, no overflow, status 0" sh -c "[ $rc -eq 0 ] && grep -q '^makespan *5$' $T/out"
run "$H" experiment figueira --groups=0
check "experiment options take --opt=value too: --groups=0 refused" sh -c "[ $rc -eq 2 ] && grep -q -- '--groups: \"0\" is not an integer' $T/err"
run "$H" bench --only=bogus
check "bench --only=bogus: status 2, lists the figures" sh -c "[ $rc -eq 2 ] && grep -q 'engine, csv, optimal' $T/err"
run "$H" -
check "the view on -: status 2, says why" sh -c "[ $rc -eq 2 ] && grep -q 'reads its keys from standard input' $T/err"

# a send of no time under sync; the optimum is 2 in either row order.
printf 'name,send,recv\np0,0,2\np1,1,1\np2,0,2\np3,1,0\n' | "$H" run - -s optimal -m sync --summary >"$T/out" 2>"$T/err"
check "sync, zero-cost send, rows p0..p3: proven optimum 2" sh -c "grep -q '^makespan *2$' $T/out && grep -q '^optimum *2 *(proven' $T/out"
printf 'name,send,recv\np0,0,2\np3,1,0\np2,0,2\np1,1,1\n' | "$H" run - -s optimal -m sync --summary >"$T/out" 2>"$T/err"
check "the same cluster, rows p0 p3 p2 p1: proven optimum 2" sh -c "grep -q '^makespan *2$' $T/out && grep -q '^optimum *2 *(proven' $T/out"

# run --format csv writes its rows as a lean engine books them;
# compare writes them from the full engine's records: the same bytes, for
# every lean scheduler and both kinds of name (plain, and ones to quote)
awk 'BEGIN { srand(5); print "# latency: 1"; print "name,send,recv"
             for (i = 0; i < 3000; i++) { s = int(100 + rand() * 900) / 100
                 printf "%s,%.2f,%.2f\n", (i % 7 == 3 ? "\"n, " i "\"" : "n" i), s, s + (i % 3) } }' >"$T/r3000.csv"
same=0
for s in fnf slowest-first random-pair random-order fef; do
    for m in async sender-only sync; do
        "$H" run "$T/r3000.csv" -s $s -m $m --seed 4 --format csv >"$T/stream.csv" 2>/dev/null
        "$H" compare "$T/r3000.csv" -s $s -m $m --seed 4 --format csv >"$T/full.csv" 2>/dev/null
        [ -s "$T/full.csv" ] && cmp -s "$T/stream.csv" "$T/full.csv" && same=$((same + 1))
    done
done
check "run --format csv (streamed from the lean engine) = compare's rows from records, 15 runs" test $same -eq 15
# run --format json, svg and paje keep a lean run's bookings in a temporary
# file and write from it; compare writes from the full engine's records: the
# same bytes (compare's JSON is run's inside {"format_version": 2, "hetcast": V, "runs": [ ]})
same=0
for s in fnf slowest-first random-pair random-order fef; do
    for m in async sender-only sync; do
        for f in json svg paje; do
            "$H" run "$T/r3000.csv" -s $s -m $m --seed 4 --format $f >"$T/stream.out" 2>/dev/null
            "$H" compare "$T/r3000.csv" -s $s -m $m --seed 4 --format $f >"$T/full.out" 2>/dev/null
            [ $f = json ] && sed -i '1s/^{"format_version": 2, "hetcast": "[^"]*", "runs": \[//; $d' "$T/full.out"
            [ -s "$T/full.out" ] && cmp -s "$T/stream.out" "$T/full.out" && same=$((same + 1))
        done
    done
done
check "run --format json, svg, paje (lean run, bookings in a temporary file) = compare's from records, 45 runs" test $same -eq 45
"$H" run "$T/r3000.csv" --format svg --svg-nodes critical >"$T/stream.out" 2>/dev/null
"$H" compare "$T/r3000.csv" -s fnf --format svg --svg-nodes critical >"$T/full.out" 2>/dev/null
check "run --format svg --svg-nodes critical, streamed = from records" cmp -s "$T/stream.out" "$T/full.out"
# without a place for the temporary file, the full engine writes the same bytes
"$H" run "$T/r3000.csv" --format paje >"$T/stream.out" 2>"$T/err"
TMPDIR="$T/no-such-dir" "$H" run "$T/r3000.csv" --format paje >"$T/full.out" 2>>"$T/err"
check "run --format paje with TMPDIR missing: the same trace, no message" \
    sh -c "cmp -s $T/stream.out $T/full.out && ! grep -q hetcast: $T/err"
printf 'name,send,recv\na,1,2\n' | "$H" run - --format csv >"$T/out" 2>/dev/null
check "run --format csv of one node: the versions and the header alone" sh -c "[ \$(wc -l <$T/out) -eq 3 ] && grep -q '^scheduler,seq,from' $T/out"

# --output names smpi's directory: without --format it is refused, never ignored
run "$H" run clusters/counterexample.csv --output "$T/out.svg"
check "run --output FILE.svg without --format: status 2, gives the command, writes nothing" \
    sh -c "[ $rc -eq 2 ] && grep -qF -- '--format svg > $T/out.svg' $T/err && [ ! -e $T/out.svg ] && [ ! -s $T/out ]"
run "$H" compare clusters/counterexample.csv --pattern all-to-all --output "$T/dir"
check "compare --pattern --output DIR without --format: status 2, names the formats that write a directory" \
    sh -c "[ $rc -eq 2 ] && grep -qF -- 'add --format otf2 or smpi' $T/err && [ ! -e $T/dir ]"

run "$H" lesson lua/lessons/fnf-loses.lua lua/lessons/port-models.lua --print
check "lesson --print takes several lessons: both handouts" sh -c "[ $rc -eq 0 ] && [ \$(grep -c '^# ' $T/out) -eq 2 ]"
run "$H" lesson lua/lessons/fnf-loses.lua lua/lessons/port-models.lua
check "lesson without --print: one at a time, status 2" sh -c "[ $rc -eq 2 ] && grep -q 'one lesson at a time' $T/err"
run "$H" lesson --prnt lua/lessons/fnf-loses.lua
check "lesson: a mistyped option gets the valid list" sh -c "[ $rc -eq 2 ] && grep -q 'valid options: -p' $T/err"

# the affine cost model (alpha + size x beta) on a platform graph, --size.
printf 'from,to,alpha,beta,bidirectional\ns,a,1,0.5,1\na,b,2,0.25,1\ns,b,10,,\n' >"$T/affine.csv"
run "$H" run "$T/affine.csv" -s grow-tree --summary
check "affine graph, size 1: period 2.25 (s -> a -> b)" sh -c "[ $rc -eq 0 ] && grep -q 'period 2.25 set by a' $T/out && [ ! -s $T/err ]"
run "$H" run "$T/affine.csv" -s grow-tree --summary --size 100
check "affine graph, --size 100: period 27 (s -> b -> a), no warning" sh -c "[ $rc -eq 0 ] && grep -q 'period 27 set by b' $T/out && [ ! -s $T/err ]"
run "$H" run "$T/affine.csv" --size 1e99 --summary
check "affine graph, --size 1e99: times up to 2.5e98, still in range" test "$rc" -eq 0
run "$H" run "$T/affine.csv" --size 1e101 --summary
check "affine graph, --size 1e101: an edge beyond 1e100 is refused, status 2, naming it" sh -c "[ $rc -eq 2 ] && grep -q 'edge s -> a would take' $T/err && [ ! -s $T/out ]"
printf 'from,to,time,alpha\ns,a,1,2\n' >"$T/both.csv"
run "$H" run "$T/both.csv"
check "an edge with a time and an alpha: file, line and column, status 2" sh -c "[ $rc -eq 2 ] && grep -q 'both.csv:2: time: an edge has a time or an affine alpha and beta, not both' $T/err"

# Liu, Wang & Guo's theorems on random clusters.
run "$H" experiment fnf-theorems --runs 60 --classes 0
check "fnf-theorems: Theorem 3 on all 60 clusters, Theorem 2 on every consistent transform, 2T + beta" \
    sh -c "[ $rc -eq 0 ] && grep -Eq '^Theorem 3 .* on 60 of 60 ' $T/out && grep -Eq '^Theorem 2 .* on ([0-9]+) of \\1 ' $T/out && grep -Eq '^Theorem 4 .* on ([0-9]+) of \\1 ' $T/out"
run "$H" experiment fnf-theorems --nodes 3:11
check "fnf-theorems --nodes 3:11: refused (at most 10), status 2" sh -c "[ $rc -eq 2 ] && grep -q 'at most 10' $T/err"

# --certify: the search's optimum proved again by an integer program (GLPK).
run "$H" run clusters/counterexample.csv --certify
check "--certify: the integer program finds the same optimum 5" sh -c "[ $rc -eq 0 ] && grep -q '^certified *5 *(an integer program of 8 binaries, solved by GLPK in .* finds the same optimum)$' $T/out"
run "$H" compare clusters/counterexample.csv -s fnf -s optimal -m one-port --certify
check "--certify, compare one-port: certified 9" sh -c "[ $rc -eq 0 ] && grep -q '^certified *9 ' $T/out"
run "$H" run clusters/counterexample.csv --certify --format csv
check "--certify with --format csv: refused, status 2, output untouched" sh -c "[ $rc -eq 2 ] && grep -q 'leave out --format' $T/err && [ ! -s $T/out ]"
run "$H" run clusters/fig6-100.csv --certify
check "--certify on 100 nodes: refused before the run, status 2" sh -c "[ $rc -eq 2 ] && grep -q 'up to 10 nodes (clusters/fig6-100.csv has 100)' $T/err && [ ! -s $T/out ]"
run "$H" run clusters/counterexample.csv --certify-lp "$T/cx.lp"
check "--certify-lp: a CPLEX LP file, minimising the makespan C over x_q_p_k" sh -c "[ $rc -eq 0 ] && grep -q '^Minimize' $T/cx.lp && grep -q ' + C$' $T/cx.lp && grep -q 'served_1: .*x_0_1_1' $T/cx.lp && grep -q '^End' $T/cx.lp"
run "$H" run clusters/counterexample.csv --certify-lp /nonexistent/dir/cx.lp
check "--certify-lp into a missing folder: status 1, the path named" sh -c "[ $rc -eq 1 ] && grep -q '/nonexistent/dir/cx.lp' $T/err"

done_testing
