#!/bin/sh
# ui_tmux.sh - the interactive view on the real binary, in a real terminal:
# tmux runs hetcast at a fixed size on a private socket, keys go in with
# send-keys, the screen comes back with capture-pane, and every wait polls
# for the expected text with a timeout (no fixed sleeps) and then for the
# screen to settle (two captures alike), so no check reads a half-drawn
# screen.  Covers the counterexample stepped to the end (fnf 6), compare
# mode (optimal 5), the
# tree (p0 -> p1, p0 -> p2), back then forward giving the same screen, help,
# 80x24, resize (bigger, too small, back), exercise mode, a load error
# (status 2, file:line on stderr), colours and NO_COLOR, a 100-node cluster
# at 200x60, and the terminal left sane after q and after every signal whose
# default ends the process (SIGINT ... SIGXCPU, SIGVTALRM, SIGPROF, the
# real-time ones; SIGXFSZ ignored; SIGALRM is the view's own timer);
# then Figueira's trees on a latency matrix (balanced-path: cost 3 and the
# positions), an all-to-all sync exchange on the counterexample (an idle
# wait, the table of sending orders) and a pipelined broadcast on
# platform-small (slice labels, the LP throughput), at 80x24 and 200x60;
# and a Lua heuristic that prints, edited and reloaded with r.
# Output: TAP.  Skips when tmux is missing.

. "$(dirname "$0")/tmux_lib.sh"

# ---- the counterexample at 80x24 ----

start 80 24 -- clusters/counterexample.csv
wait_for "step 0/8"
ok $? "opens at 80x24 at the start"
wait_for "start: only the source holds the message"
ok $? "the narration line"
[ "$(wc -l <"$TMP/screen")" -eq 24 ] && tail -n 1 "$TMP/screen" | grep -q "q quit"
ok $? "24 rows, key hints on the last"

keys End
wait_for "step 8/8"
ok $? "End: the last event"
grep -q "makespan 6" "$TMP/screen" && grep -q "End: makespan 6" "$TMP/screen"
ok $? "fnf's makespan is 6"
grep -q "lower bound 5" "$TMP/screen" && grep -q "optimum 5" "$TMP/screen"
ok $? "lower bound and optimum in the summary"

keys c
wait_for "optimal 5"
ok $? "compare mode shows optimal 5"
grep -q "fnf 6" "$TMP/screen" && grep -q "difference +1" "$TMP/screen"
ok $? "beside fnf 6, with the difference"
wait_for "optimal · makespan 5"
ok $? "the optimal pane's heading"
keys c
wait_for "step 8/8"
ok $? "c again: back to one scheduler"

keys t
wait_for "p0 -> p2"
grep -q "p0 -> p1" "$TMP/screen" && grep -q "p0 -> p2" "$TMP/screen"
ok $? "the tree shows p0 -> p1 and p0 -> p2"
grep -q "critical path" "$TMP/screen"
ok $? "the critical path is marked"

cp "$TMP/screen" "$TMP/before"
keys Left
wait_for "step 7/8"
ok $? "left: one event back"
keys Right
wait_same "$TMP/before"
ok $? "back then forward: the same screen"
keys h
wait_for "step 7/8"
keys l
wait_same "$TMP/before"
ok $? "h then l: the same screen"

keys '?'
wait_for "previous event"
missing=0
for item in "next event" "start of the schedule" "end of the schedule" "play / pause" \
    "scheduler" "port model" "compare on/off" "tree pane" "exercise" "zoom time" \
    "PgUp" "export" "reload" "quit"; do
    grep -qF -- "$item" "$TMP/screen" || { missing=1; echo "# help lacks: $item"; }
done
ok $missing "the help screen lists every key"
keys Space
wait_all "step 8/8" "→ next" && wait_gone "any key back"
ok $? "any key leaves help"

# ---- resize ----

