#!/bin/sh
# messages.sh - every message starts with the program and the command typed
# (TAP; docs/cli.md, "Messages"): "hetcast run: ", "hetcast experiment
# pipeline: ", ..., plain "hetcast: " for the view and before a command is
# named.  Each case is a user mistake (status 2) or a missing file; every
# line of its standard error that names hetcast must start with its prefix.
. tests/tap.sh

C=clusters/counterexample.csv
printf 'name,send,recv\na,1,x\n' >"$T/bad.csv"
# case PREFIX ARGS...: the run's stderr has a message, every hetcast line under PREFIX
case_() {
    want=$1; shift
    "$H" "$@" </dev/null >"$T/out" 2>"$T/err"
    st=$?
    check "hetcast $*: status 2 or 1, the message starts \"$want: \"" sh -c "
        [ $st -eq 2 ] || [ $st -eq 1 ]
        head -n 1 '$T/err' | grep -q '^$want: ' || exit 1
        ! grep '^hetcast' '$T/err' | grep -v -q '^$want: '"
}
case_ "hetcast run" run "$T/nosuch.csv"
case_ "hetcast run" run "$T/bad.csv"
case_ "hetcast run" run $C --bogus
case_ "hetcast run" run $C -s nosuch
case_ "hetcast run" run $C -m nosuch
case_ "hetcast run" run $C -m one-port-uni
case_ "hetcast run" run $C --seed x
case_ "hetcast run" run
case_ "hetcast compare" compare $C -s nosuch
case_ "hetcast compare" compare "$T/nosuch.csv"
case_ "hetcast experiment" experiment nosuch
case_ "hetcast experiment pipeline" experiment pipeline --runs x
case_ "hetcast experiment figueira" experiment figueira --runs x
case_ "hetcast experiment alltoall" experiment alltoall --bogus
case_ "hetcast experiment fnf-vs-random" experiment fnf-vs-random --bogus
case_ "hetcast experiment fnf-vs-random" experiment fnf-vs-random --runs x
case_ "hetcast experiment reproduce" experiment reproduce --bogus
case_ "hetcast experiment merge" experiment merge
case_ "hetcast lesson" lesson --bogus
case_ "hetcast lesson" lesson "$T/nosuch.lua" --print
case_ "hetcast class" class
case_ "hetcast join" join
case_ "hetcast bench" bench --bogus
case_ "hetcast" "$T/nosuch.csv"
case_ "hetcast" $C --bogus
case_ "hetcast" nosuchcommand
# One message per mistake, and the near miss named ("did you mean X?").
# guess WANT ARGS...: status 2, one line of stderr, "did you mean "WANT"?" in it
guess() {
    want=$1; shift
    "$H" "$@" </dev/null >"$T/out" 2>"$T/err"
    st=$?
    check "hetcast $*: one message, did you mean \"$want\"?" sh -c "
        [ $st -eq 2 ] && [ \$(wc -l <'$T/err') -eq 1 ] &&
        grep -q '^hetcast[a-z ]*: .*did you mean \"$want\"?' '$T/err'"
}
printf 'name,send,recieve\na,1,2\nb,1,2\n' >"$T/recieve.csv"
guess recv run "$T/recieve.csv"
guess fnf run $C -s fnff
guess one-port run $C -m oneport
guess --format run $C --fromat json
guess json run $C --format jsn
guess run runn $C
guess matching run $C --pattern all-to-all -s matchin
"$H" run $C -s zzz >/dev/null 2>"$T/err"
check "no guess for a name near none (-s zzz)" sh -c "! grep -q 'did you mean' '$T/err'"

# Numbers as they are written: decimal, nothing around them; each refusal says what was wanted.
"$H" run $C -s optimal --time-limit 1e-320 --summary >"$T/out" 2>"$T/err"
check "--time-limit 1e-320 is a number > 0 (a tiny one), not refused as 'not a number >= 0'" sh -c "
    ! grep -q 'not a number' '$T/err' && grep -q '^makespan' '$T/out'"
