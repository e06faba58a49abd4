# tap.sh - the TAP helpers of the shell tests, sourced (`. tests/tap.sh`, from
# the source root as meson runs them): $H the binary as an absolute path
# ($HETCAST, else build/hetcast), $T a temporary directory removed at exit,
# and check / skip / run / has / done_testing.  Every shell test but those
# in tmux (tests/tmux_lib.sh) uses it; limits.sh's check also shows stderr,
# multicast_cli.sh's goes on into tmux_lib.sh: they keep their own.
set -u
H=${HETCAST:-build/hetcast}
case $H in /*) ;; *) H=$PWD/$H ;; esac
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0
fails=0
# check NAME COMMAND...: ok if the command succeeds
check() {
    name=$1; shift
    n=$((n + 1))
    if "$@" >/dev/null 2>&1; then echo "ok $n - $name"; else echo "not ok $n - $name"; fails=$((fails + 1)); fi
}
# skip NAME REASON: a check that cannot run here, and why
skip() {
    n=$((n + 1))
    echo "ok $n - $1 # SKIP $2"
}
# run CMD...: stdout to $T/out, stderr to $T/err, status to $rc
run() { "$@" >"$T/out" 2>"$T/err"; rc=$?; }
# has PATTERN FILE: grep for it
has() { grep -q -- "$1" "$2"; }
# done_testing: the plan, and the status
done_testing() {
    echo "1..$n"
    [ "$fails" -eq 0 ]
    exit
}
