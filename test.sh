#!/bin/sh
# test.sh - the whole test suite: the TAP tests (core modules, command line,
# the view in tmux) in a normal build, again under AddressSanitizer +
# UndefinedBehaviorSanitizer, and the core tests under valgrind memcheck.
#   ./test.sh          everything (what CI runs)
#   ./test.sh --quick  the normal build only
set -eu
cd "$(dirname "$0")"
./setup.sh --no-view >/dev/null

passed=0
failed=0
tally() {   # add up meson's summary of the last run
    log="$1/meson-logs/testlog.txt"
    ok=$(grep -c '^ *[0-9]*/[0-9]* .* OK ' "$log" 2>/dev/null || true)
    bad=$(grep -cE '^ *[0-9]*/[0-9]* .* (FAIL|TIMEOUT|ERROR) ' "$log" 2>/dev/null || true)
    passed=$((passed + ok)); failed=$((failed + bad))
}
status=0

echo "== tests (build/)"
meson test -C build --print-errorlogs || status=1
tally build

if [ "${1:-}" != "--quick" ]; then
    echo "== tests under AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/)"
    [ -d build-asan ] || CC=clang meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
    ninja -C build-asan >/dev/null
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        meson test -C build-asan --print-errorlogs || status=1
    tally build-asan

    echo "== core tests under valgrind memcheck (build/)"
    meson test -C build --suite core --print-errorlogs \
        --wrap='valgrind --quiet --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect --error-exitcode=1' \
        || status=1
    tally build
fi

echo "tests: $passed passed, $failed failed"
exit $status
