#!/bin/sh
# ui_instance.sh - d on a lesson's slide (a new random instance of its
# kind, session/instance.h), driven in tmux against the real binary at 80x24,
# 60x16 and 160x45: a prediction of the next transfer opens held at the slide's
# step, asks the question of the instance (its premise, the transfers booked
# before, read from the instance's own schedule as the view exports it) and
# grades against the instance's run; a choice slide says plainly that its
# question is about the slide's own cluster and takes no pick.
. "$(dirname "$0")/tmux_lib.sh"

step_held() {   # the title's "step K/N" with K < N: the view holds before the end
    sed -n '1s/.*step \([0-9]*\)\/\([0-9]*\).*/\1 \2/p' "$TMP/screen" | { read -r k all && [ "$k" -lt "$all" ]; }
}

for size in "80 24" "60 16" "160 45"; do
    set -- $size
    W=$1 H=$2
    mkdir -p "$TMP/out$W"
    start "$W" "$H" "HC_CWD=$TMP/out$W" -- lesson "$PWD/lua/lessons/fnf-loses.lua"
    wait_for "slide 1/4"
    keys ]
    wait_for "slide 2/4"
    keys d
    wait_for "new instance of fnf serves p1 first"
    step_held
    ok $? "${W}x$H d on a predict-next slide: held before the decision, not at the end"
    grep -q 'p0 has sent to p1' "$TMP/screen"
    [ $? -ne 0 ] && grep -q 'fnf has booked' "$TMP/screen"
    ok $? "${W}x$H d: the strip asks the instance's question, not the slide's premise"
    keys e
    wait_for "exported"
    csv=$(ls "$TMP/out$W"/*.csv 2>/dev/null | head -n 1)
    # transfers 1 and 2 of the instance's run: "SENDER -> RECEIVER"
    t1=$(awk -F, '$1 == "fnf" && $2 == 1 { print $3 " -> " $4 }' "$csv")
    t2=$(awk -F, '$1 == "fnf" && $2 == 2 { print $3 " -> " $4 }' "$csv")
    wrong=$(awk -F, '$1 == "fnf" && $2 == 2 { print $4 " -> " $3 }' "$csv")
    keys w
    wait_for "Question:"
    [ -n "$t1" ] && grep -qF "fnf has booked $t1." "$TMP/screen"
    ok $? "${W}x$H w: the question's premise is the instance's first transfer ($t1)"
    keys y
    tm send-keys -t hc -l "$wrong"
    keys Enter
    wait_for "not quite"
    grep -qF "the answer is $t2" "$TMP/screen"
    ok $? "${W}x$H a wrong answer is graded against the instance's run (the answer $t2)"
    keys q
    wait_for "EXIT=0"
done

start 80 24 -- lesson lua/lessons/fnf-loses.lua
wait_for "slide 1/4"
keys d
wait_for "a new instance"
keys w
wait_for "Question:"
grep -q "about the slide's own cluster, not this" "$TMP/screen"
ok $? "80x24 d on a choice slide: the question says it is about the slide's own cluster"
keys B
wait_for "the question is about the slide's own cluster"
! grep -q "Not quite\|Right:" "$TMP/screen"
ok $? "80x24 a pick on the instance is not graded"
keys q
wait_for "EXIT=0"

echo "1..$n"
[ "$failed" -eq 0 ]
