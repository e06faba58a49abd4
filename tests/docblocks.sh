#!/bin/sh
# docblocks.sh - the example outputs of the docs are the binary's (TAP).
# A fenced block right after a line
#     <!-- output of: hetcast ARGS -->
# must be exactly what `hetcast ARGS` prints; after
#     <!-- excerpt of: hetcast ARGS -->
# every line of the block must come out of `hetcast ARGS`, in the same order
# (lines of the output may be left out between them).  Every marked block of
# README.md and docs/*.md is checked; the commands run from the source root.
. tests/tap.sh

for doc in README.md docs/*.md; do
    # each marker: its kind, the command and the block, one record per file
    awk -v dir="$T" -v doc="$(basename "$doc")" '
        /^<!-- (output|excerpt) of: hetcast .* -->$/ {
            kind = ($2 == "output") ? "output" : "excerpt"
            cmd = $0; sub(/^<!-- (output|excerpt) of: hetcast /, "", cmd); sub(/ -->$/, "", cmd)
            want = 1; next
        }
        want && /^```/ { k++; base = dir "/" doc "." k; print kind > (base ".kind"); print cmd > (base ".cmd");
                         printf "" > (base ".block"); inblock = 1; want = 0; next }
        inblock && /^```/ { inblock = 0; next }
        inblock { print > (base ".block") }
        want && !/^[[:space:]]*$/ { want = 0 }
    ' "$doc"
done
for kind in "$T"/*.kind; do
    [ -e "$kind" ] || continue
    base=${kind%.kind}
    name=$(basename "$base")
    cmd=$(cat "$base.cmd")
    # the arguments are words without quotes (the markers are written so)
    # shellcheck disable=SC2086
    "$H" $cmd >"$base.out" 2>/dev/null
    if [ "$(cat "$kind")" = output ]; then
        if cmp -s "$base.block" "$base.out"; then
            check "${name%.*}: the block after 'output of: hetcast $cmd' is its output" true
        else
            diff "$base.block" "$base.out" | head -10 | sed 's/^/# /'
            check "${name%.*}: the block after 'output of: hetcast $cmd' is its output" false
        fi
    else
        # every block line, in order, among the output's lines
        if awk 'NR == FNR { want[++n] = $0; next } i < n && $0 == want[i + 1] { i++ } END { exit i == n ? 0 : 1 }' \
            "$base.block" "$base.out"; then
            check "${name%.*}: every line after 'excerpt of: hetcast $cmd' comes out of it, in order" true
        else
            awk 'NR == FNR { want[++n] = $0; next } i < n && $0 == want[i + 1] { i++ } END { print "# first line not found: " want[i + 1] }' \
                "$base.block" "$base.out"
            check "${name%.*}: every line after 'excerpt of: hetcast $cmd' comes out of it, in order" false
        fi
    fi
done
check "at least one marked block" sh -c "ls '$T'/*.kind >/dev/null 2>&1"
done_testing
