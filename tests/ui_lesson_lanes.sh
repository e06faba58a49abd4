#!/bin/sh
# ui_lesson_lanes.sh - at 60x16, the documented minimum, a lesson's main
# screen keeps the lanes its slide names (docs/lessons.md): once revealed
# the nodes its answer names, else those of its show = {...}; a broadcast's
# source named as the sender counts as the source, its transfers being on
# its receivers' lanes; and a value show names that does not fit on the
# summary row ends it in an ellipsis rather than being dropped.  The real
# binary in tmux, the shipped lessons.  Output: TAP.

. "$(dirname "$0")/tmux_lib.sh"

# lanes: the node names that head a lane on the screen, one a line, sorted
lanes() { sed -n 's/^\([[:alnum:]_-]\{1,\}\) *\(send \)\{0,1\}│.*/\1/p' "$TMP/screen" | sort | uniq -c | awk '{ print $2 "=" $1 }' | tr '\n' ' '; }
# slide LESSON K: the lesson at 60x16 on slide K's main screen
slide() {
    start 60 16 -- lesson "$1"
    wait_for "slide 1/"
    k=1
    while [ "$k" -lt "$2" ]; do keys ']'; k=$((k + 1)); wait_for "slide $k/"; done
    keys Enter
    wait_for " $2/"
}
# revealed LESSON K: the same with the answer revealed (a)
revealed() {
    slide "$1" "$2"
    keys a
    wait_gone "?(a)" 30
}
leave() {
    keys q
    wait_for "EXIT=0"
}

slide lua/lessons/figueira-trees.lua 1
l=$(lanes)
[ "$l" = "n6=2 n7=2 " ]
ok $? "60x16 figueira slide 1: show's n6 and n7 on their lanes in both panes ($l)"
keys a
wait_gone "?(a)" 30
l=$(lanes)
[ "$l" = "n4=2 n6=2 " ] && grep -q "←n0" "$TMP/screen" && grep -q "←n4" "$TMP/screen"
ok $? "60x16 figueira slide 1 revealed: the answer's n0 -> n4 and n4 -> n6 on n4's and n6's lanes ($l)"
leave

revealed lua/lessons/fnf-sum.lua 3
row=$(sed -n 2p "$TMP/screen")
l=$(lanes)
case $row in *"sum 25 / 26 …") true ;; *) false ;; esac && [ "$l" = "p2=2 p5=2 " ]
ok $? "60x16 fnf-sum slide 3: the named values that fit, then an ellipsis for the optimum that does not ($row; $l)"
leave

revealed lua/lessons/alltoall.lua 1
l=$(lanes)
[ "$l" = "p0=1 p1=1 p2=1 " ] && grep -q "╳" "$TMP/screen"
ok $? "60x16 alltoall slide 1 revealed: p0, p2 and p1, the nodes its answer names, each on its lanes, p0's idle fill shown ($l)"
leave

revealed lua/lessons/pipeline.lua 2
l=$(lanes)
[ "$l" = "s=2 " ] && grep -q "1 of 4 nodes: those that matter" "$TMP/screen"
ok $? "60x16 pipeline slide 2 revealed: s, the source (no node in its answer: the s of LP's is not one), on the one lane a pane holds, and said so ($l)"
leave

echo "1..$n"
[ "$failed" -eq 0 ]
