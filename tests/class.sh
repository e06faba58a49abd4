#!/bin/sh
# class.sh - a live class on the real binary (docs/class.md): the teacher's
# hetcast lesson --class in tmux, 300 simulated students (tests/room_bot.c,
# a test room: HELLO 2 AS NAME) voting in two rounds, the histogram on the
# projector's screen and the rows in the database; hetcast join in tmux; the
# attacks (too long, malformed, not UTF-8, a vote not open, a second vote, a
# flood, a client that never speaks, HELLO AS outside a test room, another
# user id); SIGKILL of the teacher mid-vote, then the room reopened with every
# acknowledged vote; r: every student their own random instance (their node
# table sent and shown by hetcast join, checked against hetcast run, graded
# against their own run, kept in the grade book, the share right shown; 300
# more voting at once on their own instances); the exercise as a class
# challenge (simulated students' picks, wrong and malicious ones, hetcast
# join playing it, the histogram against fnf and the optimum, SIGKILL then
# reopen, then C: without hints until the reveal); a student's practice
# recorded in the grade book; class report against the database (students,
# questions, practice, challenges; CSV and JSON); --gift through a GIFT
# parser (tests/gift_check.py).  Output: TAP.

HETCAST=${HETCAST:-build/hetcast}
case $HETCAST in /*) ;; *) HETCAST=$(pwd)/$HETCAST ;; esac
BOT=${ROOM_BOT:-build/tests/room_bot}
case $BOT in /*) ;; *) BOT=$(pwd)/$BOT ;; esac
for tool in tmux sqlite3; do
    if ! command -v $tool >/dev/null 2>&1; then
        echo "1..0 # SKIP $tool is not installed"
        exit 0
    fi
done

. "$(dirname "$0")/tmux_lib.sh"

D=$TMP/class
mkdir -p "$D"
R=$D/room
LESSON=tests/data/class.lua
q() { sqlite3 "$R.db" "$1"; }
# students: a session of its own for hetcast join
stm() { tm "$@"; }

# ---- a room, 300 students, two rounds ----

start 160 45 -- lesson "$LESSON" --class "$R" --class-test
wait_for "room: 0 in the room"
ok $? "160x45: the room opens and shows its count"
[ "$(stat -c %a "$R")" = 660 ]
ok $? "the socket is the user's and the group's (0660)"
[ "$(stat -c %a "$R.db")" = 600 ]
ok $? "the database is the teacher's alone (0600)"

# attacks, before any vote is open
printf 'VOTE 1 1 A\n' | "$BOT" raw "$R" >"$TMP/a1"
grep -q "^ERR say HELLO 2 first" "$TMP/a1" && grep -q '^closed' "$TMP/a1"
ok $? "a vote before HELLO: refused, the connection dropped"
printf 'HELLO 1\n' | "$BOT" raw "$R" >"$TMP/a2"
grep -q "^ERR this room speaks protocol 2" "$TMP/a2" && grep -q '^closed' "$TMP/a2"
ok $? "another protocol version: refused, dropped"
head -c 700 /dev/zero | tr '\0' x | "$BOT" raw "$R" >"$TMP/a3"
grep -q "^ERR a line holds at most 512 bytes" "$TMP/a3" && grep -q '^closed' "$TMP/a3"
ok $? "a line too long: refused, dropped"
printf 'HELLO 2 AS u1\n\377\376 VOTE\nPING\n' | "$BOT" raw "$R" 1 >"$TMP/a4"
grep -q "^ERR a line is UTF-8 text" "$TMP/a4" && grep -q '^PONG' "$TMP/a4"
ok $? "not UTF-8: refused, the connection goes on"
printf 'HELLO 2 AS u1\nVOTE 1 1 A\nVOTE one\nVOTE 9 1 A\nFROB\n' | "$BOT" raw "$R" 1 >"$TMP/a5"
grep -q "^ERR slide 1 round 1 is not open: no vote is open now" "$TMP/a5" &&
    grep -q "^ERR write VOTE SLIDE ROUND ANSWER" "$TMP/a5" && grep -q "^ERR slide 9 round 1 is not open" "$TMP/a5" &&
    grep -q '^ERR unknown message "FROB"' "$TMP/a5"
ok $? "a vote not open, malformed, for another slide, an unknown message: each refused"
awk 'BEGIN { print "HELLO 2 AS u2"; for (i = 0; i < 300; i++) print "PING" }' | "$BOT" raw "$R" >"$TMP/a6"
grep -q "^ERR too many messages: at most 20 a second" "$TMP/a6" && grep -q '^closed' "$TMP/a6"
ok $? "a flood: refused, dropped"
printf 'HELLO 2 AS bad name\n' | "$BOT" raw "$R" >"$TMP/a7"
grep -q "^ERR HELLO 2 takes nothing more" "$TMP/a7"
ok $? "HELLO AS with a name that is not one: refused"

keys v
wait_for "round 1 open"
ok $? "v opens the vote"
"$BOT" vote "$R" 300 s 1 1 "A*90,B*150,C*60" 30 >"$TMP/r1" &
bot1=$!
wait_for "room: 300 in the room" 200 && wait_for "300 voted" 100
ok $? "300 students in the room, 300 voted (the projector's counts)"
grep -q "^votes 300 in" "$TMP/r1"
ok $? "every one of the 300 votes acknowledged"
! grep -q "s[0-9][0-9][0-9]" "$TMP/screen"
ok $? "no student's name on the projector"
"$BOT" vote "$R" 1 s 1 1 C >"$TMP/r1b"
grep -q "^acked s001 C" "$TMP/r1b"
ok $? "a second vote in the round is acknowledged"
[ "$(q "SELECT answer FROM votes WHERE slide = 1 AND round = 1 AND user = 's001'")" = C ] &&
    [ "$(q "SELECT count(*) FROM votes WHERE slide = 1 AND round = 1 AND user = 's001'")" = 1 ]
ok $? "... and replaces the first: one row, the new answer"
keys b
wait_all "round 1: 300 voted" "A p1, the fast one" "B p2, the slow one"
grep "A p1, the fast one" "$TMP/screen" | grep -q " 89 *$" &&
    grep "B p2, the slow one" "$TMP/screen" | grep -q " 150 *$" &&
    grep "C either" "$TMP/screen" | grep -q " 61 *$"
ok $? "b: the histogram of round 1 (89, 150, 61)"
[ "$(q "SELECT group_concat(answer || '=' || n) FROM (SELECT answer, count(*) AS n FROM votes WHERE slide = 1 AND round = 1 GROUP BY answer ORDER BY answer)")" = "A=89,B=150,C=61" ]
ok $? "the database holds the same 300 votes of round 1"

# a student with hetcast join, in a terminal of their own
stm new-session -d -s st -x 80 -y 24 "env TERM=xterm-256color LANG=C.UTF-8 $HETCAST join $R --as alice; echo JOIN-EXIT=\$?; sleep 600"
jcap() { stm capture-pane -p -t st >"$TMP/join"; }
jwait() { i=0; while [ $i -lt 100 ]; do jcap; grep -qF -- "$1" "$TMP/join" && return 0; sleep 0.1; i=$((i + 1)); done; return 1; }
jwait "Which node should p0 serve first?" && jwait "B  p2, the slow one" && jwait "the vote is open"
ok $? "80x24 hetcast join: the question, its choices, the vote open"
jwait "3 nodes, latency 1" && jwait "p1          1        2" && jwait "p2          2        3"
ok $? "80x24 hetcast join: the slide's node table (the speeds a student reasons on)"

keys B
wait_for "the projector answers nothing while the class votes"
! grep -q "Right:\|Not quite:" "$TMP/screen"
ok $? "a vote open: B on the projector is refused with a message, no answer shown"
keys v
wait_for "round 1 closed"
ok $? "v again: round 1 closes (no round 2 yet)"
jwait "closed: discuss with your neighbour"
ok $? "hetcast join: the round closed, discuss with your neighbour"
"$BOT" vote "$R" 1 s 1 1 B >"$TMP/r1c"
grep -q "is not open" "$TMP/r1c" && ! grep -q "^acked" "$TMP/r1c" &&
    [ "$(q "SELECT answer FROM votes WHERE slide = 1 AND round = 1 AND user = 's001'")" = C ]
ok $? "round 1 closed: a changed vote is refused, the first vote stays"
keys v
wait_for "round 2 open"
ok $? "v once more: round 2"
jwait "round 2: vote again, press the letter of your answer"
ok $? "hetcast join follows: the second round"
stm send-keys -t st D
jwait "D is not a choice here: vote A-C" && jwait "A-C vote"
ok $? "hetcast join: D on a three-choice slide is said, not ignored; the status line offers A-C"
stm send-keys -t st b
jwait "your vote counts: B"
ok $? "hetcast join: B is voted and acknowledged"
"$BOT" vote "$R" 300 s 1 2 "A*30,B*250,C*20" 30 >"$TMP/r2" &
bot2=$!
wait_for "301 voted" 200
ok $? "round 2: 301 voted (300 and alice)"
wait_all "round 1: 300 voted" "round 2: 301 voted"
grep "A p1, the fast one" "$TMP/screen" | grep -q " 89 .* 30 *$" &&
    grep "B p2, the slow one" "$TMP/screen" | grep -q " 150 .* 251 *$"
ok $? "both rounds side by side (A: 89 then 30, B: 150 then 251)"
cp "$TMP/screen" "$TMP/projector-160x45"
keys a
wait_for "round 2 revealed"
ok $? "a reveals: the round's state on the projector"
jwait "the answer: B: p2, the slow one - you were right"
ok $? "hetcast join: the right answer, and alice's result"
stm resize-window -t st -x 60 -y 16 2>/dev/null
jwait "the answer: B: p2, the slow one - you were r" && jwait "B  p2, the slow one" && jwait "q leave"
ok $? "60x16 hetcast join: the choices, the right answer and alice's result"
stm resize-window -t st -x 80 -y 24 2>/dev/null
grep -q "B p2, the slow one.*✓\|✓.*" "$TMP/screen"
ok $? "the right choice is marked on the projector"
jcap
! grep -q "s0[0-9][0-9]" "$TMP/join"
ok $? "a student sees no other student's name or vote"
stm send-keys -t st q
jwait "JOIN-EXIT=0"
ok $? "hetcast join: q leaves (status 0)"
[ "$(q "SELECT count(*) FROM votes WHERE slide = 1 AND round = 2")" = 301 ] &&
    [ "$(q "SELECT correct FROM votes WHERE user = 'alice'")" = 1 ] &&
    [ "$(q "SELECT state FROM rounds WHERE slide = 1 ORDER BY round")" = "closed
revealed" ]
ok $? "the database: 301 votes in round 2, alice right, round 1 closed, round 2 revealed"

# the projector at the other sizes
for size in "60 16" "80 24"; do
    set -- $size
    tm resize-window -t hc -x "$1" -y "$2" 2>/dev/null
    sleep 0.3
    wait_for "room:" && capture
    grep -q "round 2 revealed\|round 2 rev" "$TMP/screen"
    ok $? "$1x$2: the room's line fits"
    cp "$TMP/screen" "$TMP/projector-$1x$2"
done
tm resize-window -t hc -x 160 -y 45 2>/dev/null

# ---- another user id: who they are, and no HELLO AS ----
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
    chmod 0755 "$D" "$TMP"
    chmod 0666 "$R"
    printf 'HELLO 2 AS mallory\n' | setpriv --reuid=nobody --regid=nogroup --clear-groups "$BOT" raw "$R" >"$TMP/u1" 2>&1
    grep -q "^ERR HELLO AS: only a test room takes it, from its own user" "$TMP/u1"
    ok $? "another user id: HELLO AS refused (nobody answers as somebody else)"
    keys ']'
    wait_for "slide 2/5"
    keys v
    wait_for "round 1 open"
    printf 'HELLO 2\nVOTE 2 1 6\n' | setpriv --reuid=nobody --regid=nogroup --clear-groups "$BOT" raw "$R" 1 >"$TMP/u2" 2>&1
    grep -q "^WELCOME 2 nobody" "$TMP/u2" && grep -q "^OK 2 1 6" "$TMP/u2" &&
        [ "$(q "SELECT answer || correct FROM votes WHERE slide = 2 AND user = 'nobody'")" = 61 ]
    ok $? "another user id votes as itself (SO_PEERCRED: nobody), graded right"
    chmod 0660 "$R"
else
    ok 0 "# SKIP another user id needs root and setpriv"
    ok 0 "# SKIP another user id needs root and setpriv"
    keys ']'
    wait_for "slide 2/5"
    keys v
    wait_for "round 1 open"
fi

# ---- SIGKILL mid-vote, then the room again ----
pid=$(hetcast_pid)
: >"$TMP/r3"   # made here: the wait below must not run before the bot's shell opens it
"$BOT" vote "$R" 300 k 2 1 "6*100,5*100,6.0*100" >>"$TMP/r3" &
bot3=$!
i=0
while [ "$(grep -c '^acked' "$TMP/r3" 2>/dev/null)" -lt 20 ] && [ $i -lt 3000 ]; do sleep 0.02; i=$((i + 1)); done
kill -KILL "$pid"
wait $bot3
acked=$(grep -c '^acked' "$TMP/r3")
grep '^acked' "$TMP/r3" | while read -r _ user answer; do
    [ "$(q "SELECT answer FROM votes WHERE slide = 2 AND round = 1 AND user = '$user'")" = "$answer" ] || echo "$user"
done >"$TMP/lost"
[ "$acked" -ge 20 ] && [ ! -s "$TMP/lost" ]
ok $? "SIGKILL of the teacher mid-vote: every acknowledged vote is in the database ($acked acknowledged)"
[ "$(q "SELECT count(*) FROM votes WHERE slide = 2 AND user LIKE 'k%' AND answer = '5' AND correct = 1")" = 0 ] &&
    [ "$(q "SELECT count(*) FROM votes WHERE slide = 2 AND user LIKE 'k%' AND answer = '6.0' AND correct = 0")" = 0 ]
ok $? "predictions graded against the run: 5 wrong, 6 and 6.0 right"
start 160 45 -- lesson "$LESSON" --class "$R" --class-test
wait_for "round 2 revealed"
ok $? "the room reopens on the stale socket and resumes: slide 1, round 2 revealed"
"$BOT" idle "$R" 14 >"$TMP/idle" &
idle_pid=$!
keys b
wait_all "round 1: 300 voted" "round 2: 301 voted"
ok $? "the histogram of both rounds is back"
keys ']'
wait_for "slide 2/5" && wait_for "round 1 open" && ! grep -q "round 1: [0-9]* voted" "$TMP/screen"
ok $? "slide 2: its round still open, its histogram off until b"
"$BOT" vote "$R" 1 k 2 1 6 >"$TMP/r4"
grep -q "^acked k001 6" "$TMP/r4"
ok $? "students vote on in the resumed round"
keys ']'
wait_for "slide 3/5"
keys v
wait_for "round 1 open"
printf 'HELLO 2 AS n1\nVOTE 3 1 p9 -> p1\nVOTE 3 1 p0 -> p1\n' | "$BOT" raw "$R" 1 >"$TMP/n1"
grep -q "^ERR \"p9\" is not a node of the slide's cluster (p0 to p2)" "$TMP/n1" && grep -q "^OK 3 1 p0 -> p1" "$TMP/n1" &&
    [ "$(q "SELECT answer || ' ' || correct FROM votes WHERE slide = 3 AND user = 'n1'")" = "p0 -> p1 1" ]
ok $? "a transfer naming no node of the cluster: refused, not graded wrong; the right one counts"

# ---- r: every student their own random instance (slide 3: fnf's first transfer) ----
keys r
wait_for "round 1 is open: v closes it first"
ok $? "r while a round is open: refused, the round stays"
keys v
wait_for "round 1 closed"
keys r
wait_for "each their own instance"
ok $? "r: the projector says each student answers about their own instance"
# student_table USER: the node table the room sends USER, as CSV (the instance's source is p0)
student_table() {
    printf 'HELLO 2 AS %s\nPING\n' "$1" | "$BOT" raw "$R" 1 >"$TMP/inst-$1"
    awk '$1 == "NODES" { print "# latency: " $3; print "# source: p0"; print "name,send,recv" }
         $1 == "NODE" { print $2 "," $3 "," $4 }' "$TMP/inst-$1" >"$TMP/inst-$1.csv"
}
first_of() { "$HETCAST" run "$1" -s fnf | awk '$1 == "1" && NF > 6 { print $2 " -> " $3 }'; }
student_table ia
student_table ib
fa=$(first_of "$TMP/inst-ia.csv")
fb=$(first_of "$TMP/inst-ib.csv")
grep -q '^TEXT Your own random instance of this slide (seed [0-9]*)' "$TMP/inst-ia" && [ -n "$fa" ] && [ -n "$fb" ] &&
    ! cmp -s "$TMP/inst-ia.csv" "$TMP/inst-ib.csv" &&
    [ "$(q "SELECT count(*) FROM instances WHERE slide = 3 AND user IN ('ia', 'ib')")" = 2 ]
ok $? "two students, two instances: each sent its own node table, each kept in the grade book"
"$HETCAST" run "$(printf '%s' "$(q "SELECT csv FROM instances WHERE slide = 3 AND user = 'ia'")" >"$TMP/ia-db.csv"; echo "$TMP/ia-db.csv")" -s fnf |
    awk '$1 == "1" && NF > 6 { print $2 " -> " $3 }' >"$TMP/ia-db.first"
[ "$(cat "$TMP/ia-db.first")" = "$fa" ]
ok $? "the instance CSV in the grade book is the one ia was sent ($fa)"
student_table jc
stm new-session -d -s st3 -x 80 -y 24 "env TERM=xterm-256color LANG=C.UTF-8 $HETCAST join $R --as jc; sleep 600"
j3() { i=0; while [ $i -lt 100 ]; do stm capture-pane -p -t st3 >"$TMP/join3"; grep -qF -- "$1" "$TMP/join3" && return 0; sleep 0.1; i=$((i + 1)); done; return 1; }
rows=$(awk -F, 'NR > 3 { printf "%s %s %s; ", $1, $2, $3 }' "$TMP/inst-jc.csv")
j3 "Your own random instance of this slide" && j3 "$(awk -F, 'END { print $1 }' "$TMP/inst-jc.csv")" &&
    [ "$rows" != "p0 1 2; p1 1 2; p2 2 3; " ] &&
    awk -F, 'NR > 3 { print "^ *" $1 " +" $2 " +" $3 " *$" }' "$TMP/inst-jc.csv" | while read -r re; do
        grep -qE "$re" "$TMP/join3" || echo missing; done | { ! grep -q missing; }
ok $? "80x24 hetcast join: the student's own instance and its node table ($rows not the slide's own)"
stm kill-session -t st3
keys v
wait_for "round 2 open"
wrong=$(printf '%s\n' "$fb" | awk '{ print $3 " -> " $1 }')
printf 'HELLO 2 AS ia\nVOTE 3 2 %s\n' "$fa" | "$BOT" raw "$R" 1 >"$TMP/va"
printf 'HELLO 2 AS ib\nVOTE 3 2 %s\n' "$wrong" | "$BOT" raw "$R" 1 >"$TMP/vb"
grep -q "^OK 3 2 $fa" "$TMP/va" && grep -q "^OK 3 2 $wrong" "$TMP/vb" &&
    [ "$(q "SELECT correct FROM votes WHERE slide = 3 AND round = 2 AND user = 'ia'")" = 1 ] &&
    [ "$(q "SELECT correct FROM votes WHERE slide = 3 AND round = 2 AND user = 'ib'")" = 0 ]
ok $? "each graded against their own instance's run: ia's first transfer right, ib's reversed one wrong"
# 300 students more, each on their own instance (drawn when they join), all voting at once
"$BOT" vote "$R" 300 x 3 2 "p0 -> p1*300" >"$TMP/vx"
sed -n 's/^\(votes\|acknowledged\)/# 300 students on their own instances: &/p' "$TMP/vx"
xin=$(q "SELECT count(*) FROM instances WHERE slide = 3 AND user GLOB 'x[0-9][0-9][0-9]'")
xvotes=$(q "SELECT count(*) FROM votes WHERE slide = 3 AND round = 2 AND user GLOB 'x[0-9][0-9][0-9]'")
xright=$(q "SELECT count(*) FROM votes WHERE slide = 3 AND round = 2 AND user GLOB 'x[0-9][0-9][0-9]' AND correct = 1")
[ "$(grep -c '^acked x' "$TMP/vx")" -eq 300 ] && [ "$xvotes" -eq 300 ] && [ "$xin" -eq 300 ]
ok $? "300 students on their own instances: 300 acknowledged, 300 votes and 300 instances in the grade book"
[ "$xright" -gt 0 ] && [ "$xright" -lt 300 ]
ok $? "the same answer (p0 -> p1) from all 300 is right on some instances and wrong on others ($xright right)"
keys a
wait_for "$((xright + 1)) of 302 right"
ok $? "the reveal: the projector shows the share right ($((xright + 1)) of 302)"
printf 'HELLO 2 AS ib\nPING\n' | "$BOT" raw "$R" 1 >"$TMP/rb"
grep -qx "EXPECTED $fb" "$TMP/rb" && grep -qx "RESULT wrong" "$TMP/rb" && grep -q "^EXPLAIN $fb: " "$TMP/rb"
ok $? "after the reveal ib is told their own instance's answer ($fb) and why"
keys r
wait_gone "each their own instance"
ok $? "r again: the slide's own cluster for all"

# ---- the exercise as a class challenge (slide 5: five nodes, fnf 8, optimum 6) ----
keys ']' ']'
wait_for "slide 5/5"
keys c
wait_all "challenge open: 0 finished" "fnf 8" "optimum 6"
ok $? "c opens the challenge: fnf's makespan and the optimum on the projector"
"$BOT" play "$R" 40 c 5 0 "0>4 0>2 0>1 0>3*10,0>1 0>2 1>3 0>4*12,0>1 0>2 0>3 0>4*8,0>4 0>2 0>1 1>3*5,0>2 0>1 1>3 2>4*5" >"$TMP/p1"
[ "$(grep -c '^acked' "$TMP/p1")" = 40 ] && grep -qx "acked c001 6" "$TMP/p1" && grep -qx "acked c011 7" "$TMP/p1" &&
    grep -qx "acked c040 11" "$TMP/p1"
ok $? "40 students' picks replayed by the room: each acknowledged with the makespan the room computed"
"$BOT" play "$R" 7 m 5 0 "0>1 1>0,0>1 0>2,9>1,0>1 0>2 1>3 0>4 0>3,x,0>4 0>2 0>1 0>3 ,0>1>2 0>3 0>4" >"$TMP/p2"
grep -q '^refused m001 pick 2 (1>0): p0 holds the message already' "$TMP/p2" &&
    grep -q '^refused m002 the broadcast is not finished: 2 nodes still wait' "$TMP/p2" &&
    grep -q '^refused m003 pick 1 "9>1" is not SENDER>RECEIVER with node numbers 0 to 4' "$TMP/p2" &&
    grep -q '^refused m004 pick 5: every node holds the message already' "$TMP/p2" &&
    grep -q '^refused m005 pick 1 "x" is not' "$TMP/p2" && grep -q '^refused m006 the picks end with a space' "$TMP/p2" &&
    grep -q '^refused m007 pick 1 "0>1>2" is not' "$TMP/p2" && ! grep -q '^acked' "$TMP/p2"
ok $? "impossible, unfinished, malformed pick lists: each refused with its reason"
printf 'HELLO 2 AS m8
PLAY 4 0>4 0>2 0>1 0>3
PLAY 5 %s
' "$(head -c 600 /dev/zero | tr '\0' 0)" | "$BOT" raw "$R" 1 >"$TMP/p3"
grep -q "^ERR slide 4 has no challenge open" "$TMP/p3" && grep -q "^ERR a line holds at most 512 bytes" "$TMP/p3"
ok $? "a result for another slide, a pick list too long: refused"
[ "$(q "SELECT count(*) FROM challenges WHERE slide = 5")" = 40 ] &&
    [ "$(q "SELECT count(*) FROM challenges WHERE user LIKE 'm%'")" = 0 ] &&
    [ "$(q "SELECT makespan || ' ' || picks FROM challenges WHERE user = 'c001'")" = "6.0 0>4 0>2 0>1 0>3" ] &&
    [ "$(q "SELECT group_concat(m || '=' || n) FROM (SELECT makespan AS m, count(*) AS n FROM challenges GROUP BY 1 ORDER BY 1)")" = "6.0=10,7.0=12,8.0=8,9.0=5,11.0=5" ]
ok $? "the database: 40 results with their picks, none of the refused"
stm new-session -d -s st2 -x 80 -y 24 "env TERM=xterm-256color LANG=C.UTF-8 $HETCAST join $R --as bob; echo JOIN-EXIT=\$?; sleep 600"
jcap() { stm capture-pane -p -t st2 >"$TMP/join"; }
jwait "challenge open: Enter to play (5 nodes, async)" && jwait "Enter play"
ok $? "80x24 hetcast join: the challenge is open, Enter plays"
jwait "Every student builds the broadcast: c opens the challenge." && jwait "5 nodes, latency 1" &&
    jwait "p4          3        3"
ok $? "80x24 hetcast join: the slide's text and its node table"
stm send-keys -t st2 Enter
jwait "Build the broadcast yourself" && jwait "EXERCISE"
ok $? "Enter: the exercise on the room's cluster, as the instructor's x"
stm send-keys -t st2 '?'
sleep 0.3
stm send-keys -t st2 ' '
jwait "pick a sender:"
ok $? "its help (?) and back: still the exercise"
for k in 1 2 3 4; do stm send-keys -t st2 Enter; sleep 0.2; stm send-keys -t st2 Enter; sleep 0.3; done
jwait "Done: your makespan 8, fnf 8, best possible 6"
ok $? "four picks: the exercise's verdict (makespan 8, fnf 8, best possible 6)"
stm send-keys -t st2 x
jwait "your makespan counts: 8 (the room replayed your picks)"
ok $? "x: the picks go to the room, which replays them and acknowledges 8"
[ "$(q "SELECT makespan || ' ' || picks FROM challenges WHERE user = 'bob'")" = "8.0 0>1 0>2 0>3 0>4" ] &&
    [ "$(q "SELECT transfers FROM challenges WHERE user = 'bob'")" = "p0 -> p1, p0 -> p2, p0 -> p3, p0 -> p4" ]
ok $? "bob's result and picks in the database, by number and by name"
wait_for "challenge open: 41 finished"
grep -q "^  6 .* 10 *◀ optimum" "$TMP/screen" && grep -q "^  7 .* 12 *$" "$TMP/screen" &&
    grep -q "^  8 .* 9 *◀ fnf" "$TMP/screen" && grep -q "^  11 .* 5 *$" "$TMP/screen" &&
    ! grep -q "c0[0-9][0-9]\|bob" "$TMP/screen"
ok $? "160x45: the class's makespans against fnf and the optimum, no name"
cp "$TMP/screen" "$TMP/challenge-160x45"
for size in "60 16" "80 24"; do
    set -- $size
    tm resize-window -t hc -x "$1" -y "$2" 2>/dev/null
    sleep 0.3
    wait_for "41 finished" && capture
    grep -q "◀ optimum" "$TMP/screen" && grep -q "◀ fnf" "$TMP/screen" && grep -q "^  11 .* 5" "$TMP/screen"
    ok $? "$1x$2: the challenge's histogram fits"
    cp "$TMP/screen" "$TMP/challenge-$1x$2"
done
tm resize-window -t hc -x 160 -y 45 2>/dev/null
stm resize-window -t st2 -x 60 -y 16 2>/dev/null
sleep 0.3
jwait "challenge open: Enter to play (5 nodes, async)" && jwait "your makespan: 8"
ok $? "60x16 hetcast join: the challenge and bob's recorded makespan"
stm send-keys -t st2 q
jwait "JOIN-EXIT=0"
ok $? "hetcast join: q leaves after the challenge"

wait $idle_pid
grep -q "^closed after 1[0-2] s" "$TMP/idle"
ok $? "a client that never speaks is dropped after 10 s, and held nobody up"

# SIGKILL with the challenge open, then the room again: every acknowledged result is there
pid=$(hetcast_pid)
: >"$TMP/p4"
"$BOT" play "$R" 30 k 5 0 "0>4 0>2 0>1 0>3*30" >>"$TMP/p4" 2>"$TMP/p4.err" &
bot4=$!
i=0
while [ "$(grep -c '^acked' "$TMP/p4" 2>/dev/null)" -lt 5 ] && [ $i -lt 3000 ]; do sleep 0.02; i=$((i + 1)); done
kill -KILL "$pid"
wait $bot4
acked=$(grep -c '^acked' "$TMP/p4")
grep '^acked' "$TMP/p4" | while read -r _ user ms; do
    [ "$(q "SELECT makespan FROM challenges WHERE slide = 5 AND user = '$user'")" = "$ms.0" ] || echo "$user"
done >"$TMP/lost"
[ "$acked" -ge 5 ] && [ ! -s "$TMP/lost" ]
ok $? "SIGKILL of the teacher mid-challenge: every acknowledged result is in the database ($acked acknowledged)"
[ "$acked" -ge 5 ] || sed "s/^/# bot: /" "$TMP/p4" "$TMP/p4.err" | head -20
n5=$(q "SELECT count(*) FROM challenges WHERE slide = 5")
start 160 45 -- lesson "$LESSON" --class "$R" --class-test
wait_for "room: 0 in the room"
keys ']' ']' ']' ']' b
wait_for "challenge open: $n5 finished" && grep -q "fnf 8.*optimum 6" "$TMP/screen"
ok $? "the room reopens with the challenge still open, its $n5 results, fnf and the optimum marked"
"$BOT" play "$R" 1 z 5 0 "0>4 0>2 0>1 0>3" >"$TMP/p5"
grep -qx "acked z001 6" "$TMP/p5" && wait_for "challenge open: $((n5 + 1)) finished"
ok $? "students play on in the reopened challenge"
keys c
wait_for "challenge closed: $((n5 + 1)) finished" && [ "$(q "SELECT state FROM challenge_rounds WHERE slide = 5")" = closed ]
ok $? "c closes it: on the projector and in the database"
# the challenge again without hints (C): the students are told, the projector keeps the optimum back
keys C
wait_for "challenge open, no hints" && ! grep -q "optimum" "$TMP/screen" && grep -q "fnf 8" "$TMP/screen"
ok $? "C opens the challenge without hints: 'no hints' and fnf on the projector, no optimum"
printf 'HELLO 2 AS nh1\nPING\n' | "$BOT" raw "$R" 1 >"$TMP/nh1"
grep -qx "CHALLENGE open 5 async nohints" "$TMP/nh1"
ok $? "a student joining meanwhile is told: CHALLENGE open 5 async nohints"
"$BOT" play "$R" 1 y 5 0 "0>4 0>2 0>1 0>3" >"$TMP/p6"
grep -qx "acked y001 6" "$TMP/p6" && [ "$(q "SELECT makespan FROM challenges WHERE slide = 5 AND user = 'y001'")" = 6.0 ]
ok $? "a result without hints is acknowledged and kept like any other"
keys a
wait_for "optimum 6" && ! grep -q "no hints" "$TMP/screen"
ok $? "a reveals: the optimum on the projector, 'no hints' gone"
keys q
wait_for "EXIT=0"
ok $? "q leaves the lesson"
[ ! -e "$R" ]
ok $? "the socket is removed when the room closes"
wait $bot1 $bot2 2>/dev/null

# ---- a flood of connections from one user, under a low descriptor limit ----
# (ulimit -n in a subshell: the tmux server it starts, and the room in it,
# keep the limit; 100 descriptors leave room for 36 students beside the 64
# the room keeps free).  Every connection past the cap is told the room is
# full; the user is one student (one name, one vote in the round); a
# bystander is refused, not misnamed; the full room does not spin.
F=$D/full
(ulimit -n 100 && start 80 24 -- lesson "$LESSON" --class "$F")
wait_for "room: 0 in the room"
keys v
wait_for "round 1 open"
"$BOT" flood "$F" 150 1 1 A 8 >"$TMP/flood" &
flood=$!
i=0
while ! grep -q '^held' "$TMP/flood" && [ $i -lt 150 ]; do sleep 0.1; i=$((i + 1)); done
me=$(id -un)
[ "$(grep -c '^name ' "$TMP/flood")" = 36 ] && [ "$(grep '^name ' "$TMP/flood" | sort -u)" = "name $me" ] &&
    [ "$(grep -c '^refused the room is full$' "$TMP/flood")" = 114 ] && [ "$(grep -c '^acked$' "$TMP/flood")" = 36 ] &&
    ! grep -q '^silent' "$TMP/flood"
ok $? "150 connections of one user, 100 descriptors: 36 in, each named $me; 114 told the room is full"
[ "$(sqlite3 "$F.db" "SELECT user || ' ' || count(*) FROM votes WHERE slide = 1 AND round = 1 GROUP BY user")" = "$me 1" ]
ok $? "... 36 votes acknowledged, one row: one student, one vote in the round"
fpid=$(hetcast_pid)
tck=$(getconf CLK_TCK)
t0=$(awk '{ print $14 + $15 }' "/proc/$fpid/stat")
sleep 3
t1=$(awk '{ print $14 + $15 }' "/proc/$fpid/stat")
[ $((t1 - t0)) -lt $((tck / 10)) ]
ok $? "the full room waits without spinning (CPU $((t1 - t0)) ticks in 3 s, $tck a second)"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
    chmod 0755 "$D" "$TMP"
    chmod 0666 "$F"
    printf 'HELLO 2\n' | setpriv --reuid=nobody --regid=nogroup --clear-groups "$BOT" raw "$F" 1 >"$TMP/u3" 2>&1
    grep -qx "ERR the room is full" "$TMP/u3" && grep -qx closed "$TMP/u3" &&
        [ "$(sqlite3 "$F.db" "SELECT count(*) FROM votes WHERE user <> '$me'")" = 0 ]
    ok $? "a bystander while the room is full: told so, never recorded under another name"
else
    ok 0 "# SKIP a bystander of another user id needs root and setpriv"
fi
wait $flood
keys q
wait_for "EXIT=0"
ok $? "q leaves the full room"

# ---- a room that lies to hetcast join (tests/fake_room.py) ----
# a slide numbered -1 of 0: refused as a line the client cannot read; a
# challenge announced with 3 nodes whose CSV holds 40: not played
if command -v python3 >/dev/null 2>&1; then
    printf 'WELCOME 2 eve\nSLIDE -1 0 0 none none\nTITLE nothing\nEND\n' >"$TMP/lie1"
    python3 tests/fake_room.py "$D/liar1" "$TMP/lie1" &
    fake=$!
    i=0; while [ ! -S "$D/liar1" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    stm new-session -d -s lie -x 80 -y 24 "env TERM=xterm-256color LANG=C.UTF-8 $HETCAST join $D/liar1 2>$TMP/lie1.err; echo JOIN-EXIT=\$?; sleep 600"
    jcap() { stm capture-pane -p -t lie >"$TMP/join"; }
    jwait "JOIN-EXIT=1" && grep -q "the room sent a SLIDE line this client cannot read" "$TMP/lie1.err" &&
        ! grep -q "slide -1" "$TMP/join"
    ok $? "hetcast join: a room's slide -1 of 0 is refused (status 1, the reason), never shown"
    stm kill-session -t lie 2>/dev/null
    kill $fake 2>/dev/null
    wait $fake 2>/dev/null
    { printf 'WELCOME 2 eve\nSLIDE 1 1 0 none none\nTITLE a room that lies\nCHALLENGE open 3 one-port\nCSV name,send,recv\n'
      i=0; while [ $i -lt 40 ]; do printf 'CSV p%d,1,2\n' $i; i=$((i + 1)); done
      printf 'END\n'; } >"$TMP/lie2"
    python3 tests/fake_room.py "$D/liar2" "$TMP/lie2" &
    fake=$!
    i=0; while [ ! -S "$D/liar2" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    stm new-session -d -s lie -x 80 -y 24 "env TERM=xterm-256color LANG=C.UTF-8 $HETCAST join $D/liar2; echo JOIN-EXIT=\$?; sleep 600"
    jwait "challenge open: Enter to play (3 nodes" && stm send-keys -t lie Enter &&
        jwait "the room announced 3 nodes and sent 40" && ! grep -q "p39" "$TMP/join"
    ok $? "hetcast join: a challenge announced with 3 nodes that sends 40 is not played"
    stm send-keys -t lie q
    jwait "JOIN-EXIT=0"
    ok $? "... and q leaves (status 0)"
    stm kill-session -t lie 2>/dev/null
    kill $fake 2>/dev/null
    wait $fake 2>/dev/null
else
    for i in 1 2 3; do ok 0 "# SKIP python3 is not installed"; done
fi

# ---- the grade book is the instructor's alone ----
# another user's database made before the room opens (in a folder others
# may write, or put in ours), or one others may read: refused, status 2,
# the reason; the room opens only on a file it made (O_EXCL, 0600) or its own
G=$D/shared
mkdir -p "$G"
chmod 1777 "$G"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
    chmod 0755 "$D" "$TMP"
    setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c 'umask 0; : >"$1"' sh "$G/room.db"
    timeout 20 "$HETCAST" lesson "$LESSON" --class "$G/room" </dev/null >"$TMP/out" 2>"$TMP/err"
    [ $? -eq 2 ] && grep -q "room.db: others may write in the folder .*shared (mode 1777)" "$TMP/err" &&
        [ ! -e "$G/room" ] && [ "$(stat -c %s "$G/room.db")" = 0 ]
    ok $? "a database another user made (0666) in a folder others may write: refused, the folder named"
    mkdir -p "$D/mine"
    setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c 'umask 0; : >"$1"' sh "$G/moved.db"
    mv "$G/moved.db" "$D/mine/room.db"
    timeout 20 "$HETCAST" lesson "$LESSON" --class "$D/mine/room" </dev/null >"$TMP/out" 2>"$TMP/err"
    [ $? -eq 2 ] && grep -q "mine/room.db: another user's file (uid $(id -u nobody))" "$TMP/err"
    ok $? "another user's database in the instructor's folder: refused"
else
    ok 0 "# SKIP another user's database needs root and setpriv (a second user)"
    ok 0 "# SKIP another user's database needs root and setpriv (a second user)"
fi
timeout 20 "$HETCAST" lesson "$LESSON" --class "$G/room2" </dev/null >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "others may write in the folder" "$TMP/err" && [ ! -e "$G/room2.db" ]
ok $? "a room in a folder others may write: refused before any file is made"
mkdir -p "$D/open"
(umask 022 && sqlite3 "$D/open/room.db" "CREATE TABLE t(x)")
timeout 20 "$HETCAST" lesson "$LESSON" --class "$D/open/room" </dev/null >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "open/room.db: others may read or write it (mode 0644)" "$TMP/err"
ok $? "a database others may read: refused (chmod 600 named)"

# ---- class report against the database ----
# report_csv DB ARGS...: class report's CSV rows, after its two schema lines (checked here once)
report_csv() { "$HETCAST" class report "$@" --format csv | sed '1{/^# format_version: 2$/d}' | sed '1{/^# hetcast: /d}'; }
"$HETCAST" class report "$R.db" --format csv | head -2 | tr '\n' ' ' | grep -q '^# format_version: 2 # hetcast: [0-9]'
ok $? "class report --format csv: the two lines of every CSV first (format_version, hetcast)"
# a student practising the class's lesson at home, recorded in the same grade book
printf 'q\n' | "$HETCAST" practice "$LESSON" --seed 5 --in-a-row 2 --room "$R" --as pat >"$TMP/pr" 2>&1
tail -n 1 "$TMP/pr" | grep -q "^stopped: 0 right in a row of 2 after 0 questions (0 right); again: --seed 5; recorded for pat in $R.db\$"
ok $? "hetcast practice --room: a student's practice recorded in the class's grade book"
report_csv "$R.db" --table practice >"$TMP/pr.csv"
head -n 1 "$TMP/pr.csv" | grep -qx 'course,lesson,user,goal,answered,right,mastered,seed,time' &&
    grep -q '^room,class.lua,pat,2,0,0,no,5,' "$TMP/pr.csv" && [ "$(wc -l <"$TMP/pr.csv")" = 2 ]
ok $? "class report --table practice: the practice table, pat's row"
report_csv "$R.db" >"$TMP/students.csv"
sqlite3 -csv "$R.db" "WITH last AS (SELECT course, lesson, slide, user, max(round) AS round FROM votes GROUP BY 1, 2, 3, 4)
  SELECT v.course, v.user, count(*), sum(v.correct), (SELECT count(*) FROM votes f WHERE f.user = v.user AND f.round = 1 AND f.correct = 1)
  FROM votes v JOIN last USING (course, lesson, slide, user, round) GROUP BY v.course, v.user ORDER BY v.course, v.user" >"$TMP/want.csv"
tail -n +2 "$TMP/students.csv" | tr -d '\r' >"$TMP/got.csv"
head -1 "$TMP/students.csv" | grep -q "^course,user,answered,right,right_first_round" && diff "$TMP/want.csv" "$TMP/got.csv" >/dev/null &&
    [ "$(wc -l <"$TMP/got.csv")" -ge 321 ]
ok $? "class report --format csv: per student, as the database says"
grep -qx "room,s001,1,0,0" "$TMP/got.csv" && grep -qx "room,s100,1,1,1" "$TMP/got.csv" &&
    grep -qx "room,s031,1,1,0" "$TMP/got.csv" && grep -qx "room,alice,1,1,0" "$TMP/got.csv"
ok $? "... s001 wrong twice, s100 right twice, s031 right in round 2 only, alice right in round 2"
report_csv "$R.db" --table questions >"$TMP/q.csv"
grep -q '^room,class.lua,1,Which node should p0 serve first?,"B: p2, the slow one",1,300,150' "$TMP/q.csv" &&
    grep -q '^room,class.lua,1,Which node should p0 serve first?,"B: p2, the slow one",2,301,251' "$TMP/q.csv"
ok $? "class report --table questions: votes and right answers per round"
"$HETCAST" class report "$R.db" --format json >"$TMP/r.json"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d["students"]) == int(sys.argv[2]) and d["questions"] and [p["user"] for p in d["practice"]] == ["pat"]' \
    "$TMP/r.json" "$(wc -l <"$TMP/got.csv")"
ok $? "class report --format json: the students', questions' and practice tables"
report_csv "$R.db" --anonymous >"$TMP/anon1.csv"
report_csv "$R.db" --anonymous >"$TMP/anon2.csv"
! grep -qw "s001\|alice\|nobody" "$TMP/anon1.csv" && cmp -s "$TMP/anon1.csv" "$TMP/anon2.csv" &&
    [ "$(cut -d, -f2 "$TMP/anon1.csv" | sort -u | wc -l)" = "$(wc -l <"$TMP/anon1.csv")" ]
ok $? "--anonymous: no name, distinct pseudonyms, the same on every run"
report_csv "$R.db" --table challenges >"$TMP/ch.csv"
sqlite3 -csv "$R.db" "SELECT course, lesson, slide, user, makespan, picks, time, transfers FROM challenges ORDER BY 1, 2, 3, 4" |
    sed 's/,\([0-9]*\)\.0,/,\1,/; s/,"\([0-9> ]*\)",/,\1,/' >"$TMP/want-ch.csv"
head -1 "$TMP/ch.csv" | grep -q "^course,lesson,slide,user,makespan,picks,time,transfers" &&
    tail -n +2 "$TMP/ch.csv" | tr -d '\r' | diff - "$TMP/want-ch.csv" >/dev/null &&
    grep -q "^room,class.lua,5,bob,8,0>1 0>2 0>3 0>4,.*,\"p0 -> p1, p0 -> p2, p0 -> p3, p0 -> p4\"" "$TMP/ch.csv"
ok $? "class report --table challenges: every result with its picks (numbers and names), as the database says"
"$HETCAST" class report "$R.db" --format json >"$TMP/r.json"
"$HETCAST" class report "$R.db" >"$TMP/r.txt"
[ "$(grep -c '"makespan": ' "$TMP/r.json")" = "$(tail -n +2 "$TMP/ch.csv" | wc -l)" ] &&
    grep -q '"user": "bob", "makespan": 8, "picks": "0>1 0>2 0>3 0>4"' "$TMP/r.json" &&
    grep -q '"transfers": "p0 -> p1, p0 -> p2, p0 -> p3, p0 -> p4"}' "$TMP/r.json" &&
    grep -q "^room  *class.lua  *5 bob  *8  p0 -> p1, p0 -> p2, p0 -> p3, p0 -> p4$" "$TMP/r.txt"
ok $? "class report as JSON and text: the challenges' results too"
report_csv "$R.db" --table challenges --anonymous >"$TMP/cha.csv"
! grep -q ",bob,\|,c[0-9][0-9][0-9]," "$TMP/cha.csv" && [ "$(wc -l <"$TMP/cha.csv")" = "$(wc -l <"$TMP/ch.csv")" ]
ok $? "--anonymous: the challenges' results without a name"
! grep -q 'T[0-9][0-9]:[0-9][0-9]:[0-9]' "$TMP/cha.csv" && grep -q ',20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9],' "$TMP/cha.csv"
ok $? "--anonymous: the results' times to the minute, not to the millisecond"
"$HETCAST" class report "$TMP/nothing.db" >"$TMP/err" 2>&1
[ $? -eq 2 ] && grep -q "nothing.db" "$TMP/err"
ok $? "class report of a missing database: status 2, the file named"
# a query that fails while stepping (here a view whose row overflows; a
# corrupt page or an I/O error fail the same way): refused once, no crash
sqlite3 "$TMP/fails.db" "CREATE TABLE room(key TEXT PRIMARY KEY, value TEXT NOT NULL);
  INSERT INTO room VALUES('salt', 'ab');
  CREATE VIEW votes AS SELECT 'c' AS course, 'l' AS lesson, 1 AS slide, 'u' AS user,
    abs(-9223372036854775807 - 1) AS round, 1 AS correct"
"$HETCAST" class report "$TMP/fails.db" >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "fails.db: .*integer overflow" "$TMP/err" && [ "$(wc -l <"$TMP/err")" = 1 ]
ok $? "class report of a database whose query fails midway: status 2, the reason, no crash"
# a foreign database (no CHECKs): counts that cannot be, a makespan that is
# no number (SQLite keeps a NaN as NULL) -- refused with the row, not printed
sqlite3 "$TMP/foreign.db" "CREATE TABLE room(key, value); INSERT INTO room VALUES('salt', 'ab');
  CREATE TABLE questions(course, lesson, slide, question, expected);
  CREATE TABLE votes(course, lesson, slide, user, round, correct);
  INSERT INTO votes VALUES('c', 'l', 1, 'eve', 1, 7)"
"$HETCAST" class report "$TMP/foreign.db" >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "foreign.db: .*user eve of course c: 1 answered, 7 right" "$TMP/err" && [ ! -s "$TMP/out" ]
ok $? "class report of a foreign database: right 7 of 1 answered refused, the row named"
sqlite3 "$TMP/foreign.db" "UPDATE votes SET correct = 1;
  CREATE TABLE challenges(course, lesson, slide, user, makespan, picks, time);
  INSERT INTO challenges VALUES('c', 'l', 1, 'eve', 0.0 / 0.0, '0>1', 'now')"
"$HETCAST" class report "$TMP/foreign.db" >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "slide 1: eve's makespan is empty (a number >= 0 expected)" "$TMP/err" && [ ! -s "$TMP/out" ]
ok $? "... and a makespan that is no number (NaN) refused, not shown as 0"

# a database from before the picks were kept by name: the report gives the
# numbers; a room opened on it adds the column
mkdir -p "$D/old" && chmod 700 "$D/old"
sqlite3 "$R.db" ".backup '$D/old/room.db'" && chmod 600 "$D/old/room.db" &&
    sqlite3 "$D/old/room.db" "ALTER TABLE challenges DROP COLUMN transfers"
"$HETCAST" class report "$D/old/room.db" >"$TMP/old.txt"
grep -q "^room  *class.lua  *5 bob  *8  0>1 0>2 0>3 0>4$" "$TMP/old.txt"
ok $? "class report of a database from before the picks' names: the picks by number"
start 80 24 -- lesson "$LESSON" --class "$D/old/room" --class-test
wait_for "room: 0 in the room"
[ "$(sqlite3 "$D/old/room.db" "SELECT count(*) FROM pragma_table_info('challenges') WHERE name = 'transfers'")" = 1 ]
ok $? "a room opened on it adds the transfers column"

# ---- a rehearsal: the instructor and three students in hetcast join ----
# Peer Instruction on slide 1 (round 1, closed, round 2, the reveal), then
# slide 5's challenge, then class report as CSV and JSON.  The students'
# terminals are 60x16, 80x24 and 160x45.
H=$D/rehearsal
mkdir -p "$H" && chmod 700 "$H"
hq() { sqlite3 "$H/room.db" "$1"; }
start 80 24 -- lesson "$LESSON" --class "$H/room" --course rehearsal --class-test
wait_for "room: 0 in the room"
for who in ann:60:16 ben:80:24 cat:160:45; do
    name=${who%%:*} size=${who#*:}
    cols=${size%%:*} rows=${size#*:}
    stm new-session -d -s "r-$name" -x "$cols" -y "$rows" \
        "env TERM=xterm-256color LANG=C.UTF-8 $HETCAST join $H/room --as $name; echo JOIN-EXIT=\$?; sleep 600"
done
rcap() { stm capture-pane -p -t "r-$1" >"$TMP/r-$1"; }
rwait() {   # rwait STUDENT TEXT: poll that student's screen
    i=0
    while [ $i -lt 100 ]; do rcap "$1"; grep -qF -- "$2" "$TMP/r-$1" && return 0; sleep 0.1; i=$((i + 1)); done
    return 1
}
rall() { for who in ann ben cat; do rwait $who "$1" || return 1; done; }
wait_for "room: 3 in the room"
ok $? "rehearsal: three students join (60x16, 80x24, 160x45)"
keys v
wait_for "round 1 open" && rall "the vote is open: press the letter"
ok $? "rehearsal: v opens round 1 on every student's screen"
stm send-keys -t r-ann a
stm send-keys -t r-ben b
stm send-keys -t r-cat c
wait_for "3 voted" && rwait ann "your vote counts: A" && rwait ben "your vote counts: B" && rwait cat "your vote counts: C"
ok $? "rehearsal: round 1, each vote acknowledged, 3 voted on the projector"
keys v
wait_for "round 1 closed" && rall "closed: discuss with your neighbour"
ok $? "rehearsal: v closes round 1; every student is told to discuss"
stm send-keys -t r-ann b
rwait ann "no vote is open now" && [ "$(hq "SELECT answer FROM votes WHERE user = 'ann' AND round = 1")" = A ]
ok $? "rehearsal: a change of mind while round 1 is closed is refused; ann's first vote stays"
keys v
wait_for "round 2 open" && rall "round 2: vote again, press the letter of your answer"
ok $? "rehearsal: v opens round 2"
for who in ann ben cat; do stm send-keys -t "r-$who" b; done
wait_for "3 voted" && rall "your vote counts: B"
ok $? "rehearsal: round 2, three votes for B"
keys a
wait_for "round 2 revealed" && rall "the answer: B: p2, the slow one - you were r"
ok $? "rehearsal: a reveals; each student, at every size, sees the answer and that they were right"
keys ']' ']' ']' ']'
wait_for "slide 5/5"
keys c
wait_for "challenge open: 0 finished" && rall "challenge open: Enter to play (5 nodes, async)"
ok $? "rehearsal: c opens slide 5's challenge for every student"
stm send-keys -t r-ben Enter
rwait ben "Build the broadcast yourself"
for k in 1 2 3 4; do stm send-keys -t r-ben Enter; sleep 0.2; stm send-keys -t r-ben Enter; sleep 0.3; done
rwait ben "Done: your makespan 8"
stm send-keys -t r-ben x
rwait ben "your makespan counts: 8 (the room replayed your picks)" && wait_for "challenge open: 1 finished"
ok $? "rehearsal: ben plays the challenge; the room replays his picks (8)"
for who in ann ben cat; do stm send-keys -t "r-$who" q; done
rall "JOIN-EXIT=0"
ok $? "rehearsal: q leaves every student's join (status 0)"
report_csv "$H/room.db" >"$TMP/reh.csv" &&
    report_csv "$H/room.db" --table questions >"$TMP/reh-q.csv" &&
    "$HETCAST" class report "$H/room.db" --format json >"$TMP/reh.json"
tr -d '\r' <"$TMP/reh.csv" | grep -qx "rehearsal,ann,1,1,0" && tr -d '\r' <"$TMP/reh.csv" | grep -qx "rehearsal,ben,1,1,1" &&
    tr -d '\r' <"$TMP/reh.csv" | grep -qx "rehearsal,cat,1,1,0" && [ "$(wc -l <"$TMP/reh.csv")" = 4 ]
ok $? "rehearsal: class report CSV: ann and cat right in round 2 only, ben in both"
grep -q '^rehearsal,class.lua,1,Which node should p0 serve first?,"B: p2, the slow one",1,3,1' "$TMP/reh-q.csv" &&
    grep -q '^rehearsal,class.lua,1,Which node should p0 serve first?,"B: p2, the slow one",2,3,3' "$TMP/reh-q.csv"
ok $? "rehearsal: class report CSV per question: round 1 3 votes 1 right, round 2 3 votes 3 right"
if command -v python3 >/dev/null 2>&1; then
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); \
assert sorted(s["user"] for s in d["students"]) == ["ann", "ben", "cat"]; \
assert [(q["round"], q["votes"], q["right"]) for q in d["questions"]] == [(1, 3, 1), (2, 3, 3)]; \
assert [(c["user"], c["makespan"], c["transfers"]) for c in d["challenges"]] == [("ben", 8, "p0 -> p1, p0 -> p2, p0 -> p3, p0 -> p4")]' \
    "$TMP/reh.json"
ok $? "rehearsal: class report JSON: the students, both rounds, ben's challenge by name"
else
    ok 0 "# SKIP python3 is not installed"
fi

# ---- --gift through a GIFT parser ----
if command -v python3 >/dev/null 2>&1; then
    "$HETCAST" lesson "$LESSON" --gift >"$TMP/c.gift"
    python3 tests/gift_check.py "$TMP/c.gift" >"$TMP/gift.out"
    ok $? "--gift: the GIFT parser reads every question"
    grep -qx "mc slide 1 Three nodes, one message: p1, the fast one | \*p2, the slow one | either: it makes no difference" "$TMP/gift.out" &&
        grep -qx "numerical slide 2 What will fnf take?: 6:0.005" "$TMP/gift.out" &&
        grep -qx "short slide 3 fnf's first move: p0 p1 | p0,p1 | p0, p1" "$TMP/gift.out"
    ok $? "--gift: choices with the right one, hetcast's makespan, the first transfer"
    printf '::t::a {=x = y}\n' >"$TMP/bad.gift"
    ! python3 tests/gift_check.py "$TMP/bad.gift" >/dev/null
    ok $? "the GIFT parser refuses an unescaped ="
    "$HETCAST" lesson lua/lessons/*.lua --gift >"$TMP/all.gift" && python3 tests/gift_check.py "$TMP/all.gift" >/dev/null
    ok $? "--gift of every shipped lesson parses"
else
    for i in 1 2 3 4; do ok 0 "# SKIP python3 is not installed"; done
fi
"$HETCAST" lesson "$LESSON" --gift --class "$R" >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "do not go together" "$TMP/err"
ok $? "--gift with --class: refused, status 2"

echo "1..$n"
[ "$failed" -eq 0 ]
