#!/bin/sh
# tests/mutate.sh - how strong the suite is on the simulation's core: a
# fixed, seeded set of mutants of the given C files (a comparison flipped,
# a statement dropped, an integer constant changed), each built and run
# against the tests, counted killed or surviving (docs/reliability.md).
# Not part of test.sh: it rebuilds once a mutant and takes long.
#
#   tests/mutate.sh [-V] [-n COUNT] [-s SEED] [FILE...]
#   tests/mutate.sh -l ...      list the mutants drawn (no build, no test)
#
# FILE defaults to src/engine/*.c src/model/timing.c src/sched/optimal*.c;
# COUNT (default 48) mutants that compile are drawn with SEED (default 1),
# the kinds taken in turn.  Each mutant is put in place in the source, built,
# and run against the tiers, the shared ones first, until one kills it:
#   core        the core tests that include an engine, timing or optimal
#               header, in build/ (the quick ones first);
#   cli-asan    the cli, optima and simgrid-shared tests in build-asan/;
# then, for the arrangement before test.sh's tiers (every test in build/
# and again in build-asan/), what it ran beside them:
#   cli-normal  the same in build/;
#   core-asan   the core tests above in build-asan/.
# The core tests under valgrind run at the same (small) scale in both
# arrangements, so they cannot tell them apart; -V runs them too (last,
# for both), for the absolute count.  A test that outlasts its time (300 s
# in build/, 600 s in build-asan/, 1200 s under valgrind; a loop that no
# longer ends) kills the mutant.
# The files are restored after each mutant and at exit.  Needs build/ and
# build-asan/ set up (./test.sh does).  Prints one line a mutant and the
# totals, also kept in build/mutants.txt.
set -u
cd "$(dirname "$0")/.."
count=48
seed=1
list=no
valgrind=no
while getopts ln:s:V o; do
    case $o in
        l) list=yes ;;
        V) valgrind=yes ;;
        n) count=$OPTARG ;;
        s) seed=$OPTARG ;;
        *) echo "usage: tests/mutate.sh [-l] [-V] [-n COUNT] [-s SEED] [FILE...]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || set -- src/engine/*.c src/model/timing.c src/sched/optimal*.c
for f in "$@"; do
    [ -f "$f" ] || { echo "tests/mutate.sh: no file $f" >&2; exit 2; }
    git diff --quiet -- "$f" || { echo "tests/mutate.sh: $f has changes not committed; commit or stash them first" >&2; exit 2; }
done
[ "$list" = yes ] || for b in build build-asan; do
    [ -f $b/build.ninja ] || { echo "tests/mutate.sh: $b/ is not set up (run ./test.sh once)" >&2; exit 2; }
done
T=$(mktemp -d)
restore() { for f in $files; do git checkout -q -- "$f"; done; }
files="$*"
trap 'restore; rm -rf "$T"' EXIT
trap 'exit 1' INT TERM HUP

# the core tests that include an engine, timing or optimal header, the
# quick ones first
core_tests="engine readyrecv timing optimal exercise trees segment csv multicast kkround lua bruteforce exchange claims pipeline fastpaths lean certify"
cli_tests="cli optima simgrid-shared"
core_targets=$(for t in $core_tests; do printf 'tests/test-%s ' "$t"; done)
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

