#!/bin/sh
# studies.sh - a study run in pieces prints what the whole run prints (TAP;
# docs/studies.md): for fnf-vs-optimal and fnf-vs-random (fnf-theorems more
# briefly), --shard I/N for
# N = 1, 3, 7 merged by `experiment merge` gives the single run's bytes in
# text, CSV and JSON; merge refuses a missing, a duplicate, a foreign and a
# cut part with one message naming the file (status 2); --jobs 2 equals
# --jobs 1; a --resume run killed half-way and run again equals the single
# run without redoing its finished blocks; `mpirun -n 3 hetcast-mpi
# experiment` equals the single run (skipped without MPI); CSV and JSON carry
# the provenance; no progress line when stderr is not a terminal.
# $HETCAST is hetcast, $HETCAST_MPI hetcast-mpi (may be absent).
. tests/tap.sh

OPT="fnf-vs-optimal --nodes 4:9 --runs 40"
RND="fnf-vs-random --nodes 6:12 --runs 10"
for study in "$OPT" "$RND"; do
    sname=${study%% *}
    for f in text csv json; do
        # shellcheck disable=SC2086
        "$H" experiment $study --format $f >"$T/whole.$f" 2>"$T/err.whole"
    done
    check "$sname: the single run says nothing on stderr (not a terminal: no progress)" test ! -s "$T/err.whole"
    for N in 1 3 7; do
        rm -f "$T"/part*
        i=1
        while [ $i -le $N ]; do
            # shellcheck disable=SC2086
            "$H" experiment $study --shard $i/$N >"$T/part$i.csv"
            i=$((i + 1))
        done
        for f in text csv json; do
            # the parts in reverse order: merge puts them in place
            run "$H" experiment merge --format $f $(ls -r "$T"/part*.csv)
            check "$sname: $N shards merged, $f: the single run's bytes" cmp "$T/out" "$T/whole.$f"
        done
    done
    # shellcheck disable=SC2086
    run "$H" experiment $study --jobs 2 --format csv
    check "$sname: --jobs 2 equals --jobs 1" cmp "$T/out" "$T/whole.csv"
    check "$sname: CSV carries the provenance" sh -c "grep -q '^# hetcast: ' '$T/whole.csv' && grep -q '^# study: $sname$' '$T/whole.csv' && grep -q '^# options: --nodes ' '$T/whole.csv' && grep -q '^# seed: 1$' '$T/whole.csv' && grep -q '^# shard: 1/1$' '$T/whole.csv'"
    check "$sname: JSON carries the provenance" sh -c "grep -q '\"hetcast\": \"[0-9.]*\", \"study\": \"$sname\", \"options\": \"--nodes [^\"]*\", \"seed\": 1, \"trials\": [0-9]*, \"shard\": \"1/1\"' '$T/whole.json'"
done

# a third study of trials: 3 shards merged and --jobs 2, in JSON
"$H" experiment fnf-theorems --runs 40 --format json >"$T/thm.json"
for i in 1 2 3; do "$H" experiment fnf-theorems --runs 40 --shard $i/3 >"$T/thm$i.csv"; done
run "$H" experiment merge --format json "$T"/thm*.csv
check "fnf-theorems: 3 shards merged, json: the single run's bytes" cmp "$T/out" "$T/thm.json"
run "$H" experiment fnf-theorems --runs 40 --format json --jobs 2
check "fnf-theorems: --jobs 2 equals --jobs 1" cmp "$T/out" "$T/thm.json"

# merge's refusals: the parts of the last 7-way split of fnf-vs-random
# shellcheck disable=SC2086
"$H" experiment $RND --seed 2 --shard 3/7 >"$T/foreign.csv"
run "$H" experiment merge "$T/part1.csv" "$T/part2.csv" "$T/part4.csv" "$T/part5.csv" "$T/part6.csv" "$T/part7.csv"
check "merge: a missing part, status 2" test "$rc" -eq 2
check "merge: a missing part: one line naming it" sh -c "test \$(wc -l <'$T/err') -eq 1 && grep -q 'part 3/7 of this run is missing' '$T/err'"
run "$H" experiment merge "$T"/part*.csv "$T/part5.csv"
check "merge: a duplicate part, status 2, naming the file" sh -c "[ $rc -eq 2 ] && grep -q 'part5.csv: part 5/7 again' '$T/err' && test ! -s '$T/out'"
run "$H" experiment merge "$T/part1.csv" "$T/part2.csv" "$T/foreign.csv" "$T/part4.csv" "$T/part5.csv" "$T/part6.csv" "$T/part7.csv"
check "merge: a part of another run (--seed 2), status 2, naming the file" sh -c "[ $rc -eq 2 ] && grep -q 'foreign.csv: a part of another run (another seed than .*part1.csv)' '$T/err'"
head -n 12 "$T/part4.csv" >"$T/cut.csv"
run "$H" experiment merge "$T/part1.csv" "$T/part2.csv" "$T/part3.csv" "$T/cut.csv" "$T/part5.csv" "$T/part6.csv" "$T/part7.csv"
check "merge: a part cut short, status 2, naming the file" sh -c "[ $rc -eq 2 ] && grep -q 'cut.csv: cut short' '$T/err'"
run "$H" experiment merge "$T/whole.csv"
check "merge: a study's output is not a part, status 2" sh -c "[ $rc -eq 2 ] && grep -q 'whole.csv: line 1: not a part file' '$T/err'"
run "$H" experiment merge "$T/nonexistent.csv"
check "merge: a missing file, status 2" sh -c "[ $rc -eq 2 ] && grep -q 'nonexistent.csv: cannot read it' '$T/err'"
run "$H" experiment fnf-vs-optimal --shard 4/3
check "--shard 4/3 refused, status 2" sh -c "[ $rc -eq 2 ] && grep -q -- '--shard: \"4/3\" is not I/N' '$T/err'"
run "$H" experiment figueira --jobs 2
check "a study of its own options refuses --jobs (status 2)" test "$rc" -eq 2

