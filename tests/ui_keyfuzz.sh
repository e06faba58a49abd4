#!/bin/sh
# ui_keyfuzz.sh - a key fuzzer for the interactive view (TAP): the real
# binary runs in tmux at a fixed size on a private socket, on several
# clusters (every kind, an exchange, a pipeline, a Lua script, and the odd
# ones: one node, zero costs, huge times, names with line breaks), and gets
# thousands of seeded random keys -- the documented keys of docs/ui.md mixed
# with random bytes (broken escape sequences, invalid UTF-8) -- in batches.
# After every batch the process must be alive; every few batches it must
# answer (Esc, then ? must bring up the help screen); a resize storm
# (tmux resize-window, sizes from 1x1 to 300x100, no waits) must not crash
# it.  At the end q must quit with status 0 and leave the terminal sane
# (cooked mode, echo, main screen, cursor on).  Last, a storm of 300 keys
# of work on a 10^5-node cluster, then q (or Ctrl-C): the view must end
# within 20 s.
#
# Bytes that are signals or flow control rather than keys (^C ^\ ^Z ^S ^Q)
# and q (quit) are never sent at random; ui_tmux.sh tests the signals.
# Reproduce a failure with the seed it prints:
#   HETCAST=build/hetcast KEYFUZZ_SEED=N tests/ui_keyfuzz.sh
# KEYFUZZ_BATCHES sets the batches per cluster (default 10, of 40 keys);
# KEYFUZZ_ONLY=TEXT runs only the clusters whose name holds TEXT (the seeds
# stay those of the full run).
# Skips when tmux is missing.

SEED=${KEYFUZZ_SEED:-20261122}
BATCHES=${KEYFUZZ_BATCHES:-10}
PER_BATCH=40
W=80
H=24

. "$(dirname "$0")/tmux_lib.sh"   # tm, ok, start, keys, capture, wait_for, wait_gone, sane, reap
pid=

# The view in $TMP (its exports land there) at W x H; pid: its process.
start_view() {   # start_view HETCAST-ARGS...
    start "$W" "$H" "HC_CWD=$TMP" -- "$@" || return 1
    pid=$(hetcast_pid)
    [ -n "$pid" ]
}

alive() { [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && ! grep -q '^EXIT=' "$TMP/screen" 2>/dev/null; }

# What the pane holds after a crash: the sanitizer's report, if any.
post_mortem() {
    tm capture-pane -p -t hc -S - -E - 2>/dev/null | grep -v '^$' | tail -n 40 | sed 's/^/#   /'
}

# h h h leaves the help, a list or an exercise pick (in the main screen
# it steps back), so the help screen must go; ? must then bring it up: the
# view reads keys and draws.  (Not Esc: Esc and the next key, read
# together, make an Alt key.)  Keys typed while the view computes (a
# reload, an exercise's exact search: its progress line) are dropped
# (docs/ui.md), so the probe is tried again, every 3 s for 30 s at most.
responsive() {
    tm resize-window -t hc -x "$W" -y "$H" >/dev/null 2>&1
    sleep 0.1
    try=0
    while [ "$try" -lt $((10 * MULT)) ]; do
        for k in h h h; do
            keys "$k"
            sleep 0.05
        done
        if wait_gone "hetcast help" 15 >/dev/null; then
            keys '?'
            wait_for "hetcast help" 15 >/dev/null && return 0
        fi
        try=$((try + 1))
    done
    return 1
}

# Why the view did not answer: its state and CPU time, and where it is
# (gdb, when there is one), then whether it answers after 20 s more.
hung_report() {
    ps -o pid=,stat=,pcpu=,etime=,time= -p "$pid" 2>/dev/null | sed 's/^/#   ps: /'
    if command -v gdb >/dev/null 2>&1; then
        gdb -p "$pid" -batch -ex bt 2>/dev/null | grep '^#' | head -n 15 | sed 's/^/#   /'
    fi
    sleep 20
    if responsive; then
        echo "#   it answers 20 s later: slow, not hung"
        return
    fi
    echo "#   still no answer 20 s later; the screen:"
    sed 's/^/#   /' "$TMP/screen"
    tm resize-window -t hc -x $((W + 1)) -y $((H + 1)) >/dev/null 2>&1
    sleep 0.5
    if responsive; then
        echo "#   it answers after one more resize: the view kept a stale screen after the storm"
    else
        echo "#   no answer after one more resize either"
    fi
}

# The plan: one line per batch, "K key..." (documented keys) or "H hex..."
# (random bytes), from a seeded awk generator; "R" lines are resize storms.
plan() {   # plan SEED BATCHES
    awk -v seed="$1" -v batches="$2" -v per="$PER_BATCH" 'BEGIN {
        srand(seed)
        nk = split("Right Left Space l h Home g End G p < > , . s m c t x + - = _ Up Down " \
                   "PPage NPage o e r ? Escape Enter j k BSpace Tab", key, " ")
        for (b = 1; b <= batches; b++) {
            if (b % 5 == 0) { print "R"; continue }
            if (rand() < 0.3) {
                line = "H"
                for (i = 0; i < per; i++) {
                    do { x = int(rand() * 256) } while (x == 3 || x == 17 || x == 19 || x == 26 || x == 28 || x == 113)
                    line = line sprintf(" %02x", x)
                }
            } else {
                line = "K"
                for (i = 0; i < per; i++)
                    line = line " " key[1 + int(rand() * nk)]
            }
            print line
        }
    }'
}

