#!/bin/sh
# docblocks.sh - the example outputs of the docs are the binary's (TAP).
# A fenced block right after a line
#     <!-- output of: hetcast ARGS -->
# must be exactly what `hetcast ARGS` prints; after
#     <!-- excerpt of: hetcast ARGS -->
# every line of the block must come out of `hetcast ARGS`, in the same order
# (lines of the output may be left out between them).  Every marked block of
# README.md and docs/*.md is checked; the commands run from the source root.
# A block that shows a session -- lines `$ hetcast ARGS` or `$ ./build/hetcast
# ARGS`, each followed by what it prints -- is checked the same way as an
# excerpt of each command's output (standard output and error together): a
# line `...` stands for lines left out, and a line ending in `...` for the
# rest of a line.  A command with no lines after it (the view, a lesson) is
# not run.  A marked command must exit with status 0, and so must a session's
# command, unless what the session shows holds hetcast's error message (a
# line `hetcast: ...` or `hetcast COMMAND: ...`): then it must exit with
# status 2, a user mistake.
# A block after a line
#     <!-- run: WHY -->
# holds shell commands (the other tools' too: otf2-print, pj_dump, dot), run
# one a line in a fresh folder that links to the source's clusters/ and
# tests/, with `hetcast` the binary; each must exit with status 0 (a command
# whose program is not installed is skipped).  Blank lines and lines that
# start with `#` are not run.
# Every other fenced block needs a line
#     <!-- illustrative: WHY -->
# right before it (commands, file formats, Lua code, the view's screens,
# timings, other tools' output): a block that is neither checked nor marked
# so fails, and so does a marker with no block after it.
# docs/reproduction.md is generated whole and checked by tests/reproduce.sh.
. tests/tap.sh

# excerpt WANT OUT: every line of WANT, in order, among the lines of OUT
excerpt() {
    awk 'NR == FNR { want[++n] = $0; next }
         { while (i < n && want[i + 1] == "...") i++
           if (i < n) { w = want[i + 1]
               if (w ~ /\.\.\.$/) { pre = substr(w, 1, length(w) - 3); if (substr($0, 1, length(pre)) == pre) i++ }
               else if ($0 == w) i++ } }
         END { while (i < n && want[i + 1] == "...") i++
               if (i < n) { print "first line not found: " want[i + 1]; exit 1 } }' "$1" "$2"
}

