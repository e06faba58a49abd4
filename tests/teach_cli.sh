#!/bin/sh
# teach_cli.sh - what the command line says to a class: the
# "first difference:" line of hetcast compare (both picks, the node that
# finishes late and why), optimal's reasons (what each choice achieves), and
# the lessons: every shipped lesson runs with --print, and the numbers its
# handout prints match hetcast run / compare on the same clusters.
# Output: TAP.

HETCAST=${HETCAST:-build/hetcast}
n=0
failed=0
ok() {
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hetcast-teach.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

# ---- first difference ----

"$HETCAST" compare clusters/counterexample.csv >"$TMP/cmp"
ok $? "compare runs"
grep "^first difference:" "$TMP/cmp" >"$TMP/fd"
ok $? "a line starts with first difference:"
grep -q "p0 -> p1" "$TMP/fd" && grep -q "p0 -> p2" "$TMP/fd"
ok $? "it names both picks, p0 -> p1 and p0 -> p2"
grep -q "p2 finishes late under fnf" "$TMP/fd"
ok $? "and p2 as the node that finishes late"
grep -q "fnf ends at 6, optimal at 5: fnf loses 1" "$TMP/fd" && grep -q "its receive starts at 3, not 2" "$TMP/fd" &&
    grep -q "p0 -> p2 starts at 1: p0's send port is held until then by p0 -> p1 \[0, 1)" "$TMP/fd" &&
    ! grep -q "missed by" "$TMP/fd"
ok $? "and why: fnf loses 1, p0's port held by p0 -> p1 pushes p2's send to t=1"
"$HETCAST" compare clusters/counterexample.csv -s fnf -s fnf | grep -q "^first difference: none"
ok $? "two equal schedules: no difference"
"$HETCAST" compare clusters/k-class.lua --param n=8 | grep -q "^first difference: decision"
ok $? "k-class n=8: a first difference too"

# ---- optimal says what its choice achieves ----

"$HETCAST" run clusters/counterexample.csv -s optimal | grep -q "p2 is served as early as it can ever be (holds it at t=5), within the lower bound 5"
ok $? "optimal's reason: p2 served as early as it can be, meeting the lower bound"

# ---- slides: what a compare, a pipeline and a large cluster's SVG say ----

"$HETCAST" compare clusters/counterexample.csv --format svg >"$TMP/cmp.svg"
grep -q "fnf 6 vs optimal 5: difference +1 (+20%) · optimal is proven optimal" "$TMP/cmp.svg"
ok $? "compare SVG: the title names both schedules, the difference and which is proven optimal"
grep -q "first difference: decision 1" "$TMP/cmp.svg"
ok $? "compare SVG: and the first difference"
"$HETCAST" run clusters/platform-small.csv -s grow-tree --slices 4 --format svg >"$TMP/pipe.svg"
grep -q "1→P1" "$TMP/pipe.svg" && grep -q "4 slices · throughput 0.25 · LP optimum 0.375" "$TMP/pipe.svg"
ok $? "pipeline SVG: slice numbers on the bars, slices and throughputs in the summary"
"$HETCAST" run clusters/fig6-100.csv --format svg >"$TMP/big.svg"
height=$(sed -n 's/.*<svg [^>]*height="\([0-9]*\)".*/\1/p' "$TMP/big.svg" | head -n 1)
grep -q "showing 40 of 100 nodes" "$TMP/big.svg" && [ "${height:-9999}" -lt 1300 ]
ok $? "100 nodes: 40 lanes (the critical path and the latest), ${height:-?} px tall (was 2488)"
# Tree labels never share a row: every label of the tree sits at its own y.
awk '/broadcast tree/ { t = 1 } t && /<text/ && /t=[0-9]/ { match($0, /y="[0-9.]*"/); print substr($0, RSTART, RLENGTH) }' \
    "$TMP/big.svg" | sort | uniq -d >"$TMP/dups"
[ ! -s "$TMP/dups" ]
ok $? "100 nodes: no two tree labels on one row"
printf 'name,send,recv\n"a\001b",1,1\nc,1,2\n' >"$TMP/ctl.csv"
"$HETCAST" run "$TMP/ctl.csv" --format svg 2>/dev/null | grep -q "$(printf '\001')"
[ $? -ne 0 ]
ok $? "a control character in a name never reaches the SVG"

# ---- lessons: every shipped one prints, and its numbers are hetcast's ----

lessons=0
for f in lua/lessons/*.lua; do
    lessons=$((lessons + 1))
    name=$(basename "$f")
    "$HETCAST" lesson "$f" --print >"$TMP/handout" 2>"$TMP/err"
    ok $? "$name: --print runs"
    grep -q "^## 1/" "$TMP/handout"
    ok $? "$name: the handout has its slides"
    checks=0
    bad=0
    grep "^check: hetcast compare " "$TMP/handout" >"$TMP/checks"
    # An inline cluster is printed before its check line, indented, as the
    # CSV that "compare -" reads: inline.N for the Nth check.
    rm -f "$TMP"/inline.*
    awk -v dir="$TMP" '
        /^cluster \(inline/ { inl = 1; buf = ""; next }
        inl && /^    / { buf = buf substr($0, 5) "\n"; next }
        /^check: / { n++; if (inl) { f = dir "/inline." n; printf "%s", buf > f; close(f) } inl = 0; next }
        { inl = 0 }' "$TMP/handout"
    while IFS= read -r line; do
        checks=$((checks + 1))
        cmd=${line#check: hetcast compare }
        args=${cmd% =>*}
        want=${cmd#*=> }
        input=/dev/null
        case $args in "- "*) input="$TMP/inline.$checks" ;; esac
        # shellcheck disable=SC2086
        "$HETCAST" compare $args <"$input" >"$TMP/out" 2>/dev/null
        # "fnf 6", or with --trace "fnf 6 6.000558": predicted, then measured
        echo "$want" | tr ',' '\n' | while read -r sched value measured; do
            got=$(awk -v s="$sched" '$1 == s && $2 ~ /^[0-9.e+-]+$/ { print $2; exit }' "$TMP/out")
            [ "$got" = "$value" ] || echo "# $name: $sched: the handout says $value, hetcast compare $args says ${got:-nothing}"
            [ -z "$measured" ] && continue
            got=$(awk -v s="$sched" '$1 == s && $2 ~ /^[0-9.e+-]+$/ { print $3; exit }' "$TMP/out")
            [ "$got" = "$measured" ] || echo "# $name: $sched measured: the handout says $measured, hetcast compare $args says ${got:-nothing}"
        done >"$TMP/diff"
        [ -s "$TMP/diff" ] && { cat "$TMP/diff"; bad=$((bad + 1)); }
    done <"$TMP/checks"
    [ "$checks" -gt 0 ] && [ "$bad" -eq 0 ]
    ok $? "$name: the numbers of its $checks slides match hetcast compare on the same clusters"
done
"$HETCAST" lesson lua/lessons/port-models.lua --print | grep -q "^check: hetcast compare - "
ok $? "a shipped lesson builds a cluster inline (port-models.lua), checked through compare -"

# ---- inline clusters: as CSV text, and their mistakes ----

cat >"$TMP/inline.lua" <<'EOF'
return {
  title = "inline",
  slides = {
    { title = "csv", cluster = { csv = "# latency: 1\nname,send,recv\np0,1,2\np1,1,2\np2,2,3\n" },
      schedulers = {"fnf", "optimal"} },
  },
}
EOF
"$HETCAST" lesson "$TMP/inline.lua" --print >"$TMP/handout" 2>"$TMP/err"
ok $? "an inline cluster as CSV text: --print runs"
grep -q "^check: hetcast compare - -s fnf -s optimal => fnf 6, optimal 5" "$TMP/handout"
ok $? "its numbers: the counterexample's (fnf 6, optimal 5)"
printf 'return {slides = {{title = "x", cluster = "%s", schedulers = {"fnf", "optimal", "fef"}}}}\n' \
    "$(pwd)/clusters/counterexample.csv" >"$TMP/three.lua"
"$HETCAST" lesson "$TMP/three.lua" --print >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "slide 1: at most two schedulers" "$TMP/err"
ok $? "a slide with three schedulers: status 2 and why"
cat >"$TMP/bad1.lua" <<'EOF'
return { slides = {
  { title = "x", cluster = { nodes = {{"p0", 1, 2}, {"p1", "fast", 2}} } },
} }
EOF
"$HETCAST" lesson "$TMP/bad1.lua" --print >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "bad1.lua:2: slide 1: node 2: its send and receive times must be numbers" "$TMP/err"
ok $? "an inline node with a word for a time: status 2, the file, the slide and the node"
cat >"$TMP/bad2.lua" <<'EOF'
return { slides = {
  { title = "x", cluster = { name = "two\nlines", nodes = {{"p0", 1, 2}, {"p1", 1, 2}} } },
} }
EOF
"$HETCAST" lesson "$TMP/bad2.lua" --print >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "slide 1: the cluster's name must be one line" "$TMP/err"
ok $? "an inline cluster's name of two lines: refused (it would be two lines of the file)"
cat >"$TMP/bad3.lua" <<'EOF'
return { slides = {
  { title = "x", cluster = { nodes = {{"p0", 1, 2}, {"p1", -1, 2}} } },
} }
EOF
"$HETCAST" lesson "$TMP/bad3.lua" --print >/dev/null 2>"$TMP/err"
[ $? -ne 0 ] && grep -q "bad3.lua (slide 1, inline):4: send" "$TMP/err"
ok $? "an inline cluster the loader refuses: the lesson and the slide named ($(head -n 1 "$TMP/err"))"
printf 'return {slides = {{title = "x", cluster = "%s", schedulers = {"fnf", "optimal"}, trace = "%s"}}}\n' \
    "$(pwd)/clusters/counterexample.csv" "$(pwd)/lua/lessons/counterexample-measured.csv" >"$TMP/tr2.lua"
"$HETCAST" lesson "$TMP/tr2.lua" --print >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "slide 1: a trace is the measured run of one broadcast" "$TMP/err"
ok $? "a slide with a trace and two schedulers: status 2 and why"
printf 'return {slides = {{title = "x", cluster = "%s", schedulers = "fnf", trace = "trace-missing.csv"}}}\n' \
    "$(pwd)/clusters/counterexample.csv" >"$TMP/tr3.lua"
"$HETCAST" lesson "$TMP/tr3.lua" --print >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "trace-missing.csv: cannot open" "$TMP/err"
ok $? "a slide whose trace does not exist: status 2, the trace named"
"$HETCAST" lesson lua/lessons/mpi-real.lua --print | grep -q "^  measured       makespan 6.000558 (error +0.000558"
ok $? "mpi-real.lua: the handout gives fnf's measured makespan and its error"
# ---- a lesson reads only its own files and the bundled clusters ----
# Each refused at load with the lesson's file and line, the other file never
# quoted; a FIFO refused, never waited on (timeout 10: a hang fails).
mkdir "$TMP/les" "$TMP/les/sub"
printf 'TOPSECRET-first-line\nname,send,recv\n' >"$TMP/secret.csv"
ln -s "$TMP/secret.csv" "$TMP/les/link.csv"
mkfifo "$TMP/les/fifo.csv"
cp clusters/counterexample.csv "$TMP/les/sub/mine.csv"
confined() {   # confined NAME FIELD VALUE WHY: the lesson with FIELD = VALUE is refused, saying WHY
    {
        printf 'return {title = "confined",\n  slides = {\n'
        case $2 in
        cluster) printf '    {title = "x", cluster = "%s"},\n' "$3" ;;
        trace) printf '    {title = "x", cluster = "sub/mine.csv", schedulers = "fnf",\n     trace = "%s"},\n' "$3" ;;
        schedulers) printf '    {title = "x", cluster = "sub/mine.csv",\n     schedulers = "%s"},\n' "$3" ;;
        esac
        printf '  }}\n'
    } >"$TMP/les/$1.lua"
    line=3
    [ "$2" = trace ] || [ "$2" = schedulers ] && line=4
    timeout 10 "$HETCAST" lesson "$TMP/les/$1.lua" --print >"$TMP/out" 2>"$TMP/err"
    rc=$?
    [ "$rc" -eq 2 ] && grep -qF "les/$1.lua:$line: slide 1: $2 \"$3\" $4" "$TMP/err" &&
        ! grep -q TOPSECRET "$TMP/out" "$TMP/err"
    ok $? "a lesson's $2 ($1): refused at the lesson's line, status 2, nothing of the file shown"
}
outside="is outside the lesson's folder and hetcast's clusters: refused"
confined abs cluster "$TMP/secret.csv" "$outside"
confined up cluster "../secret.csv" "$outside"
confined subup cluster "sub/../../secret.csv" "$outside"
confined link cluster "link.csv" "$outside"
confined fifo cluster "fifo.csv" "is a FIFO, not a regular file: refused"
confined dir cluster "sub" "is a directory, not a regular file: refused"
confined trace-abs trace "$TMP/secret.csv" "$outside"
confined trace-up trace "../secret.csv" "$outside"
confined trace-fifo trace "fifo.csv" "is a FIFO, not a regular file: refused"
# A Lua heuristic is a file the lesson runs: resolved against its folder and confined alike.
printf -- '-- TOPSECRET-lua\nreturn {name = "TOPSECRET", choose = function() error("TOPSECRET") end}\n' >"$TMP/secret.lua"
ln -s "$TMP/secret.lua" "$TMP/les/sub/linked.lua"
confined lua-up schedulers "../secret.lua" "$outside"
confined lua-abs schedulers "$TMP/secret.lua" "$outside"
confined lua-link schedulers "sub/linked.lua" "$outside"
mkfifo "$TMP/les/sub/pipe.lua"
confined lua-fifo schedulers "sub/pipe.lua" "is a FIFO, not a regular file: refused"
cp lua/fnf.lua "$TMP/les/sub/myfnf.lua"
printf 'return {slides = {{title = "x", cluster = "sub/mine.csv", schedulers = {"sub/myfnf.lua", "fnf.lua"}}}}\n' \
    >"$TMP/les/ownlua.lua"
abs=$(cd "$(dirname "$HETCAST")" && pwd)/$(basename "$HETCAST")
(cd "$TMP" && timeout 20 "$abs" lesson les/ownlua.lua --print) >"$TMP/out" 2>"$TMP/err" &&
    grep -q "^  myfnf.lua      makespan 6" "$TMP/out" && grep -q "^  fnf.lua        makespan 6" "$TMP/out"
ok $? "a lesson's own heuristic beside it and a bundled one by name run, the lesson presented from another folder"
printf 'return {slides = {{title = "x", cluster = "sub/mine.csv"}}}\n' >"$TMP/les/mine.lua"
timeout 10 "$HETCAST" lesson "$TMP/les/mine.lua" --print >"$TMP/out" 2>"$TMP/err" &&
    grep -q "^cluster: counterexample" "$TMP/out"
ok $? "a lesson's own file in a folder below it: read"
printf 'return {slides = {{title = "x", cluster = "%s"}}}\n' "$(pwd)/clusters/counterexample.csv" >"$TMP/les/bundled.lua"
timeout 10 "$HETCAST" lesson "$TMP/les/bundled.lua" --print >"$TMP/out" 2>"$TMP/err" &&
    grep -q "^cluster: counterexample" "$TMP/out"
ok $? "a bundled cluster named by its full path: read"

[ "$lessons" -ge 5 ]
ok $? "at least five lessons are shipped ($lessons)"
"$HETCAST" lesson --list >"$TMP/list" 2>"$TMP/err" &&
    grep -Eq "^  fnf-loses\.lua +4 slides  Why fastest-node-first loses$" "$TMP/list" &&
    grep -Eq "^  pipeline\.lua +2 slides  " "$TMP/list" &&
    [ "$(grep -c '^  [a-z0-9-]*\.lua ' "$TMP/list")" -eq "$lessons" ] && [ ! -s "$TMP/err" ]
ok $? "lesson --list: every shipped lesson, its slides and title"
"$HETCAST" lesson --list lua/lessons/fnf-loses.lua >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "give it alone" "$TMP/err"
ok $? "lesson --list with a file: status 2, --list goes alone"

# A slide's makespan in the handout is the one hetcast run prints.
"$HETCAST" lesson lua/lessons/fnf-loses.lua --print | grep -A1 "^cluster: counterexample" | grep -q "fnf            makespan 6" &&
    "$HETCAST" run clusters/counterexample.csv | grep -q "^makespan      6"
ok $? "fnf-loses: fnf's makespan 6 is hetcast run's"

# The numbers a slide's text states are the run's (each slide that once said otherwise).
"$HETCAST" lesson lua/lessons/fnf-guarantee.lua --print >"$TMP/g"
grep -q "r + L are 3 (p1) and 4 (p2)" "$TMP/g" && [ "$(grep -vc '^#\|^name' clusters/counterexample.csv)" -eq 3 ] &&
    grep -q "lower bound    5 · optimum 5 · 2T+beta 8" "$TMP/g"
ok $? "fnf-guarantee slide 1: two receivers, r + L 3 and 4, 2T+beta 8"
grep -q "slow-4: it holds the message at 19 instead of 16, fnf's whole loss of 3" "$TMP/g" && grep -q "fnf            makespan 19" "$TMP/g" &&
    grep -q "optimum 16 · 2T+beta 29" "$TMP/g" && grep -q "slow-4 finishes late under fnf: it holds the message at 19, not 16" "$TMP/g" &&
    ! grep -q "grows" "$TMP/g"
ok $? "fnf-guarantee slide 2: 19, 16, 29 and slow-4 at 19, not 16, as the run says"
"$HETCAST" run clusters/counterexample.csv --pattern all-to-all -s caterpillar -m sync >"$TMP/x"
grep -Eq "^ +6 +p0 +p2 +3 +\[4, 5\) " "$TMP/x" && grep -Eq "^ +2 +p1 +p2 +2 .*\[2, 5\) +5$" "$TMP/x" &&
    "$HETCAST" lesson lua/lessons/alltoall.lua --print | grep -q "p0 idles (the fill) until 5: its step-3 receiver p2 is still receiving p1's step-2 message"
ok $? "alltoall slide 1: p0 waits [4, 5) while p2 receives p1's step-2 message until 5"
"$HETCAST" lesson lua/lessons/port-models.lua --print >"$TMP/p"
grep -q "Here it gives the times of sync" "$TMP/p" && grep -q "fnf and the optimum both take 9" "$TMP/p" &&
    "$HETCAST" run clusters/counterexample.csv -m one-port | grep -q "^makespan      9$" &&
    "$HETCAST" run clusters/counterexample.csv -m sync | grep -q "^makespan      9$" &&
    "$HETCAST" run clusters/counterexample.csv -m one-port -s optimal | grep -q "^makespan      9$"
ok $? "port-models slide 4: one-port gives sync's 9 on a broadcast, fnf and the optimum alike"
! grep -q "fnf is optimal" "$TMP/p" && grep -q "fnf at 8 against 7 in this model" "$TMP/p" &&
    "$HETCAST" compare clusters/khuller-kim.csv -m sender-only | grep -Eq "^fnf +8 " &&
    "$HETCAST" compare clusters/khuller-kim.csv -m sender-only | grep -Eq "^optimal +7 "
ok $? "port-models slide 2: fnf is not called optimal in sender-only (fnf-sum: 8 against 7)"
"$HETCAST" lesson lua/lessons/peer-instruction.lua --print >"$TMP/pi"
grep -q "smallest send time" "$TMP/pi" && ! grep -q "receives fastest" "$TMP/pi" &&
    "$HETCAST" run clusters/counterexample.csv | grep -q "p1 is the fastest waiting node (s=1, r=2)"
ok $? "peer-instruction slide 2: fnf picks the smallest send time, not the fastest receiver"
"$HETCAST" lesson lua/lessons/fnf-sum.lua --print --student >"$TMP/fs"
! grep -q "1\.5" "$TMP/fs" && ! grep -q "at 2, 4, 5, 6 and 8" "$TMP/fs"
ok $? "fnf-sum: the students' handout gives neither the factor 1.5 asked about nor fnf's makespan"
"$HETCAST" lesson lua/lessons/pipeline.lua --print >"$TMP/l"
grep -q "grow-tree      makespan 60, 20 slices, throughput 0.3333333333 of the LP's 0.6" "$TMP/l" &&
    grep -q "lp-grow        makespan 40, 20 slices, throughput 0.5 of the LP's 0.6" "$TMP/l"
ok $? "pipeline slide 2: two trees of different throughput (1/3, 0.5) below the LP's 0.6"
"$HETCAST" run clusters/figueira-table1.csv -s binomial | grep -q "^note .*heaviest path n0 -> n4 -> n6 -> n7 (cost 6)" &&
    "$HETCAST" run clusters/figueira-table1.csv -s binomial | grep -Eq "^ +5 +n4 +n6 +- +\[3, 6\) " &&
    "$HETCAST" lesson lua/lessons/figueira-trees.lua --print | grep -q "^answer: n0 -> n4 and n4 -> n6, 3 hops each"
ok $? "figueira-trees slide 1: the answer's path and hops are binomial's heaviest path"

# A broken lesson is a message with the file and line, status 2.
printf 'return {slides = {{title = "x"}}}\n' >"$TMP/bad.lua"
"$HETCAST" lesson "$TMP/bad.lua" --print >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "cluster = \"FILE\" is missing" "$TMP/err"
ok $? "a slide without a cluster: status 2 and what is missing"

# --gift: every question of every shipped lesson is read by Moodle's importer as the type meant
# (tests/gift_check.py classifies as readquestion() does), with the slide's text and cluster.
"$HETCAST" lesson lua/lessons/*.lua --gift >"$TMP/all.gift" && python3 tests/gift_check.py "$TMP/all.gift" >"$TMP/gift.out"
ok $? "--gift: Moodle's rules read every shipped question as the type meant, no category keeps an escape"
nq=$(grep -c '^::' "$TMP/all.gift")
[ "$nq" -gt 20 ] && [ "$(grep -c '^::slide [0-9]* .*::\[html\].*<table><caption>.*</table> {' "$TMP/all.gift")" -eq "$nq" ] &&
    grep -q '^\$CATEGORY: hetcast/Peer Instruction fastest-node-first$' "$TMP/all.gift"
ok $? "--gift: each of the $nq questions carries its cluster's table; categories without escapes"
grep -q "<p>p0 holds the message. p0 and p1 send in 1 and receive in 2; p2 is slow\\\\: it sends in 2" "$TMP/all.gift" &&
    grep -qx "short slide 2 fnf's first decision: p0 p1 | p0,p1 | p0, p1" "$TMP/gift.out" &&
    grep -q "book next?</b> (Answer with the name of the sender, a blank, and the name of the receiver.)</p>" "$TMP/all.gift" &&
    grep -qx "mc slide 4 fnf against the optimum: 0: fnf is optimal here | \*by 1 | by 2 | by 3" "$TMP/gift.out" &&
    ! grep -q 'The right answer\\: [A-H]\\: ' "$TMP/all.gift" && grep -q 'The right answer\\: p2, the slow receiver' "$TMP/all.gift"
ok $? "--gift: the slide's text in the stem, short answers without ->, feedback names the right choice by its text"
printf '::t::q {\n\t=p0 -> p2\n}\n' >"$TMP/match.gift"
python3 tests/gift_check.py "$TMP/match.gift" | grep -q "Moodle reads a match question, not a shortanswer one"
ok $? "gift_check: an arrow beside = is a matching question to Moodle"
printf '$CATEGORY: hetcast/a\\: b\n\n::t::q {=x}\n' >"$TMP/cat.gift"
python3 tests/gift_check.py "$TMP/cat.gift" | grep -q "keeps a placeholder in the category"
ok $? "gift_check: an escape in a category stays a placeholder in Moodle"
cat >"$TMP/tol.lua" <<'LUA'
return {title = "t", slides = {
  {title = "m", cluster = "counterexample.csv", question = "How long?", predict = "makespan", tolerance = 0.5},
}}
LUA
cp clusters/counterexample.csv "$TMP/"
"$HETCAST" lesson "$TMP/tol.lua" --gift | python3 tests/gift_check.py /dev/stdin | grep -qx "numerical slide 1 m: 6:0.5"
ok $? "--gift: a slide's tolerance is the numerical question's"
cat >"$TMP/far.lua" <<'LUA'
return {title = "t", slides = {
  {title = "n", cluster = "counterexample.csv", question = "Which?", predict = "next", decision = 9},
}}
LUA
"$HETCAST" lesson "$TMP/far.lua" --gift >"$TMP/far.gift" 2>"$TMP/err"
[ $? -eq 2 ] && ! grep -q "^::" "$TMP/far.gift" &&
    grep -q "decision = 9 asks for transfer 9, and the slide's run books 2" "$TMP/err"
ok $? "--gift: a next question past the run's last transfer is refused, status 2"

# A lesson's mistakes at their file and line; --print is the author's lint.
cat >"$TMP/lines.lua" <<'LUA'
return {
  title = "t",
  slides = {
    {title = "one", cluster = "counterexample.csv"},
    {
      title = "two",
      question = "Which?",
      choices = {"p1", "p2"},
      cluster = "counterexample.csv",
    },
  },
}
LUA
"$HETCAST" lesson "$TMP/lines.lua" --print >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -qx "hetcast lesson: $TMP/lines.lua:8: slide 2: choices need correct = K, the number of the right one" "$TMP/err"
ok $? "a slide's mistake names the file and the line of its field (choices need correct)"
sed 's/      choices = {"p1", "p2"},/      predict = "makespam",/' "$TMP/lines.lua" >"$TMP/l2.lua"
"$HETCAST" lesson "$TMP/l2.lua" --print >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "^hetcast lesson: $TMP/l2.lua:8: slide 2: predict must be" "$TMP/err"
ok $? "predict must be ...: at its line"
sed 's/      choices = {"p1", "p2"},/      model = "asynch",/' "$TMP/lines.lua" >"$TMP/l3.lua"
"$HETCAST" lesson "$TMP/l3.lua" --print >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "^hetcast lesson: $TMP/l3.lua:8: slide 2: unknown model \"asynch\"" "$TMP/err"
ok $? "an unknown model: at its line"
sed 's/      cluster = "counterexample.csv",/      correct = 1,/' "$TMP/lines.lua" >"$TMP/l4.lua"
"$HETCAST" lesson "$TMP/l4.lua" --print >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "^hetcast lesson: $TMP/l4.lua:5: slide 2: cluster = \"FILE\" is missing" "$TMP/err"
ok $? "a missing cluster: at the slide's first line"
sed 's/      choices = {"p1", "p2"},/      choices = {"p1", "p2"}, correct = 2, anwser = "p2", show = {"p9", "optimun"},/' "$TMP/lines.lua" >"$TMP/l5.lua"
"$HETCAST" lesson "$TMP/l5.lua" --print >/dev/null 2>"$TMP/err"
[ $? -eq 0 ] && grep -qx "hetcast lesson: $TMP/l5.lua:8: warning: slide 2: unknown field \"anwser\" (did you mean \"answer\"?): it is ignored" "$TMP/err" &&
    grep -qx "hetcast lesson: $TMP/l5.lua:8: warning: slide 2: show names \"p9\", no node of this cluster and no summary value" "$TMP/err" &&
    grep -qx "hetcast lesson: $TMP/l5.lua:8: warning: slide 2: show names \"optimun\", no node of this cluster and no summary value (did you mean \"optimum\"?)" "$TMP/err"
ok $? "--print warns of an unknown field and an unknown show name, at their line, with the name meant"
"$HETCAST" lesson "$TMP/far.lua" --print >/dev/null 2>"$TMP/err"
[ $? -eq 2 ] && grep -qx "hetcast lesson: $TMP/far.lua:2: slide 1: decision = 9 asks for transfer 9, and the slide's run books 2: no one can be graded on this question" "$TMP/err"
ok $? "--print refuses a next question past the run's last transfer, at its line"
"$HETCAST" lesson lua/lessons/*.lua --print >/dev/null 2>"$TMP/err" && [ ! -s "$TMP/err" ]
ok $? "--print of every shipped lesson: no warning"
sed 's/      choices = {"p1", "p2"},/      choices = {"0 of them", "1", "2"}, correct = 2,/' "$TMP/lines.lua" >"$TMP/l6.lua"
"$HETCAST" lesson "$TMP/l6.lua" --print >/dev/null 2>"$TMP/err"
[ $? -eq 0 ] && grep -qx "hetcast lesson: $TMP/l6.lua:8: warning: slide 2: choices: B \"1\" cannot be picked by its text, which reads as A (\"0 of them\"); make it no letter A-C and no number 1-3" "$TMP/err"
ok $? "--print warns of a choice a student cannot pick by typing its text"
sed 's/      choices = {"p1", "p2"},/      choices = {"p1", "p2", "either"}, correct = 2,/' "$TMP/lines.lua" >"$TMP/l7.lua"
"$HETCAST" lesson "$TMP/l7.lua" --print >/dev/null 2>"$TMP/err"
[ $? -eq 0 ] && grep -qx "hetcast lesson: $TMP/l7.lua:8: warning: slide 2: choices: C \"either\" is no node of the cluster, so a pick of it is not played (shown where it leads) as the picks of nodes are" "$TMP/err" &&
    [ "$(wc -l <"$TMP/err")" -eq 1 ]
ok $? "--print warns of a choice beside node names that the view will not play"
mkdir -p "$TMP/a dir" && cp clusters/counterexample.csv lua/lookahead.lua "$TMP/a dir/"
printf 'return {title = "t", slides = {{title = "h", cluster = "counterexample.csv", schedulers = "lookahead.lua"}}}\n' >"$TMP/a dir/h.lua"
check=$(cd "$TMP" && "$HETCAST" lesson "a dir/h.lua" --print | sed -n 's/^check: hetcast \(.*\) => .*/\1/p')
[ "$check" = "compare 'a dir/counterexample.csv' -s 'a dir/lookahead.lua'" ] &&
    (cd "$TMP" && eval "\"\$HETCAST\" $check" >/dev/null)
ok $? "the check line names the lesson's heuristic by a path that reruns: $check"

echo "1..$n"
[ "$failed" -eq 0 ]