storm() {   # storm SEED: 40 resizes as fast as tmux takes them, 1x1 to 300x100
    awk -v seed="$1" 'BEGIN { srand(seed)
        for (i = 0; i < 40; i++) {
            r = rand()
            if (r < 0.3) { w = 1 + int(rand() * 12); h = 1 + int(rand() * 6) }
            else if (r < 0.8) { w = 20 + int(rand() * 120); h = 5 + int(rand() * 40) }
            else { w = 150 + int(rand() * 150); h = 40 + int(rand() * 60) }
            print w, h
        } }' | while read -r sw sh; do
        tm resize-window -t hc -x "$sw" -y "$sh" >/dev/null 2>&1
    done
}

# The odd clusters, written into $TMP.
printf 'name,send,recv\nonly,1,2\n' >"$TMP/one.csv"
printf 'name,send,recv\na,0,0\nb,0,0\nc,0,0\n# latency: 0\n' >"$TMP/zero.csv"
printf '# latency: 1e100\nname,send,recv\na,1e100,1e100\nb,1e-300,0\nc,1e100,5e99\n' >"$TMP/huge.csv"
printf 'name,send,recv\n"two lines",1,2\n"tab here",1,3\n"%s",2,3\n"\xc3\xa9t\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x9a\x80",2,4\n' \
    "a-very-long-node-name-that-is-wider-than-any-lane-label-could-ever-be-drawn-in-0123456789" >"$TMP/names.csv"