cp "$TMP/screen" "$TMP/before"
tm resize-window -t hc -x 120 -y 40
wait_for "2T+β 8" && [ "$(head -n 1 "$TMP/screen" | wc -m)" -gt 100 ]
i=0
while [ "$(wc -l <"$TMP/screen")" -ne 40 ] && [ "$i" -lt 50 ]; do sleep 0.1; capture; i=$((i + 1)); done
[ "$(wc -l <"$TMP/screen")" -eq 40 ] && tail -n 1 "$TMP/screen" | grep -q "q quit"
ok $? "resized to 120x40: redrawn to the new size"
tm resize-window -t hc -x 40 -y 10
wait_for "terminal too small: 40x10"
ok $? "40x10: says the terminal is too small"
tm resize-window -t hc -x 80 -y 24
wait_same "$TMP/before"
ok $? "back to 80x24: the same screen as before"

# ---- exercise ----

keys x
wait_for "pick a sender"
ok $? "x: exercise mode"
keys Enter
wait_for "p0 sends to:"
keys Enter
wait_for "fnf picks the same"
ok $? "choosing p0 -> p1: fnf would too"
grep -q "costs 1" "$TMP/screen"
ok $? "and it costs 1 against the best reachable"
keys x
wait_for "step 8/8"
ok $? "x leaves the exercise"

keys q
wait_for "EXIT=0"
ok $? "q quits with status 0"
sane
ok $? "after q the terminal is sane (cooked, echo, main screen, cursor)"

# ---- signals ----

# Every signal whose default action ends the process and that can be caught
# (signal(7), Linux's numbers): the polite ones end the loop, the crashes
# and the rest restore the terminal from the handler and die of the signal.
rt=""
i=34
while [ "$i" -le 64 ]; do   # SIGRTMIN .. SIGRTMAX
    rt="$rt RTMIN+$((i - 34)):$((128 + i)):$i"
    i=$((i + 1))