# The candidates: "FILE LINE KIND" for each line where a mutant of KIND fits.
# Comment lines and preprocessor lines other than #define are left alone.
for f in "$@"; do
    awk -v f="$f" '
        /^[[:space:]]*(\/\*|\*|\/\/)/ { prev = $0; next }
        /^[[:space:]]*#/ && !/^#define/ { prev = $0; next }
        { code = $0; sub(/\/\/.*/, "", code); sub(/\/\*.*/, "", code) }
        code ~ / (<|<=|>|>=|==|!=) / { print f, NR, "cmp" }
        code ~ /^[[:space:]]+[a-z_][a-zA-Z0-9_>.\[\]-]*[[:space:]]*(=|\+=|-=|\*=|\(|\+\+|--)[^;]*;[[:space:]]*$/ &&
            code !~ /^[[:space:]]*(return|break|continue|goto|int|double|long|unsigned|size_t|const|struct|char|bool|float|uint[0-9]*_t|int[0-9]*_t|enum|static)[[:space:](]/ &&
            prev ~ /[;{}][[:space:]]*$/ { print f, NR, "drop" }
        code ~ /[^A-Za-z0-9_.][0-9]+[^A-Za-z0-9_.]/ { print f, NR, "const" }
        { prev = $0 }' "$f"
done >"$T/cands"
# The draw: the candidates shuffled with SEED, then taken round robin over
# the kinds (cmp, drop, const, cmp, ...), so each kind has its share.
awk -v seed="$seed" 'BEGIN { srand(seed) } { print rand(), $0 }' "$T/cands" | sort -k1,1g |
    awk '{ k = $4; i[k]++; print i[k], (k == "cmp" ? 0 : k == "drop" ? 1 : 2), $2, $3, $4 }' |
    sort -k1,1n -k2,2n | awk '{ print $3, $4, $5 }' >"$T/draw"

# mutate FILE LINE KIND: put the mutant in place; fails when it changes nothing
mutate() {
    cp "$1" "$T/orig"
    case $3 in
        cmp) awk -v l="$2" 'NR == l {
                 if (match($0, / (<=|>=|==|!=|<|>) /)) {
                     op = substr($0, RSTART + 1, RLENGTH - 2)
                     to = op == "<" ? "<=" : op == "<=" ? "<" : op == ">" ? ">=" : op == ">=" ? ">" : op == "==" ? "!=" : "=="
                     $0 = substr($0, 1, RSTART) to substr($0, RSTART + RLENGTH - 1)
                 } } { print }' "$T/orig" >"$1" ;;
        drop) awk -v l="$2" 'NR == l { match($0, /^[[:space:]]*/); $0 = substr($0, 1, RLENGTH) ";" } { print }' "$T/orig" >"$1" ;;
        const) awk -v l="$2" 'NR == l {
                 s = $0; sub(/\/\/.*/, "", s); sub(/\/\*.*/, "", s)
                 if (match(s, /[^A-Za-z0-9_.][0-9]+[^A-Za-z0-9_.]/)) {
                     v = substr($0, RSTART + 1, RLENGTH - 2)
                     $0 = substr($0, 1, RSTART) (v + 1) substr($0, RSTART + RLENGTH - 1)
                 } } { print }' "$T/orig" >"$1" ;;
    esac
    ! cmp -s "$1" "$T/orig"
}

# fails BUILD MULT TESTS [OPTIONS...]: the tests fail (or time out, their
# timeouts times MULT) in BUILD
fails() {
    b=$1 m=$2 t=$3
    shift 3
    # shellcheck disable=SC2086
    ! meson test -C "$b" --no-rebuild --timeout-multiplier "$m" "$@" $t >"$T/log" 2>&1
}
# core_fails BUILD SECONDS [WRAPPER...]: a core test fails (or outlasts
# SECONDS) in BUILD; the tests one after the other, the quick ones first,
# up to the first that fails
core_fails() {
    b=$1 s=$2
    shift 2
    for t in $core_tests; do
        timeout -k 5 "$s" "$@" "$b/tests/test-$t" >"$T/log" 2>&1 || return 0
    done
    return 1
}
vgw="valgrind --quiet --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect --error-exitcode=1"

killed_before=0
killed_after=0
total=0
[ "$list" = yes ] || : >build/mutants.txt
while read -r f l kind && [ "$total" -lt "$count" ]; do
    mutate "$f" "$l" "$kind" || { restore; continue; }
    if [ "$kind" = drop ]; then was='<'; else was='>'; fi
    what="$f:$l $kind: $(diff "$T/orig" "$f" | sed -n "s/^$was *//p" | cut -c1-70)"
    if [ "$list" = yes ]; then
        total=$((total + 1))
        echo "$total. $what"
        restore
        continue
    fi
    # shellcheck disable=SC2086
    if ! nice ninja -j1 -C build hetcast $core_targets >"$T/build" 2>&1; then
        restore
        continue   # stillborn: it does not compile
    fi
    total=$((total + 1))
    by=""
    if core_fails build 300; then
        by=core
    # shellcheck disable=SC2086
    elif ! nice ninja -j1 -C build-asan hetcast $core_targets >"$T/build" 2>&1; then
        by=asan-build   # gcc builds it, clang does not
    elif fails build-asan 0.5 "$cli_tests"; then
        by=cli-asan
    fi
    by_before=$by by_after=$by
    if [ -z "$by" ]; then
        if fails build 0.5 "$cli_tests"; then
            by_before=cli-normal
        elif core_fails build-asan 600; then
            by_before=core-asan
        fi
    fi
    if [ "$valgrind" = yes ] && [ -z "$by_after" ] && HETCAST_TEST_SCALE=small core_fails build 1200 $vgw; then
        by_after=core-valgrind
        [ -n "$by_before" ] || by_before=core-valgrind
    fi
    [ -n "$by_before" ] && killed_before=$((killed_before + 1))
    [ -n "$by_after" ] && killed_after=$((killed_after + 1))
    line="$total. $what | before: ${by_before:-SURVIVED} | after: ${by_after:-SURVIVED}"
    echo "$line"
    echo "$line" >>build/mutants.txt
    restore
done <"$T/draw"
restore
[ "$list" = yes ] && exit 0
nice ninja -C build >/dev/null 2>&1
# shellcheck disable=SC2086
nice ninja -C build-asan hetcast $core_targets >/dev/null 2>&1
echo "mutants: $total (seed $seed); killed before: $killed_before; killed after: $killed_after" | tee -a build/mutants.txt
