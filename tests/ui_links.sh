#!/bin/sh
# ui_links.sh - the view on shared links, on the real binary in tmux (TAP):
# tests/data/simgrid-backbone.xml under multi-port senders at 80x24, 60x16
# and 160x45: the title names the model ("multi-port on shared links"), and
# stepping to node-4's hold narrates the link its bytes shared, with how many
# other flows, from when, and its part of the bandwidth, and at its hold how
# long it took against its route alone.  f puts a lane per shared link in
# place of the node lanes: the link's name, its flows at the cursor, a digit
# row of its flows over time, and a row per flow (its share at the cursor);
# up/down scroll them, f again shows the nodes, the help names f.  Skips when
# tmux is missing or hetcast was built without SimGrid.  Then the lesson
# "When links are shared" at 80x24 and 60x16: its slide 2's narration and
# the wan lane.
. "$(dirname "$0")/tmux_lib.sh"
if "$HETCAST" run tests/data/simgrid-star.xml 2>&1 | grep -q "built without SimGrid"; then
    echo "1..0 # SKIP this hetcast was built without SimGrid"
    exit 0
fi
B=tests/data/simgrid-backbone.xml

for size in "80 24" "60 16" "160 45"; do
    set -- $size
    start "$1" "$2" -- $B --size 1e6 -m multi-port
    wait_for "step 0/69"
    ok $? "$1x$2: opens on the platform (69 steps)"
    grep -q "multi-port on sh" "$TMP/screen"
    ok $? "$1x$2: the title names the model, multi-port on shared links"
    i=0
    while [ "$i" -lt 50 ]; do keys Right; i=$((i + 1)); done
    wait_for "step 50/69"
    ok $? "$1x$2: step 50 reached"
    tr -d '\n' <"$TMP/screen" | tr -s ' ' | grep -q "node-4 holds the message from node-0 (5 of 24 nodes hold it);.*node-4's message shares link bb_link_0_UP"
    ok $? "$1x$2: node-4's hold narrates the link its bytes shared"
    if [ "$1" = 160 ]; then
        tr -d '\n' <"$TMP/screen" | tr -s ' ' | grep -q "with 22 others from t=0.00022: 6.35 MB/s of 125 MB/s"
        ok $? "160x45: with 22 other flows from t=0.00022 (after the latency), 6.35 MB/s of 125 MB/s"
        tr -d '\n' <"$TMP/screen" | tr -s ' ' | grep -q "it took 0.1575 s, alone on its route 0.00811 s"
        ok $? "160x45: the hold says how long the transfer took against its route alone"
    fi
    keys f
    wait_for "shared links: 2-9 flows"
    ok $? "$1x$2: f shows the shared links' lanes and their legend"
    grep -q "^bb_link_0_UP  *8 +++" "$TMP/screen"
    ok $? "$1x$2: the backbone's uplink lane: 8 flows at the cursor, more than 9 before it (+)"
    grep -q "^ .node-1  " "$TMP/screen"
    ok $? "$1x$2: a row per flow under the link, named by its receiver"
    if [ "$1" = 160 ]; then
        grep -q "^ .t-0  *15% " "$TMP/screen"
        ok $? "160x45: t-0's flow takes 15% of the uplink at the cursor"
        grep -q "rows 1-37 of 68" "$TMP/screen"
        ok $? "160x45: the legend says which of the 68 rows show"
        keys Down Down
        wait_for "rows 3-39 of 68"
        ok $? "160x45: down scrolls the link rows"
        keys '?'
        wait_for "narration log (L), shared links' lanes (f)"
        ok $? "160x45: the help names f"
        keys q
        wait_gone "narration log (L), shared"
        keys G
        wait_for "step 69/69"
        tr -d '\n' <"$TMP/screen" | tr -s ' ' | grep -q "t-7's message shared link bb_link_0_UP with 22 others from t=0.00022 to t=0.157453: 3.18 MB/s of 125 MB/s"
        ok $? "160x45: t-7's hold says until when it shared the uplink (its last share was its own)"
        keys g
        wait_for "step 0/69"
    fi
    keys f
    wait_gone "shared links: 2-9 flows"
    ok $? "$1x$2: f again shows the node lanes"
    keys q
    sane
    ok $? "$1x$2: q restores the terminal"
done
# The lesson "When links are shared" (lua/lessons/shared-links.lua): its
# slide 2 after the reveal, at b0's hold: the narration says what its answer
# says (eight flows share wan, an eighth each), and f shows the wan lane first
# (the link that held the flows back), eight flows at once.
for size in "80 24" "60 16"; do
    set -- $size
    start "$1" "$2" -- lesson lua/lessons/shared-links.lua
    wait_for "slide 1/3"
    keys ']'
    wait_for "slide 2/3"
    keys Enter
    wait_for "step 14/30"
    ok $? "$1x$2: the lesson's slide 2 opens at step 14, when the a hosts hold the message"
    keys a
    i=0
    while [ "$i" -lt 9 ]; do keys l; i=$((i + 1)); done
    wait_for "step 23/30"
    tr -d '\n' <"$TMP/screen" | tr -s ' ' | grep -q "b0 holds the message from a0 (9 of 16 nodes hold it); b0's message shares link wan"
    ok $? "$1x$2: b0's hold narrates the wan link its bytes shared"
    if [ "$1" = 80 ]; then
        tr -d '\n' <"$TMP/screen" | tr -s ' ' | grep -q "shares link wan with 7 others from t=0.24: 1/8 of 125 MB/s; it took 0.64 s"
        ok $? "80x24: with 7 others from t=0.24, 1/8 of 125 MB/s, 0.64 s"
    fi
    keys f
    wait_for "shared links: 2-9"
    grep -q "^wan  *88888" "$TMP/screen"
    ok $? "$1x$2: f shows the wan lane first, eight flows at once"
    keys q
    sane
    ok $? "$1x$2: q restores the terminal"
done
echo "1..$n"
[ "$failed" -eq 0 ]
