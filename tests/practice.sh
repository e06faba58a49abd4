#!/bin/sh
# practice.sh - hetcast practice LESSON: random instances of a lesson's
# predictions asked until N answers in a row are right.  Answers piped in:
# a wrong answer shows the right one and a reason that `hetcast run` on the
# instance's own node table confirms; the draws depend on --seed only, so a
# second run answers right from the first one's answers and masters the
# lesson after N right; --room records the result and class report shows
# it (text, CSV, JSON); mistakes are refused with status 2; in tmux at 60x16
# and 80x24 the prompt, the verdict and the summary show.
. "$(dirname "$0")/tmux_lib.sh"

P="$HETCAST practice"

# ---- a wrong answer: the right one, and a true reason ----
printf 'p0 -> p0\n%.0s' 1 2 3 4 5 6 | $P fnf-loses --seed 11 >"$TMP/run1" 2>"$TMP/err"
st=$?
[ $st -eq 0 ] && [ "$(grep -c '^not quite: p0 -> p0; the answer is ' "$TMP/run1")" = 6 ] &&
    tail -n 1 "$TMP/run1" | grep -qx 'stopped: 0 right in a row of 3 after 6 questions (0 right); again: --seed 11'
ok $? "practice: six wrong answers piped in, each graded, the summary line last"

# question 1's node table as CSV, and hetcast run's schedule of it
awk '/^question 1:/ { q = 1 } /^question 2:/ { q = 0 }
     q && /^nodes \(node table, source / { s = $5; sub(/,$/, "", s); l = $NF; sub(/\):$/, "", l)
         print "# latency: " l; print "# source: " s; print "name,send,recv"; t = 1; next }
     q && t && /^model:/ { t = 0 }
     q && t && $1 != "node" { print $1 "," $2 "," $3 }' "$TMP/run1" >"$TMP/q1.csv"
"$HETCAST" run "$TMP/q1.csv" -s fnf >"$TMP/q1.txt" 2>&1
t1=$(awk '$1 == "1" && NF > 6 { print $2 " -> " $3 }' "$TMP/q1.txt")
t2=$(awk '$1 == "2" && NF > 6 { print $2 " -> " $3 }' "$TMP/q1.txt")
why2=$(awk '$1 == "2" && NF > 6 { sub(/^ *2 +[^ ]+ +[^ ]+ +\[[^)]*\) +\[[^)]*\) +\[[^)]*\) +[^ ]+ +/, ""); print }' "$TMP/q1.txt")
first=$(sed -n '/^question 1:/,/^question 2:/p' "$TMP/run1")
[ -n "$t2" ] && [ -n "$why2" ] &&
    printf '%s\n' "$first" | grep -qxF "fnf has booked $t1. Which transfer does it book next?" &&
    printf '%s\n' "$first" | grep -qxF "not quite: p0 -> p0; the answer is $t2" &&
    printf '%s\n' "$first" | grep -qxF "why: $t2: $why2"
ok $? "practice: the premise, the answer and the reason are those of hetcast run on the instance ($t2)"

# ---- mastery: N right in a row end it ----
sed -n 's/^not quite: p0 -> p0; the answer is //p' "$TMP/run1" >"$TMP/answers"
{ echo 'p0 -> p0'; sed -n '2,4p' "$TMP/answers"; echo 'p0 -> p0'; } | $P fnf-loses --seed 11 >"$TMP/run2" 2>&1
st=$?
[ $st -eq 0 ] && ! grep -q '^question 5:' "$TMP/run2" &&
    grep -qx 'right: .* (3 in a row of 3)' "$TMP/run2" &&
    tail -n 1 "$TMP/run2" | grep -qx 'mastered: 3 right in a row of 3 after 4 questions (3 right); again: --seed 11'
ok $? "practice: one wrong, then three right: mastered after the third, nothing more asked"
sed -n '1p' "$TMP/answers" | $P fnf-loses --seed 11 --in-a-row 1 >"$TMP/run3" 2>&1
tail -n 1 "$TMP/run3" | grep -qx 'mastered: 1 right in a row of 1 after 1 question (1 right); again: --seed 11'
ok $? "practice --in-a-row 1: one right answer masters it"

# ---- an answer that cannot be read is asked again, not counted ----
printf 'p0\n\nnowhere -> p1\nq\n' | $P fnf-loses --seed 11 >"$TMP/run4" 2>&1
grep -q 'names one node: answer as SENDER -> RECEIVER' "$TMP/run4" &&
    grep -q 'answer as SENDER -> RECEIVER' "$TMP/run4" &&
    grep -q '"nowhere" is not a node of the slide' "$TMP/run4" &&
    tail -n 1 "$TMP/run4" | grep -qx 'stopped: 0 right in a row of 3 after 0 questions (0 right); again: --seed 11'
ok $? "practice: unreadable answers say how to answer and are not counted; q stops"

