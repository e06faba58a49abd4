#!/bin/sh
# test.sh - the whole test suite: the TAP tests (core modules, command line,
# the view in tmux) in a normal build, again under AddressSanitizer +
# UndefinedBehaviorSanitizer, the core tests under valgrind memcheck, and
# each libFuzzer harness for a minute, two at a time (FUZZ_SECONDS;
# docs/reliability.md).
#   ./test.sh          everything (what CI runs)
#   ./test.sh --quick  the normal build only
set -eu
cd "$(dirname "$0")"
log=$(mktemp)
if ! ./setup.sh --no-view >"$log" 2>&1; then
    cat "$log"; rm -f "$log"
    echo "test.sh: the build failed"
    echo "tests: 0 passed, 1 failed"
    exit 1
fi
rm -f "$log"

passed=0
failed=0
status=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# mtest ARGS...: run meson test, keep its exit status, add up its summary
mtest() {
    meson test "$@" 2>&1 | tee "$out"
    ok=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$out" | tail -n 1)
    bad=$(sed -n 's/^\(Fail\|Timeout\|Unexpected Pass\): *\([0-9]*\).*/\2/p' "$out" | awk '{s += $1} END {print s + 0}')
    passed=$((passed + ${ok:-0}))
    failed=$((failed + bad))
    if [ -z "$ok" ] || [ "$bad" -ne 0 ] || grep -q '^ERROR' "$out"; then
        status=1
        [ -n "$ok" ] || failed=$((failed + 1))
    fi
}

echo "== tests (build/)"
mtest -C build --print-errorlogs

if [ "${1:-}" != "--quick" ]; then
    echo "== tests under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/)"
    [ -d build-asan ] || CC=clang meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
    if ninja -C build-asan >/dev/null; then
        ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
            mtest -C build-asan --print-errorlogs
    else
        echo "test.sh: the sanitizer build failed"; status=1; failed=$((failed + 1))
    fi

    echo "== core tests under valgrind memcheck (build/)"
    mtest -C build --suite core --print-errorlogs \
        --wrap='valgrind --quiet --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect --error-exitcode=1'

    # docs/reliability.md: each libFuzzer harness for a bounded time, two side by
    # side (CI has 2 cores): 6 harnesses of 60 s take 3 minutes.
    harnesses="csv lua names luasched exchange platform"
    nh=$(echo $harnesses | wc -w)
    echo "== fuzzing: the $harnesses harnesses, ${FUZZ_SECONDS:-60} s each (build-fuzz/)"
    tests/fuzz/run.sh "${FUZZ_SECONDS:-60}" $harnesses 2>&1 | tee "$out"
    fuzz_ok=$(grep -c '^fuzz-[a-z]*: ok,' "$out" || true)
    passed=$((passed + fuzz_ok))
    if [ "$fuzz_ok" -ne "$nh" ]; then
        status=1
        failed=$((failed + nh - fuzz_ok))
    fi
fi

echo "tests: $passed passed, $failed failed"
exit $status
