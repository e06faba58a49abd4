#!/bin/sh
# ui_lesson.sh - the lessons as a class uses them, driven in tmux against the
# real binary: every shipped lesson stepped slide by slide at 80x24 and 60x16
# (the slide's title, its question and the strip on the main screen shown), a
# choice graded at once, a prediction that holds the view before the decision
# it asks about and grades a typed answer, and the students' handout (no
# answer, every cluster's node table).
. "$(dirname "$0")/tmux_lib.sh"

# ---- the students' handout: no answer text, a node table a slide ----
for f in lua/lessons/*.lua; do
    "$HETCAST" lesson --print --student "$f" >"$TMP/student" 2>"$TMP/err"
    st=$?
    slides=$(grep -c '^## ' "$TMP/student")
    tables=$(grep -c '^nodes (' "$TMP/student")
    ! grep -qE '^(answer|expected|check):|makespan [0-9]|optimum [0-9]|first difference|\.\./' "$TMP/student" &&
        [ "$st" -eq 0 ] && [ "$slides" -gt 0 ] && [ "$slides" -eq "$tables" ]
    ok $? "lesson --print --student $f: no answer, $tables node tables for $slides slides"
done
"$HETCAST" lesson --print lua/lessons/fnf-loses.lua >"$TMP/teacher"
grep -q '^expected: B: p2' "$TMP/teacher" && grep -q '^expected: p0 -> p2' "$TMP/teacher" &&
    ! grep -q '\.\./' "$TMP/teacher"
ok $? "lesson --print: the expected answers, paths as typed"

# ---- every slide of every lesson at 80x24 and 60x16 ----
for size in "80 24" "60 16"; do
    set -- $size
    for f in lua/lessons/*.lua; do
        "$HETCAST" lesson --print "$f" >"$TMP/handout"
        total=$(grep -c '^## ' "$TMP/handout")
        start "$1" "$2" -- lesson "$f"
        bad=""
        k=1
        while [ "$k" -le "$total" ]; do
            title=$(grep "^## $k/$total " "$TMP/handout" | sed "s|^## $k/$total ||" | cut -c1-20)
            wait_all "slide $k/$total" "$title" || bad="$bad slide $k: title;"
            if sed -n "/^## $k\/$total /,/^## /p" "$TMP/handout" | grep -q '^question:'; then
                grep -q "Question:" "$TMP/screen" || bad="$bad slide $k: question;"
            fi
            keys Enter
            wait_for "$k/$total " || bad="$bad slide $k: no strip;"
            keys ]
            k=$((k + 1))
        done
        [ -z "$bad" ]
        ok $? "$1x$2 $f: every slide's title, question and strip$bad"
        keys q
        wait_for "EXIT=0"
    done
done

# ---- a choice graded at once, a prediction held and graded ----
start 80 24 -- lesson lua/lessons/fnf-loses.lua
wait_for "A p1   B p2"
ok $? "80x24 a question's choices are lettered"
keys A
wait_all "Not quite" "p2, the slow one"
ok $? "80x24 a wrong choice: the verdict and the explanation at once"
keys ]
wait_for "slide 2/4"
keys Enter
wait_for "optimum ?(a)"
ok $? "80x24 the optimum is hidden while the question is open"
keys l l l l
wait_for "stop: slide 2 asks what comes next"
ok $? "80x24 a next prediction holds the view before its decision"
keys y
wait_for "your answer:"
keys -l "p0 -> p2"
keys Enter
wait_all "right: p0 -> p2" "optimum 5"
ok $? "80x24 the typed prediction graded right, the optimum shown"
keys G
wait_for "step 8/8"
ok $? "80x24 once answered, the view steps past the stop"
keys q
wait_for "EXIT=0"

start 60 16 -- lesson lua/lessons/port-models.lua
wait_for "type the makespan"
keys y
wait_for "your answer:"
keys -l "5"
keys Enter
wait_for "the answer is 6"
ok $? "60x16 a wrong makespan prediction: graded, the right one said"
keys q
wait_for "EXIT=0"

echo "1..$n"
[ "$failed" -eq 0 ]
