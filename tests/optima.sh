#!/bin/sh
# optima.sh - the benchmark set and the guarantees (TAP; docs/optima.md,
# docs/models.md): `experiment optima` writes a set that optima-check reads
# back (every schedule replayed to its listed makespan and sum, every optimum
# proven again by the search and certified by GLPK); a set written in shards
# and merged is the same files; a tampered schedule or optimum is named by
# file and line (status 1); `experiment algorithms` finds every stated
# guarantee held (status 0) and names a broken one (a conjecture that fnf's
# sender-only makespan is optimal, refuted on clusters/khuller-kim.csv,
# status 1).  $HETCAST is hetcast.
. tests/tap.sh

SET="--nodes 3:5 --runs 2 --models async,sender-only,one-port"
mkdir "$T/one" "$T/two" "$T/three"
# shellcheck disable=SC2086
run sh -c "cd '$T/one' && '$H' experiment optima $SET --out set"
check "optima: writes its set (status 0)" test "$rc" -eq 0
rows=$(grep -c '^n0' "$T/one/set/index.csv")
check "optima: index.csv lists 3 sizes x 2 clusters x 3 models = 18 schedules" test "$rows" -eq 18
check "optima: a cluster file and a schedule file a row" test -s "$T/one/set/n04-002.csv" -a -s "$T/one/set/n04-002.one-port.csv"
check "optima: index.csv carries the provenance" has '^# options: --nodes 3:5 --runs 2 --models async,sender-only,one-port' "$T/one/set/index.csv"
run "$H" experiment optima-check "$T/one/set" --certify-max 5
check "optima-check: every row replayed, proven again and certified (status 0)" test "$rc" -eq 0
check "optima-check: says how many" has '^18 schedules checked: 18 proven optima found again by the search, 18 certified by GLPK' "$T/out"

# the same set in two shards and a merge
i=1
while [ $i -le 2 ]; do
    (cd "$T/two" && "$H" experiment optima $SET --out set --shard $i/2 >"$T/part$i.csv")
    i=$((i + 1))
done
(cd "$T/two" && "$H" experiment merge --format csv "$T/part2.csv" "$T/part1.csv" >"$T/out")
check "optima: two shards merged write the single run's files" diff -r "$T/one/set" "$T/two/set"
(cd "$T/three" && "$H" experiment optima $SET --out set --format csv >"$T/whole.csv")
check "optima: merge prints what the single run prints" cmp "$T/out" "$T/whole.csv"

# tampered: a schedule's hold time, an optimum in the index
cp -r "$T/one/set" "$T/bad"
sed -i '0,/^2,/s/^\(2,[^,]*,[^,]*,[^,]*\),\(.*\)$/\1,999/' "$T/bad/n05-001.async.csv"
run "$H" experiment optima-check "$T/bad" --certify-max 0
check "optima-check: a schedule that does not replay: status 1" test "$rc" -eq 1
check "optima-check: names its file and line" has "bad/n05-001.async.csv:7: the engine starts it at" "$T/err"
cp "$T/one/set/n05-001.async.csv" "$T/bad/n05-001.async.csv"
awk -F, 'BEGIN { OFS = "," } $1 == "n03-001.csv" && $3 == "sender-only" { $7 = $7 - 1; $8 = $7 } { print }' \
    "$T/one/set/index.csv" >"$T/bad/index.csv"
run "$H" experiment optima-check "$T/bad" --certify-max 3
check "optima-check: an optimum below the proven one: status 1" test "$rc" -eq 1
check "optima-check: the search and GLPK both disagree with it" sh -c \
    "grep -q 'n03-001.csv under sender-only: the search proves' '$T/err' && grep -q 'the integer program' '$T/err'"
# times drawn in steps of 0.1 add up to 27.300000000000004: the files write them as run prints them
run "$H" experiment optima --out "$T/cont" --nodes 5:5 --runs 4 --classes 0 --models one-port,async --quiet
check "optima: no time written with a sum's rounding (27.3, not 27.300000000000004)" \
    sh -c "[ $rc -eq 0 ] && ! grep -rqE '[0-9]\.[0-9]*(000000|999999)[0-9]' '$T/cont'"
