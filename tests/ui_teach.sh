#!/bin/sh
# ui_teach.sh - the view for a class on the real binary in tmux,
# at 60x16, 80x24 and 200x60: every node reachable in both compare panes;
# play that keeps its rhythm while keys are pressed; no text drawn dim (SGR
# 2); TERM=dumb refused with a message instead of a blank screen; the node
# facts (i), the incremental find (/), the exercise's reasons.  Every wait
# polls the screen with a timeout (tests/tmux_lib.sh).  Output: TAP.

. "$(dirname "$0")/tmux_lib.sh"

# The lines of the screen that start with a lane label NAME (then a blank).
lanes() { grep -c "^$1 " "$TMP/screen"; }

# ---- compare: every node in both panes ----

for size in "60 16" "80 24" "200 60"; do
    set -- $size
    start "$1" "$2" -- clusters/counterexample.csv -s fnf -s optimal
    keys G
    wait_for "step 16/16"
    for node in p0 p1 p2; do
        [ "$(lanes $node)" -eq 2 ]
        ok $? "$1x$2 counterexample: $node in both compare panes"
    done
    tr '\n' ' ' <"$TMP/screen" | sed 's/  */ /g' >"$TMP/flat"
    grep -q "first difference (t=0): fnf p0→p1, optimal p0→p2; fnf loses 1 (p2: 6, not 5)" "$TMP/flat"
    ok $? "$1x$2 counterexample: the first difference is on the screen at the end"
    keys q
    wait_for "EXIT=0"
done
for size in "60 16" "80 24" "200 60"; do
    set -- $size
    start "$1" "$2" -- clusters/k-class.lua --param n=8 -s fnf -s optimal
    keys G
    wait_for "step 56/56"
    seen=""
    for k in 1 2 3 4 5 6 7 8; do
        capture
        for node in fast-1 normal-1 normal-2 normal-3 slow-1 slow-2 slow-3 slow-4; do
            [ "$(lanes $node)" -eq 2 ] && case " $seen " in *" $node "*) ;; *) seen="$seen $node" ;; esac
        done
        keys Down
        sleep 0.1
    done
    [ "$(echo $seen | wc -w)" -eq 8 ]
    ok $? "$1x$2 k-class n=8: every node reached in both panes by selecting down (saw:$seen)"
    keys q
    wait_for "EXIT=0"
done

# ---- a third -s: refused with a message, not dropped ----

start 80 24 -- clusters/counterexample.csv -s fnf -s optimal -s fef
wait_for "EXIT=2"
ok $? "a third -s: the view refuses, status 2"
tr '\n' ' ' <"$TMP/screen" | sed 's/  */ /g' | grep -q "the view compares two schedulers (got 3 -s)"
ok $? "a third -s: and says why, on the terminal"

# ---- node facts (i), find (/), go to (:), the log (L) ----

for size in "60 16" "80 24" "200 60"; do
    set -- $size
    start "$1" "$2" -- clusters/counterexample.csv
    wait_for "step 0/8"
    keys / p 2
    wait_for "find: p2_"
    ok $? "$1x$2: / opens the find prompt and shows what is typed"
    keys Enter
    wait_for "found p2"
    ok $? "$1x$2: /p2 selects p2"
    keys i
    wait_all "facts of p2" "s=2" "r=3"
    ok $? "$1x$2: i shows p2's s=2 and r=3"
    grep -q "holds the message at t=6, from p0" "$TMP/screen"
    ok $? "$1x$2: and when p2 holds the message, from whom"
    keys Escape
    wait_gone "facts of p2"
    keys : 5 Enter
    wait_for "step 5/8"
    ok $? "$1x$2: :5 goes to step 5"
    keys : t = 6 Enter
    wait_for "step 8/8"
    ok $? "$1x$2: :t=6 goes to the time 6"
    keys L
    wait_all "narration log" "t=0: p0 starts sending the message to p1" &&
        ! grep -q "lines [2-9]" "$TMP/screen"
    ok $? "$1x$2: L opens the narration log at its first line"
    keys PgDn PgDn
    wait_for "p2 holds the message from p0"
    ok $? "$1x$2: PgDn scrolls the log to its last event"
    keys q q
    wait_for "EXIT=0"
done

# ---- n and N after /: the next and the previous match, round the end ----