done
for sig in INT:130:2 TERM:143:15 HUP:129:1 QUIT:131:3 USR1:138:10 USR2:140:12 PIPE:141:13 \
    SEGV:139:11 ABRT:134:6 BUS:135:7 FPE:136:8 ILL:132:4 TRAP:133:5 SYS:159:31 \
    XCPU:152:24 VTALRM:154:26 PROF:155:27 IO:157:29 PWR:158:30 STKFLT:144:16 $rt; do
    name=${sig%%:*}
    status=${sig#*:}
    num=${status#*:}
    status=${status%%:*}
    start 80 24 -- clusters/counterexample.csv
    wait_for "step 0/8"
    keys l
    wait_for "step 1/8"
    if [ "$name" = INT ]; then
        keys C-c
    else
        kill -"$num" "$(hetcast_pid)"
    fi
    wait_for "EXIT=$status"
    ok $? "SIG$name: exits with $status"
    sane
    ok $? "after SIG$name the terminal is sane"
done

# SIGXFSZ is ignored (a save past ulimit -f fails with a message): the view goes on.
start 80 24 -- clusters/counterexample.csv
wait_for "step 0/8"
kill -XFSZ "$(hetcast_pid)"
keys l
wait_for "step 1/8"
ok $? "SIGXFSZ: the view goes on"
keys q
wait_for "EXIT=0"
ok $? "SIGXFSZ: then q quits with status 0"
sane
ok $? "after SIGXFSZ and q the terminal is sane"

# ---- a load error ----

printf 'name,send,recv\np0,1,2\np1,abc,2\n' >"$TMP/bad.csv"
start 80 24 -- "$TMP/bad.csv"
wait_for "EXIT=2"
ok $? "a bad file: status 2"
grep -q "bad.csv:3" "$TMP/screen"
ok $? "the message names the file and line"
sane
ok $? "and the terminal is sane"

# ---- colours ----

start 80 24 -- clusters/counterexample.csv
wait_for "step 0/8"
keys End
wait_for "step 8/8"
tm capture-pane -e -p -t hc >"$TMP/colour"
grep -q '44m' "$TMP/colour"
ok $? "colours: send bars on blue"
keys q
wait_for "EXIT=0"
start 80 24 NO_COLOR=1 -- clusters/counterexample.csv
wait_for "step 0/8"
keys End
wait_for "step 8/8"
tm capture-pane -e -p -t hc >"$TMP/mono"
! grep -q '4[0-7]m' "$TMP/mono" && grep -q '▓▓' "$TMP/screen" && grep -q '══' "$TMP/screen" &&
    grep -q '██' "$TMP/screen"
ok $? "NO_COLOR: no colours, distinct fills for send, link and receive"
keys q
wait_for "EXIT=0"

# ---- a large cluster on a large terminal ----

start 200 60 -- clusters/fig6-100.csv
wait_for "step 0/"
ok $? "100 nodes at 200x60"
grep -q "of 100 nodes: those that matter (PgDn: all)" "$TMP/screen"
ok $? "the lanes that matter first, the legend says so"
keys End t
wait_for "100/100 hold"
grep -q "makespan 23" "$TMP/screen"
ok $? "to the end, with the tree"
keys PageDown
wait_gone "those that matter" && grep -q "nodes [0-9]*-[0-9]* of 100" "$TMP/screen"
ok $? "PgDn scrolls the nodes, by pages"
keys q
wait_for "EXIT=0"
ok $? "quits"

# ---- Figueira's trees on a latency matrix ----

start 80 24 -- clusters/figueira-table1.csv -s balanced-path
wait_for "step 0/"
ok $? "figueira-table1 with balanced-path"
wait_for "makespan 3 · tree cost 3"
ok $? "the tree cost 3 beside the makespan"
keys End t
wait_for "heaviest path: cost 3"
ok $? "the tree pane names the heaviest path's cost"
wait_all "─0─n3 [4]" "─3─n5 [1]"
ok $? "positions and distances: n3 at 4 (0 away), n5 at 1 (3 away)"
wait_all "┣━0━n7 [2]" "┗━3━n4 [3]"
ok $? "the heaviest path n0 -> n7 -> n4 drawn heavy"
keys s
wait_all "magpie" "depth-first" "breadth-first" "flat"
ok $? "the scheduler list offers the trees"
keys Escape q
wait_for "EXIT=0"

# ---- an all-to-all exchange ----

start 80 24 -- clusters/counterexample.csv --pattern all-to-all -m sync
wait_for "completion 10"
ok $? "an all-to-all sync exchange: completion 10"
wait_for "lower bound 10" && ! grep -q "makespan" "$TMP/screen"
ok $? "the lower bound instead of a makespan"
wait_all "step  p0   p1   p2" "   1  p0*  p1*  p2*"
ok $? "the table of sending orders is open"
wait_for "╳╳ idle"
ok $? "the legend has the idle fill"
keys l l l l l l l l
wait_for "step 8/18"
wait_all "╳╳╳" "╳p2"
ok $? "at t=5 p0 sits idle for p2: in its lane and in the table"
keys End
wait_for "6/6 done"
wait_for "   3 ▸p2  ▸p0  ▸p1"
ok $? "at the end every sender has reached row 3"
wait_for "End: completion 10."
ok $? "the narration ends on the completion"
keys q
wait_for "EXIT=0"
ok $? "quits"
start 80 24 -- clusters/figueira-table1.csv --pattern all-to-all -m async
wait_for "EXIT=2"
grep -q "latency matrix is not simulated" "$TMP/screen"
ok $? "an async exchange on a latency matrix: status 2, it runs under sync only"

# ---- a pipelined broadcast ----

start 80 24 -- clusters/platform-small.csv -s grow-tree --slices 4
wait_for "slices 4"
ok $? "a pipelined run of 4 slices on platform-small"
wait_all "throughput 0.25" "LP optimum 0.375" "fraction 66.7%"
ok $? "throughput, the LP optimum and the fraction"
keys End
wait_for "step 48/48"
wait_all "1→P1" "4←P0"
ok $? "the bars carry the slice numbers"
wait_all "filling" "steady"
ok $? "the pipeline filling and steady"
keys t
wait_for "4/4 slices"
wait_all "P1 n=0.375" "other edges"
ok $? "the tree with the LP's n(u,v), and the other edges"
keys q
wait_for "EXIT=0"
start 200 60 -- clusters/platform-small.csv -s grow-tree
wait_for "slices 20"
keys End t
wait_for "20/20 slices"
wait_all "measured 0.25" "filling" "n=0.375" "20/20 slices"
ok $? "20 slices at 200x60: measured throughput, phases, n(u,v)"
keys q
wait_for "EXIT=0"
ok $? "quits"

# ---- a Lua heuristic that prints, edited and reloaded ----

sed 's/^local function choose(state)/local function choose(state)\n  print("deciding at t=" .. state.time)/' \
    lua/fnf.lua >"$TMP/noisy.lua"
start 80 24 -- clusters/counterexample.csv -s "$TMP/noisy.lua"
wait_for "2 lines printed, the last: noisy.lua: deciding at t=1"
ok $? "a heuristic's print goes to the message line, not over the screen"
grep -q "^p0 send" "$TMP/screen"
ok $? "the Gantt is intact"
sed -i 's/deciding at/choosing at/' "$TMP/noisy.lua"
keys End r
wait_all "rerun from the start" "the last: noisy.lua: choosing at t=1" "step 0/8"
ok $? "r reads the edited heuristic again and reruns it from the start"
echo 'error("broken on purpose")' >>"$TMP/noisy.lua"
keys End r
wait_all "reload failed" "noisy.lua:" "step 8/8"
ok $? "a broken heuristic on reload: its message, the view keeps its state"
keys q
wait_for "EXIT=0"
ok $? "quits"

# ---- a decimal-comma locale (de_DE.UTF-8): the view sets LC_CTYPE only ----
# A Lua cluster names its nodes with numbers and the view exports (e) the same
# SVG and schedule CSV as in the C locale; the locale is generated with
# localedef into $TMP/loc (LOCPATH), or the checks are skipped.
locale_view() {   # locale_view LOCALE DIR: the view on DIR/nums.lua under LC_ALL=LOCALE
    stop_server
    rm -f "$TMP/pid" "$TMP/stty" "$TMP/screen"
    tm new-session -d -s hc -x 120 -y 30 -c "$2" \
        "env LOCPATH='$TMP/loc' LC_ALL=$1 sh '$TMP/run.sh' nums.lua" 2>/dev/null
}
if mkdir -p "$TMP/loc" && localedef -i de_DE -f UTF-8 "$TMP/loc/de_DE.UTF-8" >/dev/null 2>&1 &&
    LOCPATH="$TMP/loc" LC_ALL=de_DE.UTF-8 /usr/bin/env printf '%.1f' 1.5 2>/dev/null | grep -qx '1,5'; then
    for loc in C.UTF-8 de_DE.UTF-8; do
        mkdir -p "$TMP/$loc"
        printf 'for i = 1, 3 do node("n" .. (i + 0.5), i + 0.5, i + 1.25) end\nlatency(0.5)\n' >"$TMP/$loc/nums.lua"
        locale_view "$loc" "$TMP/$loc"
        wait_all "n1.5" "n3.5" "step 0/"
        ok $? "$loc: a Lua cluster names its nodes n1.5, n2.5, n3.5"
        ! grep -q "n1,5" "$TMP/screen"
        ok $? "$loc: never n1,5"
        keys End e
        wait_for "exported"
        ok $? "$loc: e exports"
        keys q
        wait_for "EXIT=0"
        ok $? "$loc: quits"
    done
    for ext in svg csv; do
        a=$(ls "$TMP/C.UTF-8/"*.$ext 2>/dev/null | head -n 1)
        b=$(ls "$TMP/de_DE.UTF-8/"*.$ext 2>/dev/null | head -n 1)
        [ -n "$a" ] && [ -n "$b" ] && cmp -s "$a" "$b"
        ok $? "de_DE.UTF-8: the exported $ext is the C locale's, byte for byte"
    done
    ! grep -Eq ' (x|y|x1|y1|x2|y2|width|height)="[0-9.-]*,' "$TMP/de_DE.UTF-8/"*.svg
    ok $? "de_DE.UTF-8: no decimal comma in the SVG's coordinates"
else
    for t in "names n1.5" "never n1,5" "e exports" "quits" "names n1.5" "never n1,5" "e exports" \
        "quits" "svg the same" "csv the same" "no decimal comma"; do
        n=$((n + 1))
        echo "ok $n - de_DE.UTF-8: $t # SKIP the locale cannot be generated (localedef, de_DE)"
    done
fi

# ---- a long computation: q and Ctrl-C cancel it, SIGTERM and SIGHUP end it ----
# The heuristic is quick at first, then edited to spin (budget raised so that
# only a cancel stops it: minutes per call) and reloaded with r.

cp lua/fnf.lua "$TMP/spin.lua"
spin() { sed -i 's/^local function choose(state)$/&\n  for i = 1, 4e9 do end/' "$TMP/spin.lua"; }
alive() { kill -0 "$(hetcast_pid)" 2>/dev/null; }
start 100 30 -- clusters/counterexample.csv -s "$TMP/spin.lua" --lua-budget 100000000000
wait_for "step 0/8"
spin
keys End r
wait_for "q, Esc or Ctrl-C: cancel"
ok $? "a long computation shows what it computes and how to cancel it"
keys q
wait_for "cancelled (what was shown is kept)" 50
ok $? "q cancels it within 5 s"
wait_all "step 8/8" "spin.lua"
alive
ok $? "the view goes on, with the previous schedule (step 8/8)"
keys r
wait_for "q, Esc or Ctrl-C: cancel"
keys C-c
wait_for "cancelled (what was shown is kept)" 50
alive
ok $? "Ctrl-C cancels it too, and the view goes on"
keys q
wait_for "EXIT=0" 50
ok $? "q then quits with status 0"

# The progress line says what is computed and counts the seconds (written by
# the view's 100 ms timer behind curses' back); Esc cancels as q does.
wait_re() {   # wait_re REGEX [TENTHS]: poll the screen until REGEX (grep -E) shows up
    i=0
    while [ "$i" -lt "${2:-100}" ]; do
        capture
        grep -qE -- "$1" "$TMP/screen" && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}
cp lua/fnf.lua "$TMP/spin.lua"
start 100 30 -- clusters/counterexample.csv -s "$TMP/spin.lua" --lua-budget 100000000000
wait_for "step 0/8"
spin
keys r
wait_for "spin.lua on 3 nodes, and the optimum beside it (exact search)"
ok $? "the progress line names what is computed"
wait_re ' [1-9]\.[0-9] s · q, Esc or Ctrl-C: cancel' 100
ok $? "and counts its seconds while it computes"
keys Escape
wait_for "cancelled (what was shown is kept)" 50
ok $? "Esc cancels it"
keys End
wait_for "step 8/8"
ok $? "the view answers after Esc (End goes to step 8/8)"
keys q
wait_for "EXIT=0" 50
ok $? "q then quits with status 0"

# ---- at open: the first computation is watched too (docs/ui.md) ----
# Before the view's screen, the progress goes to stderr; q or Esc cancels
# and the view opens on fnf saying so; Ctrl-C leaves (nothing was shown).
cp lua/fnf.lua "$TMP/spin.lua"
spin
start 100 30 -- clusters/counterexample.csv -s "$TMP/spin.lua" --lua-budget 100000000000
wait_for "q or Esc: cancel, Ctrl-C: quit"
ok $? "at open: a progress line on the terminal says how to cancel"
grep -q "hetcast: .*spin.lua on 3 nodes" "$TMP/screen"
ok $? "at open: it names what is computed"
wait_re 'hetcast: .*, [1-9]\.[0-9] s - q or Esc' 100
ok $? "at open: it counts the seconds"
keys q
wait_all "spin.lua: cancelled; showing fnf instead" "step 0/8" "fnf"
ok $? "q at open: the view opens on fnf and says the first scheduler was cancelled"
keys End
wait_for "step 8/8"
alive
ok $? "the view answers (End: step 8/8)"
keys q
wait_for "EXIT=0" 50
ok $? "q quits with status 0"
sane
ok $? "the terminal is sane after a cancel at open"

start 100 30 -- clusters/counterexample.csv -s "$TMP/spin.lua" --lua-budget 100000000000
wait_for "q or Esc: cancel, Ctrl-C: quit"
pid=$(hetcast_pid)
keys C-c
wait_for "EXIT=130" 50
ok $? "Ctrl-C at open leaves with status 130"
grep -q "hetcast: interrupted (Interrupt) before the view opened" "$TMP/screen"
ok $? "and says so"
! kill -0 "$pid" 2>/dev/null
ok $? "no process left busy"
sane
ok $? "the terminal is sane (cooked, echo) after Ctrl-C at open"

# A lesson's first slide the same: optimal on 40 nodes runs to the view's
# 5 s limit; q opens the slide on fnf.
awk 'BEGIN { srand(5); print "name,send,recv"
    for (i = 0; i < 40; i++) printf "n%d,%.3f,%.3f\n", i, 1 + 8 * rand(), 1 + 8 * rand() }' >"$TMP/n40.csv"
cat >"$TMP/slow-lesson.lua" <<EOF
return { title = "slow", slides = { { title = "forty nodes", cluster = "$TMP/n40.csv",
  schedulers = "optimal", step = 0, text = "the optimum of forty nodes" } } }
EOF
start 100 30 -- lesson "$TMP/slow-lesson.lua"
wait_for "hetcast lesson: optimal: exact search"
ok $? "a lesson's first slide: the progress line at open names the search"
keys q
wait_for "optimal: cancelled; showing fnf instead" 50
ok $? "q opens the slide on fnf and says so"
alive
ok $? "the lesson goes on"
keys q
wait_for "EXIT=" 50
sane
ok $? "and quits to a sane terminal"

for sig in TERM:143 HUP:129; do
    name=${sig%%:*}
    status=${sig##*:}
    cp lua/fnf.lua "$TMP/spin.lua"
    start 100 30 -- clusters/counterexample.csv -s "$TMP/spin.lua" --lua-budget 100000000000
    wait_for "step 0/8"
    spin
    keys r
    wait_for "q, Esc or Ctrl-C: cancel"
    pid=$(hetcast_pid)
    kill -"$name" "$pid"
    wait_for "EXIT=$status" 50
    ok $? "SIG$name while computing: exits with $status within 5 s"
    ! kill -0 "$pid" 2>/dev/null
    ok $? "SIG$name while computing: no process left busy"
    sane
    ok $? "after SIG$name while computing the terminal is sane"
done

# The time axis names the cluster's unit when it has one (# unit: ms), and
# only then: the counterexample's abstract units keep the bare "time".
{ echo "# unit: ms"; cat clusters/counterexample.csv; } >"$TMP/ce-ms.csv"
start 80 24 -- "$TMP/ce-ms.csv"
wait_for "step 0/8"
grep -q '^time (ms) 0  *1  ' "$TMP/screen"
ok $? "80x24: a cluster in ms: the axis reads 'time (ms)' beside its ticks"
keys q
start 80 24 -- clusters/counterexample.csv
wait_for "step 0/8"
grep -q '^time  *0  *1  ' "$TMP/screen" && ! grep -q 'time (' "$TMP/screen"
ok $? "80x24: a cluster without a unit: the axis reads 'time', no unit"
keys q

echo "1..$n"
[ "$failed" -eq 0 ]
