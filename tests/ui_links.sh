#!/bin/sh
# ui_links.sh - the view on shared links, on the real binary in tmux (TAP):
# tests/data/simgrid-backbone.xml under multi-port senders at 80x24, 60x16
# and 160x45: the title names the model ("multi-port on shared links"), and
# stepping to node-4's hold narrates the link its bytes shared, with how many
# other flows, from when, and its part of the bandwidth.  Skips when tmux is
# missing or hetcast was built without SimGrid.
HETCAST=${HETCAST:-build/hetcast}
case $HETCAST in /*) ;; *) HETCAST=$(pwd)/$HETCAST ;; esac
if ! command -v tmux >/dev/null 2>&1; then
    echo "1..0 # SKIP tmux is not installed"
    exit 0
fi
if "$HETCAST" run tests/data/simgrid-star.xml 2>&1 | grep -q "built without SimGrid"; then
    echo "1..0 # SKIP this hetcast was built without SimGrid"
    exit 0
fi
. "$(dirname "$0")/tmux_lib.sh"
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
        grep -q "with 22 others from t=0.00022: 0.0508 of" "$TMP/screen"
        ok $? "160x45: with 22 other flows from t=0.00022 (after the latency), 0.0508 of the bandwidth"
    fi
    keys q
    sane
    ok $? "$1x$2: q restores the terminal"
done
echo "1..$n"
[ "$failed" -eq 0 ]
