#!/bin/sh
# ui_lesson.sh - the lessons as a class uses them, driven in tmux against the
# real binary: every shipped lesson stepped slide by slide at 80x24 and 60x16
# (the slide's title, its question and the strip on the main screen shown), a
# choice graded at once, a prediction that holds the view before the decision
# it asks about and grades a typed answer, and the students' handout (no
# answer, every cluster's node table); a hidden end the time axis, the first
# difference and the narration do not give away.
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

# ---- every slide of every lesson at 80x24 and 60x16: its point on the screen ----
# What a slide names is read from its handout, so that no slide can pass by
# saying nothing: every node of the slide's cluster (its node table in the
# students' handout) and every number that its question names must be on
# the main screen (the strip, which repeats the question, left out) before
# the answer is revealed, and those its answer (and expected answer) names
# after `a`; so must every name of its show = {...}.  No row of either
# screen runs to the last column without an ellipsis there, and the title
# bar never cuts the cluster's name to four letters or fewer and an ellipsis.
names_in() {   # names_in TEXT NODES: the nodes and numbers TEXT names, one a line
    for nd in $2; do
        printf '%s\n' "$1" | grep -qw -- "$nd" && echo "$nd"
    done
    printf '%s\n' "$1" | grep -oE '(^|[^[:alnum:]_.])[0-9]+(\.[0-9]+)?' | sed 's/^[^0-9]*//' |
        grep -vE '^[0-9]+\.[0-9]+\.' || true
}
on_body() {   # on_body NAME: NAME on the screen, the strip row left out, as a word
    case $1 in
        2T+beta) set -- "2T+β" ;;
    esac
    grep -vE '^ [0-9]+/[0-9]+ ' "$TMP/screen" >"$TMP/body"
    case $1 in
        *" "*) grep -qF -- "$1" "$TMP/body" ;;
        *[!0-9.]*) grep -qw -- "$1" "$TMP/body" ;;
        *) grep -qE "(^|[^[:alnum:]_.])$(printf '%s' "$1" | sed 's/\./\\./g')([^0-9]|\$)" "$TMP/body" ;;
    esac
}
cut_rows() {   # cut_rows W: the rows that fill all W columns and end in text, no ellipsis
    # (every glyph drawn is one column: count a UTF-8 character's lead byte only; the
    # title bar's right end is the step and time, and the axis's last label, set there on purpose)
    LC_ALL=C tr -d '\200-\277' <"$TMP/screen" |
        LC_ALL=C awk -v w="$1" 'length($0) >= w && $0 ~ /[[:alnum:],;:!?(]$/ && $0 !~ / t=[0-9.]+$/ && $0 !~ /^(time|\()/ { print NR": "$0 }'
}
for size in "80 24" "60 16"; do
    set -- $size
    for f in lua/lessons/*.lua; do
        "$HETCAST" lesson --print "$f" >"$TMP/handout"
        "$HETCAST" lesson --print --student "$f" >"$TMP/student"
        total=$(grep -c '^## ' "$TMP/handout")
        start "$1" "$2" -- lesson "$f"
        bad=""
        k=1
        while [ "$k" -le "$total" ]; do
            sed -n "/^## $k\/$total /,/^## /p" "$TMP/handout" >"$TMP/slide"
            nodes=$(sed -n "/^## $k\/$total /,/^## /p" "$TMP/student" |
                sed -n '/^nodes (/,/^model /p' | awk '/^    [^ ]/ && $1 != "node" && $1 != "from" && $1 != "link" { print $1 }')
            [ -n "$nodes" ] || bad="$bad slide $k: no node names read from its node table;"
            question=$(sed -n 's/^question: //p' "$TMP/slide")
            answer=$(sed -n 's/^answer: //p; s/^expected: //p' "$TMP/slide")
            show=$(sed -n 's/^show: //p' "$TMP/slide" | tr ',' '\n' | sed 's/^ //')
            title=$(grep "^## $k/$total " "$TMP/handout" | sed "s|^## $k/$total ||" | cut -c1-20)
            wait_all "slide $k/$total" "$title" || bad="$bad slide $k: title;"
            if [ -n "$question" ]; then
                grep -q "Question:" "$TMP/screen" || bad="$bad slide $k: question;"
            fi
            [ -z "$(cut_rows "$1")" ] || bad="$bad slide $k: text cut: $(cut_rows "$1");"
            keys Enter
            wait_for "$k/$total " || bad="$bad slide $k: no strip;"
            # the title bar names the cluster in full, cut, or not at all: never a few letters and "…"
            ! head -1 "$TMP/screen" | grep -qE '^ [[:alnum:]_.-]{1,4}… ' || bad="$bad slide $k: the cluster's name cut to nothing;"
            for nm in $(names_in "$question" "$nodes") ; do
                on_body "$nm" || bad="$bad slide $k: the question's $nm;"
            done
            echo "$show" | while IFS= read -r nm; do
                [ -z "$nm" ] || on_body "$nm" || echo "slide $k: show $nm;"
            done >"$TMP/miss"
            bad="$bad$(cat "$TMP/miss")"
            [ -z "$(cut_rows "$1")" ] || bad="$bad slide $k: cut: $(cut_rows "$1");"
            if [ -n "$question" ]; then
                keys a
                wait_gone "?(a)" 30 || bad="$bad slide $k: ?(a) after a;"
                for nm in $(names_in "$answer" "$nodes") ; do
                    on_body "$nm" || bad="$bad slide $k: the answer's $nm;"
                done
                [ -z "$(cut_rows "$1")" ] || bad="$bad slide $k: cut after a: $(cut_rows "$1");"
            fi
            keys ]
            k=$((k + 1))
        done
        [ -z "$bad" ]
        ok $? "$1x$2 $f: every slide's title, question, strip, the nodes and values it names, nothing cut$bad"
        keys q
        wait_for "EXIT=0"
    done
done

# ---- a choice graded at once, a prediction held and graded ----
start 80 24 -- lesson lua/lessons/fnf-loses.lua
wait_for "A p1   B p2"
ok $? "80x24 a question's choices are lettered"
keys A
wait_all "Not quite: A: p1; the answer is B: p2" "p0 -> p1 now: the best that" "ends at 6; p0 -> p2 reaches 5"
ok $? "80x24 a wrong choice: the verdict, its consequence and the explanation at once"
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

# ---- slide text as paragraphs: a line break inside one is a space, a cut says so ----
long="one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
printf 'return {slides = {{title = "t", cluster = "%s",\n text = "First para\\ngoes on here.\\n\\n%s %s %s\\n\\n%s %s %s\\n\\nLAST WORDS"}}}\n' \
    "$(pwd)/clusters/counterexample.csv" "$long" "$long" "$long" "$long" "$long" "$long" >"$TMP/long.lua"
start 60 16 -- lesson "$TMP/long.lua"
wait_for "First para goes on here."
ok $? "60x16 a line break inside a paragraph is a space"
grep -q "…" "$TMP/screen" && ! grep -q "LAST WORDS" "$TMP/screen"
ok $? "60x16 text cut at the bottom ends in an ellipsis"
keys q
wait_for "EXIT=0"
start 160 45 -- lesson "$TMP/long.lua"
wait_for "LAST WORDS"
! grep -q "…" "$TMP/screen"
ok $? "160x45 the whole text, no ellipsis"
keys q
wait_for "EXIT=0"

# ---- the lanes that matter, named values, no-time transfers ----
start 60 16 -- lesson lua/lessons/fnf-loses.lua
keys ] ] ]
wait_for "slide 4/4"
keys Enter
wait_all "those that matter" "p3 "
ok $? "60x16 fnf-worst: the late node p3 (show) has its lane among the lanes that matter"
keys q
wait_for "EXIT=0"
start 60 16 -- lesson lua/lessons/fnf-sum.lua
keys ] ]
wait_for "slide 3/4"
keys Enter
wait_for "optimal · makespan ?(a)"
[ "$(grep -c "^p2 *│" "$TMP/screen")" -eq 2 ] && [ "$(grep -c "^p5 *│" "$TMP/screen")" -eq 2 ]
ok $? "60x16 fnf-sum slide 3: p2 and p5 (show) have their lanes in both panes"
keys q
wait_for "EXIT=0"
start 80 24 -- lesson lua/lessons/figueira-trees.lua
wait_for "slide 1/2"
keys Enter
wait_all "n6 " "n7 " "tree cost 6 / 3" "•" "tree binomial"
ok $? "80x24 figueira: n6, n7 and the tree cost shown, no-time transfers marked, the tree pane open"
keys q
wait_for "EXIT=0"
start 80 24 -- lesson lua/lessons/pipeline.lua
keys ]
wait_for "slide 2/2"
keys Enter
wait_for "LP optimum 0.6"
ok $? "80x24 pipeline: the LP optimum the slide names is in the summary"
keys q
wait_for "EXIT=0"

# ---- a hidden makespan: the time axis cannot give it away ----
# fnf ends at 6 when p2 receives in 3, at 7 when it receives in 4; while the
# question is open the axis is the same for both (its end and labels say
# nothing of the hidden value, 7 is nowhere on the screen), after a it ends
# at the makespan.
for r2 in 3 4; do
    printf 'return {slides = {{title = "t", cluster = {latency = 1, nodes = {{"p0", 1, 2}, {"p1", 1, 2}, {"p2", 2, %s}}},\n schedulers = "fnf", step = "end", question = "What makespan?", predict = "makespan"}}}\n' \
        "$r2" >"$TMP/hid$r2.lua"
    start 80 24 -- lesson "$TMP/hid$r2.lua"
    wait_for "slide 1/1"
    keys Enter
    wait_for "makespan ?(a)"
    grep -A1 '^ *[┬╋]' "$TMP/screen" >"$TMP/axis$r2"
    cp "$TMP/screen" "$TMP/before$r2"
    keys a
    wait_for "makespan $((r2 + 3)) "
    grep -A1 '^ *[┬╋]' "$TMP/screen" >"$TMP/after$r2"
    keys q
    wait_for "EXIT=0"
done
[ -s "$TMP/axis3" ] && cmp -s "$TMP/axis3" "$TMP/axis4" && ! cmp -s "$TMP/after3" "$TMP/after4"
ok $? "80x24 a hidden makespan (6 or 7): the same axis before a, each its own after"
cp "$TMP/before4" "$TMP/screen"
! grep -qE '(^|[^[:alnum:]_.])7([^0-9]|$)' "$TMP/before4" && grep -qE ' 7$' "$TMP/after4"
ok $? "80x24 the hidden makespan 7 is nowhere on the screen before a, the axis's last label after"

start 80 24 -- lesson lua/lessons/fnf-loses.lua
keys ] ]
wait_for "slide 3/4"
keys Enter
wait_all "first difference: ?(a)" "optimal: the end is hidden until the answer"
! grep -qE 'not 5|t=5' "$TMP/screen"
ok $? "80x24 the optimum's end hidden: neither the first difference nor its narration says 5 before a"
keys a
wait_all "6, not 5" "optimal: t=5"
ok $? "80x24 after a: the first difference and the optimum's last step"
keys q
wait_for "EXIT=0"

start 80 24 -- lesson lua/lessons/mpi-real.lua
wait_for "slide 1/2"
keys Enter
wait_all "measured ?(a)" "t=?(a)"
! grep -q '6\.001' "$TMP/screen"
ok $? "80x24 mpi-real: the measured end (6.001) hidden, the title's time too"
keys a
wait_all "measured 6.001" "t=6.001"
ok $? "80x24 mpi-real after a: the measured end and the time"
keys q
wait_for "EXIT=0"

start 60 16 -- lesson lua/lessons/alltoall.lua
wait_for "slide 1/2"
keys Enter a c
wait_for "random 10"
grep -q "^ caterpillar: t=10: p2 holds p0's message for it$" "$TMP/screen"
ok $? "60x16 alltoall: the orders pane ends above the messages (a narration row is not drawn over it)"
keys q
wait_for "EXIT=0"

# ---- d: a new instance ----
start 80 24 -- lesson lua/lessons/fnf-loses.lua
wait_for "slide 1/4"
keys d
wait_all "a new instance: 3 random nodes where fnf loses (seed 2" "new instance of Three nodes"
ok $? "80x24 d on a node table: a random table where fnf loses"
keys w d
wait_for "(seed 3"
ok $? "80x24 w then d: another"
keys ] [
wait_all "slide 1/4" "counterexample"
ok $? "80x24 ] then [: the slide's own cluster again"
keys q
wait_for "EXIT=0"
start 80 24 -- lesson lua/lessons/fnf-guarantee.lua
keys ]
wait_for "slide 2/3"
keys d
wait_for "with seed 2"
ok $? "80x24 d on a Lua cluster with a seed param: the next seed"
keys q
wait_for "EXIT=0"

# ---- the exercise in a lesson: L, the recap, kept choices across slides ----
start 80 24 -- lesson lua/lessons/fnf-loses.lua
wait_for "slide 1/4"
keys Enter
wait_for "step 0/"
keys x
wait_for "EXERCISE"
keys Enter Enter
wait_for "costs 1"
keys L
wait_all "exercise log: 1 choice" "p0 starts sending the message to p1: your choice"
ok $? "80x24 L in the exercise: the log of the student's choices"
keys q
wait_for "EXERCISE"
keys Enter Enter
wait_all "Your choices: 1 p0->p1 +1" "The first costly one: 1 (p0 -> p1); p0 -> p2 would have kept 5."
ok $? "80x24 Done recaps each choice's cost and names the first costly one"
keys Left x
wait_for "choice is kept"
keys ] [
wait_for "slide 1/4"
keys Enter
wait_for "step 0/"
keys x
wait_for "Back to your 1 choice"
ok $? "80x24 kept choices survive ] then ["
keys q
wait_for "EXIT=0"

# ---- the recap after the exercise was left and resumed: what the first choice cost stays known ----
start 80 24 -- clusters/counterexample.csv
wait_for "step 0/8"
keys x
wait_for "EXERCISE"
keys Enter Enter
wait_for "costs 1"
keys x
wait_for "choice is kept"
keys x
wait_for "Back to your 1 choice"
keys Enter Enter
wait_all "Your choices: 1 p0->p1 +1, 2" "The first costly one: 1 (p0 -> p1)" &&
    ! grep -q "None cost time" "$TMP/screen"
ok $? "80x24 the recap after x, x: the resumed choice's cost known, not 'None cost time'"
keys q
wait_for "EXIT=0"
start 80 24 -- lesson lua/lessons/fnf-guarantee.lua
keys ]
wait_for "slide 2/3"
keys Enter
wait_for "fnf vs optimal"
keys x
wait_for "EXERCISE"
keys Enter Enter
wait_for "would have kept 16."
ok $? "80x24 8 nodes: the exercise's whole message is readable"
keys q
wait_for "EXIT=0"

echo "1..$n"
[ "$failed" -eq 0 ]