for doc in README.md docs/*.md; do
    [ "$doc" = docs/reproduction.md ] && continue
    # every fenced block is checked (a marker before it, or a session with
    # lines to compare) or marked illustrative: the ones that are neither
    awk -v doc="$doc" -v q="'" '
        function flush() { if (!marked && !session) printf "%s:%d: a fenced block neither checked nor marked illustrative\n", doc, start }
        /^[[:space:]]*```/ {
            if (!inblock) { inblock = 1; start = FNR; marked = mark; session = 0; seg = 0; mark = 0 }
            else { inblock = 0; flush() }
            next
        }
        inblock && /^\$ (\.\/build\/)?hetcast( |$)/ { seg = ($0 !~ /[|><;&"]/ && index($0, q) == 0); next }
        inblock && /^\$ / { seg = 0; next }
        inblock { if (seg) session = 1; next }
        /^<!-- (output|excerpt) of: hetcast .* -->$/ || /^[[:space:]]*<!-- (illustrative|run): .+ -->$/ {
            if (mark) printf "%s:%d: a marker with no fenced block after it\n", doc, mline
            mark = 1; mline = FNR; next
        }
        /^[[:space:]]*<!-- (output of|excerpt of|illustrative)/ { printf "%s:%d: a malformed marker (<!-- illustrative: WHY -->, <!-- output of: hetcast ARGS -->)\n", doc, FNR; next }
        !/^[[:space:]]*$/ { if (mark) printf "%s:%d: a marker with no fenced block after it\n", doc, mline; mark = 0 }
        END { if (mark) printf "%s:%d: a marker with no fenced block after it\n", doc, mline
              if (inblock) printf "%s:%d: a fenced block that is not closed\n", doc, start }
    ' "$doc" >>"$T/unchecked"
    # each marker: its kind, the command and the block, one record per file
    awk -v dir="$T" -v doc="$(basename "$doc")" '
        /^<!-- (output|excerpt) of: hetcast .* -->$/ {
            kind = ($2 == "output") ? "output" : "excerpt"
            cmd = $0; sub(/^<!-- (output|excerpt) of: hetcast /, "", cmd); sub(/ -->$/, "", cmd)
            want = 1; next
        }
        /^<!-- run: .+ -->$/ { kind = "run"; want = 1; next }
        want && kind == "run" && /^```/ { k++; base = dir "/" doc "." k; printf "" > (base ".run");
                         inblock = 1; want = 0; next }
        want && /^```/ { k++; base = dir "/" doc "." k; print kind > (base ".kind"); print cmd > (base ".cmd");
                         printf "" > (base ".block"); inblock = 1; want = 0; next }
        inblock && /^```/ { inblock = 0; next }
        inblock && kind == "run" { print > (base ".run"); next }
        inblock { print > (base ".block") }
        want && !/^[[:space:]]*$/ { want = 0 }
    ' "$doc"
    # sessions: each `$ hetcast ...` line of a block and the lines after it
    awk -v dir="$T" -v doc="$(basename "$doc")" '
        /^```/ { if (inblock) { inblock = 0; seg = 0 } else { inblock = 1 }; next }
        inblock && /^\$ (\.\/build\/)?hetcast( |$)/ {
            cmd = $0; sub(/^\$ (\.\/build\/)?hetcast ?/, "", cmd)
            k++; base = dir "/" doc ".session" k
            print cmd > (base ".cmd"); printf "" > (base ".want"); seg = 1; next
        }
        inblock && /^\$ / { seg = 0; next }
        inblock && seg { print > (base ".want") }
    ' "$doc"
done
for cmdf in "$T"/*.session*.cmd; do
    [ -e "$cmdf" ] || continue
    base=${cmdf%.cmd}
    [ -s "$base.want" ] || continue   # nothing shown: not run
    cmd=$(cat "$cmdf")
    name=$(basename "$base")
    case $cmd in *[\|\>\<\;\&\"\']*) skip "${name%%.session*}: \$ hetcast $cmd" "a shell construct"; continue ;; esac
    status=0
    # shellcheck disable=SC2086
    "$H" $cmd >"$base.out" 2>&1 || status=$?
    # a session that shows hetcast's error message shows a user mistake: status 2
    want=0
    if grep -Eq '^hetcast( [a-z]+)?: ' "$base.want"; then want=2; fi
    if [ "$status" -ne "$want" ]; then
        check "${name%%.session*}: \$ hetcast $cmd exits with status $want (it exited with $status)" false
    elif excerpt "$base.want" "$base.out" >"$base.why"; then
        check "${name%%.session*}: what \$ hetcast $cmd shows is what it prints" true
    else
        sed 's/^/# /' "$base.why"
        check "${name%%.session*}: what \$ hetcast $cmd shows is what it prints" false
    fi
done
for kind in "$T"/*.kind; do
    [ -e "$kind" ] || continue
    base=${kind%.kind}
    name=$(basename "$base")
    cmd=$(cat "$base.cmd")
    # the arguments are words without quotes (the markers are written so)
    status=0
    # shellcheck disable=SC2086
    "$H" $cmd >"$base.out" 2>/dev/null || status=$?
    if [ "$status" -ne 0 ]; then
        check "${name%.*}: hetcast $cmd exits with status 0 (it exited with $status)" false
    elif [ "$(cat "$kind")" = output ]; then
        if cmp -s "$base.block" "$base.out"; then
            check "${name%.*}: the block after 'output of: hetcast $cmd' is its output" true
        else
            diff "$base.block" "$base.out" | head -10 | sed 's/^/# /'
            check "${name%.*}: the block after 'output of: hetcast $cmd' is its output" false
        fi
    else
        # every block line, in order, among the output's lines
        if excerpt "$base.block" "$base.out" >"$base.why"; then
            check "${name%.*}: every line after 'excerpt of: hetcast $cmd' comes out of it, in order" true
        else
            sed "s/^/# /" "$base.why"
            check "${name%.*}: every line after 'excerpt of: hetcast $cmd' comes out of it, in order" false
        fi
    fi
done
# the blocks of commands, each in a fresh folder with hetcast on the PATH
mkdir "$T/bin" && ln -s "$H" "$T/bin/hetcast"
for runf in "$T"/*.run; do
    [ -e "$runf" ] || continue
    base=${runf%.run}
    blk=$(basename "$base")   # not $name: check sets that
    mkdir "$base.dir" && ln -s "$PWD/clusters" "$PWD/tests" "$base.dir/"
    while IFS= read -r line; do
        case $line in ''|'#'*) continue ;; esac
        prog=${line%% *}
        if ! PATH="$T/bin:$PATH" command -v "$prog" >/dev/null 2>&1; then
            skip "${blk%.*}: \$ $line" "$prog not installed"
            continue
        fi
        (cd "$base.dir" && PATH="$T/bin:$PATH" sh -c "$line") >"$base.out" 2>&1
        status=$?
        [ "$status" -eq 0 ] || sed 's/^/# /' "$base.out" | head -5
        check "${blk%.*}: \$ $line exits with status 0 (it exited with $status)" test "$status" -eq 0
    done <"$runf"
done
check "at least one marked block" sh -c "ls '$T'/*.kind >/dev/null 2>&1"
sed 's/^/# /' "$T/unchecked"
check "every fenced block of README.md and docs/*.md is checked or marked illustrative" test ! -s "$T/unchecked"
done_testing