seed=$SEED
run_cluster() {   # run_cluster NAME HETCAST-ARGS...
    name=$1
    shift
    seed=$((seed + 1))
    case $name in *"${KEYFUZZ_ONLY:-}"*) ;; *) return ;; esac
    if ! start_view "$@"; then
        ok 1 "$name: starts"
        return
    fi
    wait_for "help" 100
    alive
    ok $? "$name: opens"
    plan "$seed" "$BATCHES" >"$TMP/plan"
    b=0
    bad=0
    while read -r kind rest; do
        b=$((b + 1))
        case $kind in
            K) # shellcheck disable=SC2086
               keys $rest ;;
            H) # shellcheck disable=SC2086
               keys -H $rest ;;
            R) storm "$seed$b" ;;
        esac
        sleep 0.05
        capture
        if ! alive; then
            ok 1 "$name: alive after batch $b (seed $seed: $kind $(echo "$rest" | cut -c1-120))"
            post_mortem
            bad=1
            break
        fi
        if [ $((b % 3)) -eq 0 ] && ! responsive; then
            # A second chance: under a sanitizer the view can lag behind a
            # storm and show a stale screen until it next redraws everything.
            cp "$TMP/screen" "$TMP/first"
            if responsive; then
                echo "# $name, batch $b (seed $seed): answered only at the second probe; the first saw:"
                grep -v '^ *$' "$TMP/first" | sed 's/^/#   /'
            else
                ok 1 "$name: answers after batch $b (seed $seed); the screen:"
                sed 's/^/#   /' "$TMP/screen"
                hung_report
                bad=1
                break
            fi
        fi
    done <"$TMP/plan"
    [ "$bad" -eq 0 ] && ok 0 "$name: $b batches of $PER_BATCH keys and resize storms, alive and answering"
    [ "$bad" -eq 0 ] || return
    responsive
    ok $? "$name: answers at the end"
    # q quits from the main screen; Esc first leaves the help or a list.
    tries=0
    while [ "$tries" -lt 5 ] && ! grep -q '^EXIT=' "$TMP/screen"; do
        keys Escape
        sleep 0.1
        keys q
        wait_for "EXIT=" 20
        tries=$((tries + 1))
    done
    grep -q '^EXIT=0$' "$TMP/screen"
    ok $? "$name: q quits with status 0"
    sane
    ok $? "$name: the terminal is sane afterwards"
}

C=$(pwd)/clusters
run_cluster "counterexample" "$C/counterexample.csv"
run_cluster "100 nodes" "$C/fig6-100.csv"
run_cluster "latency matrix, balanced-path" "$C/figueira-table1.csv" -s balanced-path
run_cluster "platform graph, grow-tree" "$C/platform-small.csv" -s grow-tree --slices 4
run_cluster "all-to-all exchange" "$C/counterexample.csv" --pattern all-to-all -m sync
run_cluster "Lua cluster" "$C/lab.lua"
run_cluster "one node" "$TMP/one.csv"
run_cluster "zero costs" "$TMP/zero.csv"
run_cluster "huge times" "$TMP/huge.csv"
run_cluster "odd names" "$TMP/names.csv"

# ---- a storm of keys on 10^5 nodes, then q or Ctrl-C ----
# Every key of the storm is work on the whole cluster (a new source, a
# reload, compare); the view is behind the keyboard, so a q or a Ctrl-C
# typed after them must end it within 20 s, not after the storm has been
# worked through (a q was taken as "cancel this computation" and the view
# went on with the next key).
storm_end() {   # storm_end KEY STATUS: the storm, then KEY; the view must end with STATUS
    case "storm" in *"${KEYFUZZ_ONLY:-}"*) ;; *) return ;; esac
    if ! start_view "$TMP/storm.csv" || ! wait_for "? help" 600; then
        ok 1 "10^5 nodes: the view opens"
        return
    fi
    # shellcheck disable=SC2046
    keys $(awk 'BEGIN { for (i = 0; i < 50; i++) printf "o Down r Left + c " }')
    keys "$1"
    t0=$(date +%s)
    wait_for "EXIT=" 200
    grep -q "^EXIT=$2\$" "$TMP/screen"
    ok $? "10^5 nodes, 300 keys of work, then $1: the view ends with status $2 within 20 s (in $(($(date +%s) - t0)) s)"
    reap
}
awk 'BEGIN { srand(7); print "name,send,recv"
             for (i = 0; i < 100000; i++) printf "n%d,%.3f,%.3f\n", i, 1 + rand() * 9, 1 + rand() * 9 }' >"$TMP/storm.csv"
storm_end q 0
storm_end C-c 130

echo "1..$n"
[ "$failed" -eq 0 ]