for bad in "--node-limit 0x10" "--lua-budget 0x100000" "--slices  5" "--seed 0x10" "--lua-memory 0x40"; do
    opt=${bad%% *}; val=${bad#* }
    [ "$opt" = --slices ] && val=" 5"
    "$H" run $C "$opt" "$val" --summary >/dev/null 2>"$T/err"
    st=$?
    check "$opt \"$val\": refused (status 2, the value named)" sh -c "
        [ $st -eq 2 ] && grep -q -F -- '$opt: \"$val\" is not' '$T/err'"
done
if [ -x "$(dirname "$H")/hetcast-simgrid" ]; then
    "$H" run tests/data/simgrid-ring.xml --size 1e308 >/dev/null 2>"$T/err"
    st=$?
    check "--size 1e308 on a SimGrid platform: one message, and it names --size" sh -c "
        [ $st -eq 2 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -q -e '--size 1e+308: the route' '$T/err'"
else
    skip "--size 1e308 on a SimGrid platform" "built without SimGrid"
fi

# A bundled cluster or lesson by its bare name, from any folder.
(cd "$T" && "$H" run counterexample.csv --summary) >"$T/out" 2>"$T/err"
check "hetcast run counterexample.csv (bare name) finds the bundled cluster" grep -q '^makespan *6$' "$T/out"
(cd "$T" && "$H" lesson fnf-loses --print) >"$T/out" 2>"$T/err"
check "hetcast lesson fnf-loses (bare name) finds the bundled lesson" grep -q 'Why fastest-node-first loses' "$T/out"
"$H" run --list-clusters >"$T/out" 2>"$T/err"
check "run --list-clusters lists the bundled clusters with what they are" sh -c "
    grep -q '^  counterexample.csv  *The counterexample' '$T/out' && grep -q '^  k-class.lua ' '$T/out'"
"$H" lesson --list >"$T/out" 2>"$T/err"
check "lesson --list lists the bundled lessons by title" grep -q '^  fnf-loses.lua .*Why fastest-node-first loses$' "$T/out"

# experiment merge: the parts' format, and every part whole.
"$H" experiment fnf-vs-random --runs 3 --nodes 6:7 --shard 1/2 --format csv >"$T/p1" 2>/dev/null
"$H" experiment fnf-vs-random --runs 3 --nodes 6:7 --shard 2/2 --format csv >"$T/p2" 2>/dev/null
"$H" experiment fnf-vs-random --runs 3 --nodes 6:7 --format csv >"$T/whole" 2>/dev/null
"$H" experiment merge "$T/p1" "$T/p2" >"$T/out" 2>"$T/err"
check "experiment merge of CSV parts prints CSV, as the whole run does" cmp -s "$T/out" "$T/whole"
"$H" experiment merge --format text "$T/p1" "$T/p2" >"$T/out" 2>"$T/err"
check "experiment merge --format text still prints text" sh -c "! cmp -s '$T/out' '$T/whole' && grep -q '^ *n  *fnf' '$T/out'"
head -c -2 "$T/p2" >"$T/p2cut"   # cut inside the last number, no newline
"$H" experiment merge "$T/p1" "$T/p2cut" >"$T/out" 2>"$T/err"
st=$?
check "experiment merge refuses a part cut inside its last line (status 2, file and line named)" sh -c "
    [ $st -eq 2 ] && [ ! -s '$T/out' ] && grep -q 'p2cut: line [0-9]*: cut short' '$T/err'"
sed '$d' "$T/p2" >"$T/p2short"   # a whole row fewer than its range promises
"$H" experiment merge "$T/p1" "$T/p2short" >"$T/out" 2>"$T/err"
st=$?
check "experiment merge refuses a part with fewer rows than its range" sh -c "
    [ $st -eq 2 ] && grep -q 'p2short: cut short: 2 of the 3 trials' '$T/err'"
done_testing