# --resume: a run killed half-way, then run again
SLOW="fnf-vs-optimal --nodes 20 --classes 0 --runs 240 --format csv --quiet"
# shellcheck disable=SC2086
"$H" experiment $SLOW --jobs 2 >"$T/slow.csv"
# shellcheck disable=SC2086
"$H" experiment $SLOW --resume "$T/R" >/dev/null 2>&1 &
pid=$!
i=0
while [ "$(ls "$T/R" 2>/dev/null | wc -l)" -lt 40 ] && [ $i -lt 300 ]; do
    sleep 0.05
    i=$((i + 1))
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
ls "$T/R" | grep -c '^block-' >"$T/nblocks"
check "resume: killed with some of its 240 blocks done ($(cat "$T/nblocks"))" test "$(cat "$T/nblocks")" -ge 40 -a "$(cat "$T/nblocks")" -lt 240
ls -l --time-style=+%s.%N "$T/R" | grep ' block-' >"$T/before"
# what a kill -9 while saving a block leaves (support/atomic.c's temporary name), and a file of the user's
: >"$T/R/.block-0239.csv.Ab12Cd"
: >"$T/R/.block-0239.csv.mine"
# shellcheck disable=SC2086
run "$H" experiment $SLOW --resume "$T/R"
check "resume: equals the single run" cmp "$T/out" "$T/slow.csv"
check "resume: a block's temporary file left by a kill is removed, nothing else" \
    sh -c "test ! -e '$T/R/.block-0239.csv.Ab12Cd' && test -e '$T/R/.block-0239.csv.mine' && test -z \"\$(ls -A '$T/R' | grep -v -x -e 'block-[0-9]*\.csv' -e '\.block-0239\.csv\.mine')\""
ls -l --time-style=+%s.%N "$T/R" | grep ' block-' >"$T/after"
check "resume: the finished blocks were not run again (kept as they were)" sh -c "grep -v -x -F -f '$T/after' '$T/before' | grep -q . && exit 1 || exit 0"
run "$H" experiment merge "$T"/R/block-*.csv --format csv
check "resume: its block files merge to the single run too" cmp "$T/out" "$T/slow.csv"

# shellcheck disable=SC2086
run "$H" experiment $SLOW --seed 2 --resume "$T/R"
check "resume: the folder of another run (--seed 2) refused, status 2, naming a block" sh -c "[ $rc -eq 2 ] && grep -q 'R/block-0001.csv: a block of another run' '$T/err' && test ! -s '$T/out'"
check "resume: said by the study run, not by merge" grep -q '^hetcast experiment fnf-vs-optimal: ' "$T/err"

# a process of --jobs killed from outside: the run fails (status 1) and says so
# shellcheck disable=SC2086
"$H" experiment $SLOW --jobs 2 >"$T/out" 2>"$T/err" &
pid=$!
i=0
kid=
while [ -z "$kid" ] && [ $i -lt 100 ]; do
    kid=$(pgrep -P $pid | head -n 1)
    sleep 0.05
    i=$((i + 1))
done
[ -n "$kid" ] && kill -9 "$kid"
wait $pid
rc=$?
check "--jobs: a process killed (signal 9): status 1, said, nothing printed" sh -c "[ $rc -eq 1 ] && grep -q 'a process of --jobs was ended by signal 9' '$T/err' && test ! -s '$T/out'"

# a trial that hits its node limit is counted, not dropped
run "$H" experiment fnf-vs-optimal --nodes 26 --classes 0 --runs 2 --node-limit 5 --format csv
check "node limit: the trials that gave up are counted" sh -c "[ $rc -eq 0 ] && tail -n 1 '$T/out' | grep -q ',2\$'"

# MPI: the farm prints the single run's bytes
M=${HETCAST_MPI:-}
if [ -z "$M" ] || ! command -v mpirun >/dev/null 2>&1; then
    skip "mpirun -n 3 hetcast-mpi experiment equals the single run" "no hetcast-mpi or mpirun"
else
    # Open MPI's own allocations are not ours to free (tests/mpi.sh)
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0
    MPIRUN="mpirun -q --oversubscribe --mca btl_vader_single_copy_mechanism none"
    for f in text json; do
        # shellcheck disable=SC2086
        "$H" experiment $OPT --format $f >"$T/whole.$f"
        # shellcheck disable=SC2086
        run timeout 120 $MPIRUN -n 3 "$M" experiment $OPT --format $f
        if [ "$rc" -ne 0 ] && ! grep -q '^hetcast' "$T/err"; then
            skip "mpirun -n 3 hetcast-mpi experiment, $f" "MPI cannot start here (status $rc)"
        else
            check "mpirun -n 3 hetcast-mpi experiment fnf-vs-optimal, $f: the single run's bytes" cmp "$T/out" "$T/whole.$f"
        fi
    done
    run "$M" experiment --help
    check "hetcast-mpi experiment --help without mpirun: its usage, status 0" sh -c "[ $rc -eq 0 ] && grep -q 'usage: mpirun -n N hetcast-mpi experiment NAME' '$T/out'"
    run timeout 120 $MPIRUN -n 2 "$M" experiment figueira
    check "hetcast-mpi experiment figueira: refused once, status 2" sh -c "[ $rc -eq 2 ] && [ \$(grep -c 'not under MPI' '$T/err') -eq 1 ]"
fi
done_testing