for size in "60 16" "80 24" "160 45"; do
    set -- $size
    start "$1" "$2" -- clusters/counterexample.csv
    wait_for "step 0/8"
    keys n
    wait_for "no search to repeat"
    ok $? "$1x$2: n before any search says there is none"
    keys / p Enter
    wait_for "found p0"
    ok $? "$1x$2: /p selects p0"
    keys n
    wait_for "found p1: match 2 of 3"
    ok $? "$1x$2: n selects the next match, p1, and says which of how many"
    keys n
    wait_for "found p2: match 3 of 3"
    ok $? "$1x$2: n again: p2"
    keys n
    wait_for "found p0: match 1 of 3"
    ok $? "$1x$2: n past the last match: round to p0"
    keys N
    wait_for "found p2: match 3 of 3"
    ok $? "$1x$2: N: the previous match, round the start to p2"
    keys i
    wait_for "facts of p2"
    ok $? "$1x$2: and p2 is the selected node (i shows its facts)"
    keys Escape q
    wait_for "EXIT=0"
done

# ---- the exercise: a worse pick with its reason ----

for size in "60 16" "80 24" "200 60"; do
    set -- $size
    start "$1" "$2" -- clusters/counterexample.csv
    wait_for "step 0/8"
    keys x
    wait_for "pick a sender"
    keys Enter
    wait_for "p0 sends to:"
    keys Enter
    wait_for "would have"
    tr '\n' ' ' <"$TMP/screen" | sed 's/  */ /g' >"$TMP/flat"
    grep -q "p2 ends up late" "$TMP/flat" && grep -q "p0 -> p2 would have kept 5" "$TMP/flat"
    ok $? "$1x$2: a worse pick names the late node (p2) and the better pick (p0 -> p2)"
    keys z
    wait_for "z does nothing in the exercise"
    ok $? "$1x$2: a key that does not apply says so"
    keys Enter Enter
    wait_for "Done: your makespan 6"
    keys x
    wait_all "you · makespan 6 (your exercise)" "optimal · makespan 5" "fnf · makespan 6"
    ok $? "$1x$2: leaving a finished exercise shows fnf, optimal and you on one axis"
    keys x
    wait_for "Back to your 2 choices"
    ok $? "$1x$2: x goes back to the student's choices"
    # undo in a resumed exercise: the states before its last choice were
    # never searched here (the key fuzzer found them read unset, under UBSan)
    keys Left
    wait_for "Undone: p0 -> p2"
    keys Left
    wait_for "Undone: p0 -> p1. Best reachable from here: 5"
    ok $? "$1x$2: undo twice in a resumed exercise, each with its best reachable"
    keys x q
    wait_for "EXIT=0"
done

# ---- a lesson ----

for size in "60 16" "80 24" "200 60"; do
    set -- $size
    start "$1" "$2" -- lesson lua/lessons/fnf-loses.lua
    wait_all "slide 1/4" "Question:"
    ok $? "$1x$2 lesson: the first slide with its question"
    keys a
    wait_for "p2, the slow one"
    ok $? "$1x$2 lesson: a reveals the answer"
    keys ] ]
    wait_for "slide 3/4"
    keys Enter
    wait_all "fnf vs optimal" "step 16/16"
    ok $? "$1x$2 lesson: Enter shows slide 3's schedules at its step"
    keys q
    wait_for "EXIT=0"
done

# ---- a question and an answer written over two lines read as one paragraph ----

printf 'return {slides = {{title = "x", cluster = "%s", question = "Which node\\nfirst?", answer = "p2,\\nthe slow one."}}}\n' \
    "$(pwd)/clusters/counterexample.csv" >"$TMP/two-lines.lua"
start 80 24 -- lesson "$TMP/two-lines.lua"
wait_for "Which node first?"
ok $? "a question over two lines: one paragraph, no control character shown"
keys a
wait_for "p2, the slow one."
ok $? "an answer over two lines: one paragraph"
keys q
wait_for "EXIT=0"

# ---- a lesson with a measured trace: the prediction above its measured run ----

for size in "60 16" "80 24" "200 60"; do
    set -- $size
    start "$1" "$2" -- lesson lua/lessons/mpi-real.lua
    wait_for "slide 1/2"
    keys Enter
    wait_all "fnf (measured)" "measured ?(a)"
    keys a   # the measurement is what the question asks about: hidden until revealed
    wait_all "fnf (measured)" "error +0.000558"
    ok $? "$1x$2 mpi-real lesson: slide 1 shows fnf above its measured run"
    keys ]
    wait_for "slide 2/2"
    keys Enter
    wait_all "optimal (measured)" "measured ?(a)"
    keys a
    wait_all "optimal (measured)" "error +0.000591"
    ok $? "$1x$2 mpi-real lesson: slide 2 shows the optimum above its measured run"
    keys q
    wait_for "EXIT=0"
