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
done_testing