# ---- refusals ----
$P fnf-guarantee </dev/null >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && grep -q 'fnf-guarantee.lua: no question of this lesson can be asked of a random instance' "$TMP/err"
ok $? "practice on a lesson with no prediction: status 2, the file named"
$P fnf-loses --as bob </dev/null >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && grep -q -- '--as names the student in a grade book: add --room ROOM' "$TMP/err"
ok $? "practice --as without --room: status 2"
mkdir -m 700 "$TMP/course"
$P fnf-loses --room "$TMP/course/room" --as "$(printf 'bad\033[2Jname')" </dev/null >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && grep -q -- '--as: a student' "$TMP/err" && [ ! -e "$TMP/course/room.db" ]
ok $? "practice --as with a control character: status 2, no database made"
$P fnf-loses --in-a-row 0 </dev/null >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ]
ok $? "practice --in-a-row 0: status 2"
$P fnf-loses --seed 9223372036854775808 </dev/null >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && grep -q -- '--seed: "9223372036854775808" is not a whole number from 0 to 9223372036854775807' "$TMP/err"
ok $? "practice --seed past what a grade book's row holds: status 2"
$P fnf-loses --room "$TMP/course/$(printf 'r\tm')" </dev/null >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && grep -q -- "--room: the course is the room's file name" "$TMP/err" && [ ! -e "$TMP/course/$(printf 'r\tm').db" ]
ok $? "practice --room whose file name is no course's name: status 2, no database made"

# ---- --room: the grade book's practice table ----
NAME='o"neil, <b>'
{ echo 'p0 -> p0'; sed -n '2,4p' "$TMP/answers"; } | $P fnf-loses --seed 11 --room "$TMP/course/room" --as "$NAME" >"$TMP/run5" 2>&1
printf 'q\n' | $P fnf-loses --seed 12 --room "$TMP/course/room" --as ann >"$TMP/run6" 2>&1
tail -n 1 "$TMP/run5" | grep -q "^mastered: .*; recorded for $NAME in $TMP/course/room.db\$"
ok $? "practice --room: the summary says where the result went"
"$HETCAST" class report "$TMP/course/room.db" --table practice --format csv >"$TMP/p.csv" 2>&1
sed -n '1p' "$TMP/p.csv" | grep -qx '# format_version: 2' && sed -n '2p' "$TMP/p.csv" | grep -q '^# hetcast: ' &&
    sed -n '3p' "$TMP/p.csv" | grep -qx 'course,lesson,user,goal,answered,right,mastered,seed,time' &&
    grep -q '^room,fnf-loses.lua,ann,3,0,0,no,12,' "$TMP/p.csv" &&
    grep -q '^room,fnf-loses.lua,"o""neil, <b>",3,4,3,yes,11,' "$TMP/p.csv" && [ "$(wc -l <"$TMP/p.csv")" = 5 ]
ok $? "class report --table practice --format csv: a row a practice, the name quoted"
"$HETCAST" class report "$TMP/course/room.db" >"$TMP/p.txt" 2>&1
grep -q '^course .* goal answered  right mastered  seed$' "$TMP/p.txt" &&
    grep -q '^room  *fnf-loses.lua  *o"neil, <b>  *3  *4  *3  *yes  11$' "$TMP/p.txt"
ok $? "class report as text: the practice table"
"$HETCAST" class report "$TMP/course/room.db" --format json >"$TMP/p.json" 2>&1
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = d["practice"]
assert "format_version" in d and "hetcast" in d, d.keys()
assert [(r["user"], r["goal"], r["answered"], r["right"], r["mastered"], r["seed"]) for r in p] == \
    [("ann", 3, 0, 0, False, 12), ("o\"neil, <b>", 3, 4, 3, True, 11)], p
' "$TMP/p.json"
ok $? "class report --format json: the practice rows under the one schema"
"$HETCAST" class report "$TMP/course/room.db" --table practice --anonymous --format csv >"$TMP/pa.csv" 2>&1
! grep -q 'neil\|ann' "$TMP/pa.csv" && [ "$(grep -c ',student-' "$TMP/pa.csv")" = 2 ]
ok $? "class report --anonymous: practice users as pseudonyms"

# ---- in a terminal: 60x16 and 80x24 ----
plain() {   # plain W H ARGS...: hetcast in a pane (no alternate screen to wait for)
    w=$1 h=$2
    shift 2
    stop_server
    rm -f "$TMP/pid" "$TMP/screen"
    tm new-session -d -s hc -x "$w" -y "$h" "sh '$TMP/run.sh' $*"
}
for size in "60 16" "80 24"; do
    set -- $size
    plain "$1" "$2" practice fnf-loses --seed 11
    wait_for "answer (q: stop)>"
    grep -qF "fnf has booked $t1. Which transfer does it book next?" "$TMP/screen" ||
        grep -q "fnf has booked $t1\. Which transfer does it" "$TMP/screen"
    ok $? "$1x$2 practice in a terminal: the instance's question and the prompt"
    tm send-keys -t hc -l 'p0 -> p0'
    keys Enter
    wait_for "why: "
    grep -qF "the answer is $t2" "$TMP/screen"
    ok $? "$1x$2 a wrong answer: the answer and why"
    tm send-keys -t hc -l 'q'
    keys Enter
    wait_for "EXIT=0"
    grep -q '^stopped: 0 right in a row of 3 after 1 question' "$TMP/screen"
    ok $? "$1x$2 q: the summary, status 0"
done

echo "1..$n"
[ "$failed" -eq 0 ]
