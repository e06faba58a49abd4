#!/bin/sh
# test.sh - the whole test suite, in tiers (docs/reliability.md, "The suite"):
#   1. the core modules' tests (suite core) in the normal build (build/),
#      with the tests that need the program as it ships (suite normal: the
#      installed program, whose binary must carry no source path);
#   2. every command-line and view test (suites cli and ui) once, under
#      AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/), three at
#      a time (they mostly wait for a screen or a child);
#   3. the core tests under valgrind memcheck at a small declared scale
#      (HETCAST_TEST_SCALE=small: fewer random cases, the same checks), run
#      beside tier 2 at the lowest priority, reported after it;
#   4. each libFuzzer harness, after replaying its corpus, for FUZZ_SECONDS
#      (20 s; 60 s with --long), two side by side (build-fuzz/).
#   ./test.sh                          everything (what CI runs)
#   ./test.sh --quick                  tier 1 and the cli and ui suites in build/
#   ./test.sh --long                   the same, fuzzing 60 s a harness
#   ./test.sh --timeout-multiplier N   every test's timeout, and the view tests'
#                                      waits, N times longer (a loaded machine; default 2)
# The last line is "tests: N passed, M failed"; the status is 0 only when
# nothing failed.
set -eu
cd "$(dirname "$0")"
quick=no
long=no
mult=2
while [ $# -gt 0 ]; do
    case $1 in
        --quick) quick=yes ;;
        --long) long=yes ;;
        --timeout-multiplier) [ $# -ge 2 ] || { echo "test.sh: --timeout-multiplier needs a number" >&2; exit 2; }
                              mult=$2; shift ;;
        --timeout-multiplier=*) mult=${1#*=} ;;
        *) echo "usage: ./test.sh [--quick | --long] [--timeout-multiplier N]" >&2; exit 2 ;;
    esac
    shift
done
case $mult in
    ''|0|*[!0-9]*) echo "test.sh: --timeout-multiplier takes a whole number >= 1, not \"$mult\"" >&2; exit 2 ;;
esac
export HETCAST_TIMEOUT_MULTIPLIER="$mult"

passed=0
failed=0
status=0
out=$(mktemp)
log=$(mktemp)
trap 'rm -f "$out" "$log"' EXIT
# broken WHAT: a step that did not get as far as its tests
broken() {
    cat "$log"
    echo "test.sh: $1 failed"
    status=1
    failed=$((failed + 1))
}
# mtest ARGS...: run meson test, keep its exit status, add up its summary
mtest() {
    meson test --no-rebuild --print-errorlogs --timeout-multiplier "$mult" "$@" 2>&1 | tee "$out"
    tally "$out"
}
# tally FILE: add up the summary of the meson test run that FILE holds
tally() {
    ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$1" | tail -n 1)
    bad=$(sed -n 's/^\(Fail\|Timeout\|Unexpected Pass\): *\([0-9]*\).*/\2/p' "$1" | awk '{s += $1} END {print s + 0}')
    passed=$((passed + ${ok:-0}))
    failed=$((failed + bad))
    if [ -z "$ok" ] || [ "$bad" -ne 0 ] || grep -q '^ERROR' "$1"; then
        status=1
        if [ -z "$ok" ] || { [ "$bad" -eq 0 ] && grep -q '^ERROR' "$1"; }; then
            failed=$((failed + 1))
            echo "test.sh: meson test did not end cleanly (its ERROR lines above: a test's output that is not TAP counts as a failure)"
        fi
    fi
}
# asan_targets: what the cli and ui suites run in build-asan/ (the programs
# and the view's and the room's test executables; not the core tests, which
# run in build/ and under valgrind)
asan_targets() {
    meson introspect build-asan --tests --targets | python3 -c '
import json, os, sys
d = json.load(sys.stdin)
b = os.path.realpath("build-asan")
ids = {t["id"]: t["filename"][0] for t in d["targets"]}
want = set()
for t in d["tests"]:
    if {"hetcast:core", "hetcast:normal"} & set(t["suite"]):
        continue
    want.update(ids[i] for i in t["depends"] if i in ids)
    if t["cmd"] and os.path.realpath(t["cmd"][0]).startswith(b + "/"):
        want.add(t["cmd"][0])
print(" ".join(sorted(os.path.relpath(f, b) for f in want)))'
}
finish() {
    echo "tests: $passed passed, $failed failed"
    exit $status
}

# The packages and the program (setup.sh); then every test of the normal build.
if ! ./setup.sh --no-view >"$log" 2>&1 || ! nice ninja -C build >"$log" 2>&1; then
    broken "the build"
    finish
fi

if [ "$quick" = yes ]; then
    echo "== tests (build/)"
    mtest -C build
    finish
fi

echo "== core tests and the shipped program (build/)"
mtest -C build --suite core --suite normal

# The fuzzers' build (clang, build-fuzz/) and the core tests under valgrind
# (build/, at the lowest priority) go on beside the sanitizer tier's tests,
# which spend most of their time waiting for a screen or a child; they begin
# once the sanitizer build is done, so as not to slow it; valgrind's report
# is printed once that tier is done.
fuzzlog=$(mktemp)
vglog=$(mktemp)
trap 'rm -f "$out" "$log" "$fuzzlog" "$vglog"' EXIT
beside() {
    nice tests/fuzz/run.sh --build >"$fuzzlog" 2>&1 &
    fuzzbuild=$!
    HETCAST_TEST_SCALE=small nice -n 19 meson test -C build --no-rebuild --print-errorlogs \
        --timeout-multiplier "$mult" --suite core \
        --wrap='valgrind --quiet --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect --error-exitcode=1' \
        >"$vglog" 2>&1 &
    valgrind_tier=$!
}

echo "== command line and view under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/)"
if { [ -f build-asan/build.ninja ] ||
     CC=clang meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false >"$log" 2>&1; } &&
   ninja -C build-asan build.ninja >"$log" 2>&1 &&
   targets=$(asan_targets) && [ -n "$targets" ] &&
   # shellcheck disable=SC2086
   ninja -C build-asan $targets >"$log" 2>&1; then
    beside
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        mtest -C build-asan --no-suite core --no-suite normal --num-processes 3
else
    beside
    broken "the sanitizer build"
fi

echo "== core tests under valgrind memcheck, small scale (build/; begun beside the tier above)"
wait "$valgrind_tier" || true
cat "$vglog"
tally "$vglog"

# docs/reliability.md: each libFuzzer harness for a bounded time after
# replaying its corpus, two side by side (CI has 2 cores): 9 harnesses of
# 20 s take some 100 s.
if [ "$long" = yes ]; then seconds=${FUZZ_SECONDS:-60}; else seconds=${FUZZ_SECONDS:-20}; fi
harnesses="csv lua names luasched exchange platform proto classdb simgrid"
nh=$(echo $harnesses | wc -w)
echo "== fuzzing: the $harnesses harnesses, $seconds s each (build-fuzz/)"
if wait "$fuzzbuild"; then
    tests/fuzz/run.sh "$seconds" $harnesses 2>&1 | tee "$out"
else
    tee "$out" <"$fuzzlog"
fi
fuzz_ok=$(grep -c '^fuzz-[a-z]*: ok,' "$out" || true)
passed=$((passed + fuzz_ok))
if [ "$fuzz_ok" -ne "$nh" ]; then
    status=1
    failed=$((failed + nh - fuzz_ok))
fi
finish
