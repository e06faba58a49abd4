#!/bin/sh
# tests/fuzz/run.sh - build the libFuzzer harnesses (clang, ASan + UBSan,
# coverage) in build-fuzz/ and run each for a bounded time, side by side.
# Fails when a harness finds a crash, a hang, a leak or a broken promise;
# the input is then in build-fuzz/fuzz-crashes/HARNESS/ and the command to
# replay it is printed.  docs/reliability.md says what each harness checks.
#
#   tests/fuzz/run.sh              every harness, 60 s each, two at a time (what test.sh runs)
#   tests/fuzz/run.sh 3600 csv     the CSV harness for an hour
#   FUZZ_JOBS=3 tests/fuzz/run.sh  three at a time (default 2: CI has 2 cores)
#   tests/fuzz/run.sh --build      set up and build the harnesses only (test.sh
#                                  does it beside its other tiers)
#
# The harnesses: csv, lua, names, luasched (Lua heuristics), exchange,
# platform (platform graphs and SimGrid's answers), proto (a live class's
# room and a client's lines), classdb (class report on a mutated ROOM.db),
# simgrid (the SimGrid platform files hetcast reads itself).  The corpus grows in
# build-fuzz/fuzz-corpus/HARNESS/ from run to run; it is seeded from
# tests/fuzz/seeds/, tests/fuzz/regress/ and clusters/ (lua/ for luasched).
set -eu
cd "$(dirname "$0")/../.."
build_only=no
if [ "${1:-}" = --build ]; then
    build_only=yes
    shift
fi
seconds=${1:-60}
[ $# -gt 0 ] && shift
all="csv lua names luasched exchange platform proto classdb simgrid"
harnesses=${*:-$all}
jobs=${FUZZ_JOBS:-2}
build=build-fuzz

case $seconds in
    ''|*[!0-9]*) echo "usage: tests/fuzz/run.sh [SECONDS] [csv|lua|names|luasched|exchange|platform|proto|classdb|simgrid]..." >&2; exit 2 ;;
esac
case $jobs in
    ''|0|*[!0-9]*) echo "tests/fuzz/run.sh: FUZZ_JOBS must be a number >= 1" >&2; exit 2 ;;
esac
for h in $harnesses; do
    case $h in
        csv|lua|names|luasched|exchange|platform|proto|classdb|simgrid) ;;
        *) echo "tests/fuzz/run.sh: unknown harness \"$h\" ($all)" >&2; exit 2 ;;
    esac
done
if ! command -v clang >/dev/null; then
    echo "tests/fuzz/run.sh: clang is needed (apt-get install clang)" >&2
    exit 1
fi
# libFuzzer's runtime comes in Debian's libclang-rt-N-dev; install it if
# missing, as setup.sh installs the rest (root or sudo).
fuzzer_links() {
    probe=$(mktemp -d)
    echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' >"$probe/p.c"
    clang -fsanitize=fuzzer "$probe/p.c" -o "$probe/p" >/dev/null 2>&1
    rc=$?
    rm -rf "$probe"
    return $rc
}
if ! fuzzer_links; then
    pkg=libclang-rt-$(clang -dumpversion | cut -d. -f1)-dev
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    echo "tests/fuzz/run.sh: installing $pkg (libFuzzer's runtime)"
    { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$pkg"; } >/dev/null 2>&1
    if ! fuzzer_links; then
        echo "tests/fuzz/run.sh: clang -fsanitize=fuzzer does not link; install $pkg" >&2
        exit 1
    fi
fi

if [ ! -f $build/build.ninja ]; then
    CC=clang meson setup $build -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false \
        "-Dc_args=-fsanitize=fuzzer-no-link -fno-sanitize-recover=all -fno-omit-frame-pointer" \
        >$build.setup.log 2>&1 || { cat $build.setup.log; rm -f $build.setup.log; exit 1; }
    rm -f $build.setup.log
fi
targets=
for h in $harnesses; do
    targets="$targets tests/fuzz/fuzz-$h"
done
# shellcheck disable=SC2086
ninja -C $build $targets >/dev/null || { ninja -C $build $targets; exit 1; }
[ "$build_only" = no ] || exit 0

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:allocator_may_return_null=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
# The dictionary and the seeds beside tests/fuzz/seeds/H and tests/fuzz/regress/H.
dict_of() {
    case $1 in
        luasched) echo lua ;;
        exchange|platform) echo csv ;;
        *) echo "$1" ;;
    esac
}
extra_of() {
    case $1 in
        luasched) echo lua ;;
        proto|classdb|simgrid) echo "tests/fuzz/seeds/$1" ;;
        *) echo clusters ;;
    esac
}

# One harness for $seconds; its status in $build/fuzz-H.status.
fuzz_one() {
    h=$1
    mkdir -p $build/fuzz-corpus/$h $build/fuzz-crashes/$h
    # The first directory receives new inputs; the others only seed it.
    $build/tests/fuzz/fuzz-$h $build/fuzz-corpus/$h tests/fuzz/seeds/$h tests/fuzz/regress/$h "$(extra_of "$h")" \
        -dict=tests/fuzz/"$(dict_of "$h")".dict -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -max_len=16384 -print_final_stats=1 -artifact_prefix=$build/fuzz-crashes/$h/ \
        >$build/fuzz-$h.log 2>&1
    echo $? >$build/fuzz-$h.status
}

# $jobs side by side (each libFuzzer process keeps one core busy), batch
# after batch: every harness runs for the same time, so the batches end
# together (9 harnesses of 60 s on 2 cores: 5 minutes).
running=0
for h in $harnesses; do
    rm -f $build/fuzz-$h.status
    if [ "$running" -ge "$jobs" ]; then
        wait
        running=0
    fi
    fuzz_one "$h" &
    running=$((running + 1))
done
wait

status=0
for h in $harnesses; do
    if [ "$(cat $build/fuzz-$h.status 2>/dev/null)" = 0 ]; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' $build/fuzz-$h.log)
        cov=$(grep -o 'cov: [0-9]*' $build/fuzz-$h.log | tail -n 1)
        echo "fuzz-$h: ok, ${runs:-?} inputs in ${seconds} s ($cov)"
    else
        status=1
        echo "fuzz-$h: FAILED; the end of $build/fuzz-$h.log:"
        tail -n 60 $build/fuzz-$h.log
        art=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' $build/fuzz-$h.log | tail -n 1)
        if [ -n "$art" ]; then
            echo "fuzz-$h: the input is $art; replay it with"
            echo "    $build/tests/fuzz/fuzz-$h $art"
            echo "and once it is fixed, keep it: cp $art tests/fuzz/regress/$h/"
        fi
    fi
done
exit $status
