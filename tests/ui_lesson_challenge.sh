#!/bin/sh
# ui_lesson_challenge.sh - a live class's challenge with hints (c) and
# without (C) on the real binary in tmux (docs/class.md): the projector's
# line, hetcast join's line and the student's exercise at 60x16, 80x24 and
# 160x45; without hints neither the best makespan still reachable nor the
# optimum shows, to the student or on the projector, until the answer is
# revealed (a).  The lesson: tests/data/class.lua's slide 5 (five nodes,
# fnf 8, optimum 6).  Output: TAP.

. "$(dirname "$0")/tmux_lib.sh"

R=$TMP/room
# what a hint looks like on the student's screen: a best reachable or an optimum with its number
NUMBERS='[Bb]est reachable (at most |still |now )?[<=0-9]|optimum [0-9]|best possible [0-9]|would have kept'
# a student NAME in a terminal W x H of their own (session NAME)
student() { tm new-session -d -s "$1" -x "$2" -y "$3" "env TERM=xterm-256color LANG=C.UTF-8 $HETCAST join $R --as $1; echo JOIN-EXIT=\$?; sleep 600"; }
# jwait NAME TEXT: poll NAME's screen (into $TMP/NAME) until TEXT shows up
jwait() {
    i=0 lim=$(polls 100)
    while [ "$i" -lt "$lim" ]; do
        tm capture-pane -p -t "$1" >"$TMP/$1"
        grep -qF -- "$2" "$TMP/$1" && return 0
        sleep 0.02
        i=$((i + 1))
    done
    echo "# $1's screen, waiting for: $2"
    sed 's/^/#   /' "$TMP/$1"
    return 1
}
# play NAME: from hetcast join's screen, Enter on the challenge, then p0 to each of the four
# others (fnf's order), each pick waited for
play() {
    jwait "$1" "challenge open" || return 1
    tm send-keys -t "$1" Enter
    jwait "$1" "1/5 hold" && jwait "$1" "pick a sender:" || return 1
    for k in 2 3 4 5; do
        tm send-keys -t "$1" Enter
        jwait "$1" "p0 sends to:" || return 1
        tm send-keys -t "$1" Enter
        if [ $k -lt 5 ]; then jwait "$1" "$k/5 hold" || return 1; fi
    done
    jwait "$1" "Done: your makespan 8"
}

start 160 45 -- lesson tests/data/class.lua --class "$R" --class-test
wait_for "room: 0 in the room"
keys ']' ']' ']' ']'
wait_for "slide 5/5"
keys c
wait_all "challenge open: 0 finished" "fnf 8" "optimum 6"
ok $? "c opens the challenge with hints: fnf and the optimum on the projector"
student hintful 80 24
jwait hintful "challenge open: Enter to play (5 nodes, async)" && ! grep -q "no hints" "$TMP/hintful"
ok $? "80x24 hetcast join: the challenge with hints says nothing of hints"
play hintful && grep -q "best possible 6" "$TMP/hintful"
ok $? "with hints: the student's exercise ends on the best possible, as x does"
tm send-keys -t hintful x
jwait hintful "your makespan counts: 8" && wait_for "challenge open: 1 finished"
ok $? "the picks go to the room, which counts them on the projector"
tm send-keys -t hintful q
keys c
wait_for "challenge closed"
keys C
wait_for "challenge open, no hints: 1 finished" && ! grep -q "optimum" "$TMP/screen" && grep -q "fnf 8" "$TMP/screen"
ok $? "C opens it again without hints: 'no hints' on the projector, fnf but no optimum"
for size in "60 16" "80 24" "160 45"; do
    set -- $size
    who=s$1
    tm resize-window -t hc -x "$1" -y "$2" 2>/dev/null
    sleep 0.3
    wait_for "no hints" && ! grep -q "optimum" "$TMP/screen"
    ok $? "$1x$2 projector: the challenge says no hints, no optimum on it or its histogram"
    student "$who" "$1" "$2"
    jwait "$who" "no hints"
    ok $? "$1x$2 hetcast join: the challenge open says no hints"
    tm send-keys -t "$who" Enter
    jwait "$who" "pick a sender:" && jwait "$who" "NO HINTS" && jwait "$who" "no hints" &&
        ! grep -qE "$NUMBERS" "$TMP/$who"
    st=$?; [ $st -eq 0 ] || sed "s/^/# /" "$TMP/$who"
    ok $st "$1x$2 the student's exercise: no hints on screen, no best reachable, no optimum"
    tm send-keys -t "$who" x
    play "$who" && ! grep -qE "$NUMBERS" "$TMP/$who" && grep -q "fnf 8" "$TMP/$who"
    ok $? "$1x$2 the student's verdict: the makespan and fnf's, no best possible"
    tm send-keys -t "$who" x
    jwait "$who" "your makespan counts: 8"
    ok $? "$1x$2 the picks go to the room all the same"
done
tm resize-window -t hc -x 80 -y 24 2>/dev/null
sleep 0.3
keys a
wait_all "challenge open: 4 finished" "optimum 6"
ok $? "a reveals: the optimum on the projector, 'no hints' gone"
jwait s80 "(5 nodes, async)" && ! grep -q "no hints" "$TMP/s80"
tm send-keys -t s80 Enter
jwait s80 "best possible 6" || jwait s80 "Best reachable"
ok $? "after the reveal, the student's exercise has its hints again"

echo "1..$n"
[ "$failed" -eq 0 ]