done

# ---- a slide change interrupted: Ctrl-C while the next slide loads ----
# The next slide's cluster is a Lua script that takes seconds to build.
# Ctrl-C then ends the view (130) with the terminal restored; the slide
# change freed the shown slide's cluster before the next one was ready and
# again at the close (SIGSEGV, 139).

mkdir "$TMP/slow"
cp clusters/counterexample.csv "$TMP/slow/a.csv"
cat >"$TMP/slow/slow.lua" <<'EOF'
local n = 0
for i = 1, 6000 do n = n + #string.rep("x", 1000000) end
node{name = "p0", send = 1, recv = 1}
node{name = "p1", send = 2, recv = 2}
EOF
printf 'return {slides = {{title = "first", cluster = "a.csv"}, {title = "slow", cluster = "slow.lua"}}}\n' \
    >"$TMP/slow/l.lua"
start 80 24 -- lesson "$TMP/slow/l.lua"
wait_for "slide 1/2"
keys ]
sleep 0.5
keys C-c
wait_for "EXIT=" 300
grep -q '^EXIT=130$' "$TMP/screen"
ok $? "] to a slide that loads slowly, then Ctrl-C: the view ends with status 130 ($(grep '^EXIT=' "$TMP/screen"))"
sane
ok $? "and the terminal is sane afterwards"

# ---- play keeps its rhythm while keys are pressed ----

start 80 24 -- clusters/k-class.lua --param n=8
wait_for "step 0/"
keys p
# Zoom in and out every 0.1 s for 3 s: before the fix every key restarted
# the 500 ms delay, and play never moved.
j=0
while [ "$j" -lt 30 ]; do
    keys +
    sleep 0.05
    keys -
    sleep 0.05
    j=$((j + 1))
done
capture
step=$(sed -n 's/.*step \([0-9]*\)\/.*/\1/p' "$TMP/screen" | head -n 1)
[ "${step:-0}" -ge 3 ]
ok $? "play advances while keys are pressed (step ${step:-?} after 3 s of keys at 2 steps/s)"
keys p q
wait_for "EXIT=0"

# ---- nothing dim, TERM=dumb ----

start 80 24 -- clusters/counterexample.csv
keys l l l t
wait_for "tree fnf"
tm capture-pane -e -p -t hc >"$TMP/esc"
! grep -q "$(printf '\033')\[\([0-9;]*;\)\?2[;m]" "$TMP/esc"
ok $? "no text drawn dim (SGR 2), in colour"
keys q
wait_for "EXIT=0"
start 80 24 NO_COLOR=1 -- clusters/counterexample.csv
keys l l l
wait_for "step 3/8"
tm capture-pane -e -p -t hc >"$TMP/esc"
! grep -q "$(printf '\033')\[\([0-9;]*;\)\?2[;m]" "$TMP/esc"
ok $? "no text drawn dim (SGR 2), in monochrome"
keys q
wait_for "EXIT=0"

# ---- the lanes that matter without a lesson: the node that sets the makespan ----
start 60 16 -- clusters/lab.lua
wait_for "step 0/"
keys End
wait_for "m4-3 holds the message"
grep -q "those that matter" "$TMP/screen" && grep -q "^m4-3 *│" "$TMP/screen"
ok $? "60x16 lab.lua at its end: m4-3, which sets the makespan, has its lane"
keys q
wait_for "EXIT=0"
start 80 24 -- clusters/k-class.lua --param n=8
wait_for "step 0/"
keys c
wait_for "optimal · makespan 16"
[ "$(grep -c "^slow-4 *│" "$TMP/screen")" -eq 2 ]
ok $? "80x24 k-class n=8 compare: slow-4, which the first difference names, in both panes"
keys q
wait_for "EXIT=0"

start 80 24 HC_TERM=dumb -- clusters/counterexample.csv
wait_for "EXIT=2"
ok $? "TERM=dumb: exit status 2"
grep -q "cannot draw the view" "$TMP/screen"
ok $? "TERM=dumb: says why instead of a blank screen"

echo "1..$n"
[ "$failed" -eq 0 ]