m3=$(sed -n 's/^# makespan: //p' "$T/cont/n05-003.one-port.csv")
"$H" run "$T/cont/n05-003.csv" -m one-port -s optimal --summary >"$T/run3"
check "optima: the makespan a schedule file gives is the one run prints ($m3)" \
    grep -q "^makespan *$m3\$" "$T/run3"
run "$H" experiment optima-check "$T/cont"
check "optima-check: a set of such times checks (status 0)" test "$rc" -eq 0
# a search that gives up: its best schedule and its bound, marked as such
run "$H" experiment optima --out "$T/hard" --nodes 24:24 --runs 2 --models sync --classes 0 --node-limit 1000
gave=$(grep -c ',sync,24,[0-9]*,gave-up,' "$T/hard/index.csv")
check "optima: a search stopped at --node-limit is listed gave-up (2 of 2)" test "$gave" -eq 2
check "optima: its schedule says it is not proven and gives the bound" sh -c \
    "grep -q '^# schedule: the best the exact search found before its limit (not proven)' '$T/hard/n24-001.sync.csv' && grep -q '^# lower bound: ' '$T/hard/n24-001.sync.csv'"
bounds_ok=$(awk -F, '$6 == "gave-up" && $8 < $7 { k++ } END { print k + 0 }' "$T/hard/index.csv")
check "optima: a gave-up row's lower bound lies below its best" test "$bounds_ok" -eq 2
run "$H" experiment optima-check "$T/hard" --node-limit 20000
check "optima-check: a set with gave-up rows checks (status 0)" test "$rc" -eq 0
run "$H" experiment optima --nodes 3:4
check "optima: without --out, status 2 and why" sh -c "[ $rc -eq 2 ] && grep -q 'out DIR' '$T/err'"
run "$H" experiment optima --out "$T/x" --models one-port-uni
check "optima: a model node tables do not take: status 2" sh -c "[ $rc -eq 2 ] && grep -q 'one-port-uni' '$T/err'"

# the guarantees
run "$H" experiment algorithms --nodes 3:4 --runs 1 --max-nodes 6 --format csv
check "algorithms: every stated guarantee held (status 0)" test "$rc" -eq 0
check "algorithms: fnf's Khuller & Kim guarantees are rows" sh -c \
    "grep -q '^fnf,sender-only,makespan,1.5,\"Khuller & Kim 2007\"' '$T/out' && grep -q '^fnf,sender-only,sum,1,' '$T/out'"
check "algorithms: the schedulers of the registry are rows" sh -c \
    "grep -q '^binomial,' '$T/out' && grep -q '^knomial,' '$T/out' && grep -q '^optimal-sum,' '$T/out'"
held_bad=$(awk -F, 'NR > 2 && $10 != "" { split($10, a, "/"); if (a[1] != a[2]) print }' "$T/out" | grep -c . || true)
check "algorithms: every guarantee row held on every cluster it was checked on" test "$held_bad" -eq 0
run "$H" experiment algorithms --no-bundled --nodes 3:3 --runs 1 --models sender-only \
    --claim fnf:makespan:sender-only:1 clusters/khuller-kim.csv
check "algorithms: a conjecture broken by a run: status 1" test "$rc" -eq 1
check "algorithms: names the scheduler, model, cluster and ratio" has \
    "fnf's makespan under sender-only on khuller-kim is 1.14286 x the least, above its guarantee 1 (--claim)" "$T/err"
run "$H" experiment algorithms --no-bundled --nodes 3:3 --runs 1 clusters/multicast.csv
check "algorithms: a multicast file is refused: status 2" test "$rc" -eq 2
check "algorithms: says it is a multicast" has "clusters/multicast.csv: a multicast" "$T/err"
run "$H" experiment algorithms --claim nosuch:makespan:async:1
check "algorithms: an unknown scheduler in --claim: status 2" test "$rc" -eq 2
done_testing
