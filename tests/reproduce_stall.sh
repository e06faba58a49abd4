#!/bin/sh
# reproduce_stall.sh - `hetcast experiment reproduce` gives the same bytes on
# a machine that stalls (TAP): the process is stopped (SIGSTOP) for 11 s after
# every second of CPU it gets, and the parts it runs still print exactly the
# sections of docs/reproduction.md.  A study's budgets are counted in work
# (search nodes, simplex iterations), never in seconds: a wall-clock limit of
# 10 s would give up in the first stop that falls inside a linear program or
# an exact search.  The parts: nsc-report (exact searches), beaumont (the
# throughput linear program, two a platform) and since (the exact search
# through the schedulers, kk-round, GLPK's least sum), about 2.5 s of CPU in
# the normal build (2 stops), several times that under ASan (some 7 stops).
#
# Then a part that fails (a data directory whose khuller-kim.csv is broken):
# the other parts' rows are printed all the same, status 1, no -o file.
. tests/tap.sh

# section TITLE NEXT: docs/reproduction.md from the line "## TITLE..." to the
# line before "## NEXT..." (to the end when NEXT is empty)
section() {
    awk -v a="## $1" -v b="## $2" 'index($0, a) == 1 {on = 1}
        on && b != "## " && index($0, b) == 1 {on = 0} on' docs/reproduction.md
}
{
    section "Liu's NSC report" "Figueira"
    section "Beaumont" "Chen"
    section "Since the papers" ""
} >"$T/want"

"$H" experiment reproduce --part nsc-report,beaumont,since -o "$T/stall.md" >"$T/out" 2>"$T/err" &
pid=$!
tck=$(getconf CLK_TCK)
# cpu: the process's user + system time in clock ticks; fails once it has ended
cpu() {
    awk '$3 == "Z" {exit 1} {print $14 + $15}' "/proc/$pid/stat" 2>/dev/null
}
stops=0
last=0
while now=$(cpu) && [ -n "$now" ]; do
    if [ $((now - last)) -ge "$tck" ]; then
        kill -STOP "$pid" 2>/dev/null || break
        sleep 11
        kill -CONT "$pid" 2>/dev/null
        stops=$((stops + 1))
        last=$(cpu) || break
    fi
    sleep 0.2
done
wait "$pid"
rc=$?
echo "# stopped $stops times for 11 s"
check "stalled: stopped for 11 s at least twice" test "$stops" -ge 2
check "stalled: exit 0" test "$rc" -eq 0
check "stalled: nothing on stderr" test ! -s "$T/err"
sed 's/^/# /' "$T/err" | head -5
if cmp -s "$T/out" "$T/want"; then
    check "stalled: the sections of docs/reproduction.md, byte for byte" true
else
    diff "$T/want" "$T/out" | head -20 | sed 's/^/# /'
    check "stalled: the sections of docs/reproduction.md, byte for byte" false
fi
check "stalled: -o writes what it prints" cmp "$T/out" "$T/stall.md"

# A part that fails: the others' rows all the same, one line in its place.
mkdir -p "$T/data/clusters"
printf 'name,send,recv\nfast,1\n' >"$T/data/clusters/khuller-kim.csv"
cp clusters/multicast.csv "$T/data/clusters/"
HETCAST_DATADIR="$T/data" "$H" experiment reproduce --part nsc-report,since -o "$T/part.md" \
    >"$T/out" 2>"$T/err"
rc=$?
check "a part fails: status 1" test "$rc" -eq 1
check "a part fails: the reason on stderr names the file" grep -q 'khuller-kim.csv' "$T/err"
section "Liu's NSC report" "Figueira" >"$T/nsc"
check "a part fails: the other part's rows are printed" \
    sh -c "head -c \$(wc -c <'$T/nsc') '$T/out' | cmp -s - '$T/nsc'"
check "a part fails: one line in its place" grep -q '^\*\*The part since failed\*\*' "$T/out"
check "a part fails: no -o file" test ! -e "$T/part.md"
run "$H" experiment reproduce --part nosuch
check "--part nosuch: status 2, naming the parts" sh -c "test $rc -eq 2 && grep -q 'beaumont' '$T/err'"
done_testing
