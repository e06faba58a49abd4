#!/bin/sh
# layering.sh - the rules of the house (docs/layout.md), checked on the
# source with grep (TAP):
#   src/ is one folder a layer, bottom up: support, model, engine, sched,
#     session, output; a file includes hetcast headers of its own folder and
#     of the folders below it, never above (support: none but its own);
#   no include circle between modules (a module: NAME.c with NAME.h; a fast
#     twin NAME_fast belongs to NAME, whose readable path it replaces, and
#     engine_lean to engine: each pair is one module in two files);
#   ui/ includes any of src/ but nothing of app/; app/study/ and app/mpi/ are
#     front doors of their own: nothing outside them includes them;
#   curses only in ui/, MPI only in app/mpi/, SimGrid only in its helper
#     (app/simgrid_helper.c);
#   src/ (libhetcast) never prints to stdout or stderr and never exits, but
#     for diag_fatal in support/diag.c (out of memory): it writes only to a
#     FILE * it is handed, and hands its messages back (struct diag, char **cause);
#   ui/ (the view) reaches the core through the session layer: no cli_
#     function, no dup2 of a descriptor;
#   app/ (the front doors) is the only place with main();
#   no source path is compiled into the program (app/datadir.c finds the data).
# Then the same rules on copies of the tree with a violation planted in each:
# every planted one must be caught.
# Run from the source root (meson sets workdir), or give it: layering.sh DIR.
set -u
cd "${1:-.}" || exit 1
ROOT=$(pwd)
n=0
fails=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
LAYERS="support model engine sched session output"

# report NAME FILE: ok when FILE (the offending lines) is empty
report() {
    n=$((n + 1))
    if [ -s "$2" ]; then
        echo "not ok $n - $1"
        sed 's/^/# /' "$2"
        fails=$((fails + 1))
    else
        echo "ok $n - $1"
    fi
}

# Comments do not count: strip /* ... */ and // ... before looking.
strip() { sed -e 's#/\*.*\*/##g' -e 's#//.*$##' "$1" | awk -v f="$1" '
    /\/\*/ { inc = 1; sub(/\/\*.*/, "") ; if ($0 != "") print f ":" NR ": " $0; next }
    inc && /\*\// { inc = 0; next }
    inc { next }
    { print f ":" NR ": " $0 }'; }

# includes DIR: "file:line: included" for every #include "..." below DIR
includes() {
    find "$1" -name '*.[ch]' | sort | while read -r f; do
        strip "$f" | sed -n 's/^\([^:]*:[0-9]*\): *# *include *"\([^"]*\)".*/\1: \2/p'
    done
}

# rules DIR OUT: check the rules on the tree DIR, one "name<TAB>offending
# file" line a rule in OUT (the file empty when the rule holds)
rules() {
    d=$1 out=$2 w=$(mktemp -d "$T/w.XXXXXX")
    (
    cd "$d" || exit 1
    includes src >"$w/inc.src"
    includes ui >"$w/inc.ui"
    includes app >"$w/inc.app"

    # a layer's files include their own folder and the folders below
    below=""
    : >"$w/up"
    for layer in $LAYERS; do
        allowed="$below $layer"
        grep "^src/$layer/" "$w/inc.src" | while read -r where inc; do
            case "$inc" in
                config.h) continue ;;
            esac
            top=${inc%%/*}
            ok=no
            for a in $allowed; do [ "$top" = "$a" ] && ok=yes; done
            [ "$ok" = yes ] || echo "$where includes $inc: above $layer or outside src/"
        done >>"$w/up"
        below="$allowed"
    done
    printf 'a file of src/ includes only its folder and the folders below it (%s)\t%s\n' \
        "$(echo $LAYERS | sed 's/ / < /g')" "$w/up" >"$out"

    grep -E ': app/' "$w/inc.ui" >"$w/uiapp"
    printf 'ui/ includes nothing of app/\t%s\n' "$w/uiapp" >>"$out"

    grep -E ': app/mpi/' "$w/inc.app" "$w/inc.ui" "$w/inc.src" |
        sed 's/^[^:]*:\([^:]*:[0-9]*\)/\1/' |
        awk '{ f = $1; sub(/:[0-9]*:$/, "", f); split($2, t, "/");
               if (index(f, "app/" t[2] "/") != 1) print }' >"$w/study"
    printf 'app/mpi/ is included from app/mpi/ only\t%s\n' "$w/study" >>"$out"

    # curses, MPI and SimGrid headers, each in its one place
    find src ui app tests -name '*.[ch]' | sort | while read -r f; do strip "$f"; done >"$w/all"
    grep -E '# *include *<(n?curses|ncursesw/|term\.h)' "$w/all" | grep -v '^ui/' >"$w/curses"
    printf 'curses only in ui/\t%s\n' "$w/curses" >>"$out"
    grep -E '# *include *<mpi\.h>' "$w/all" | grep -v '^app/mpi/' >"$w/mpi"
    printf 'MPI only in app/mpi/\t%s\n' "$w/mpi" >>"$out"
    grep -E '# *include *<(simgrid|xbt)/' "$w/all" | grep -v '^app/simgrid_helper\.c:' >"$w/sg"
    printf 'SimGrid only in app/simgrid_helper.c\t%s\n' "$w/sg" >>"$out"

    # circles: a module is a path without .c/.h; the engine's pair is one
    cat "$w/inc.src" "$w/inc.ui" "$w/inc.app" | awk '
        { f = $1; sub(/:[0-9]*:$/, "", f); sub(/\.[ch]$/, "", f); sub(/^src\//, "", f)
          t = $2; sub(/\.h$/, "", t)
          sub(/engine\/engine_lean$/, "engine/engine", f); sub(/engine\/engine_lean$/, "engine/engine", t)
          sub(/_fast$/, "", f); sub(/_fast$/, "", t)
          if (f != t) print f, t }' | sort -u >"$w/edges"
    : >"$w/loops"
    if ! tsort "$w/edges" >/dev/null 2>"$w/tsort"; then
        grep -v 'input contains a loop' "$w/tsort" | sed 's/^tsort: //' >"$w/loops"
        [ -s "$w/loops" ] || echo "tsort found a loop" >"$w/loops"
    fi
    printf 'no include circle between modules (a fast twin and engine_lean count with their module)\t%s\n' "$w/loops" >>"$out"

    # the old rules
    find src -name '*.[ch]' | sort | while read -r f; do strip "$f"; done >"$w/src"
    find ui -name '*.[ch]' | sort | while read -r f; do strip "$f"; done >"$w/ui"
    grep -E '(^|[^a-z_])(printf|puts|putchar|perror|exit|abort)[[:space:]]*\(|f(printf|puts|putc|write)[[:space:]]*\([^;]*(stdout|stderr)|vfprintf[[:space:]]*\((stdout|stderr)' "$w/src" |
        grep -v -E '(snprintf|vsnprintf|asprintf)[[:space:]]*\(' |
        grep -v -E '^src/support/diag\.c:[0-9]+: *(fputs\([^;]*stderr\);|exit\(1\);)$' >"$w/print"
    printf 'src/ never prints to stdout/stderr and never exits (but diag_fatal)\t%s\n' "$w/print" >>"$out"

    grep -E '^src/support/diag\.c:[0-9]+: *(fputs\([^;]*stderr\);|exit\(1\);)$' "$w/src" |
        awk -F: '{ print $2 }' >"$w/lines"
    first=$(grep -n "_Noreturn void diag_fatal" src/support/diag.c | cut -d: -f1)
    first=${first:-0}
    : >"$w/fatal"
    while read -r l; do
        [ "$l" -gt "$first" ] && [ "$l" -lt $((first + 8)) ] || echo "src/support/diag.c:$l: outside diag_fatal" >>"$w/fatal"
    done <"$w/lines"
    printf 'support/diag.c prints and exits only inside diag_fatal\t%s\n' "$w/fatal" >>"$out"

    grep -E '# *include[[:space:]]*"app/' "$w/src" >"$w/door"
    printf "src/ includes no front door's header\t%s\n" "$w/door" >>"$out"

    grep -E '(^|[^a-z_])cli_[a-z_]+[[:space:]]*\(|struct cli_opts' "$w/ui" >"$w/cli"
    printf 'ui/ calls no cli_ function (it uses the session layer)\t%s\n' "$w/cli" >>"$out"

    grep -E '(^|[^a-z_])dup2?[[:space:]]*\(' "$w/ui" >"$w/dup"
    printf 'ui/ redirects no descriptor (no dup, no dup2)\t%s\n' "$w/dup" >>"$out"

    find src ui -name '*.c' | sort | xargs grep -l -E '(^|[[:space:]])int[[:space:]]+main[[:space:]]*\(' >"$w/main" 2>/dev/null
    printf 'main() lives in app/ only\t%s\n' "$w/main" >>"$out"

    find src app ui -name '*.[ch]' | sort | xargs grep -n 'HETCAST_SRCLUADIR' >"$w/path"
    printf 'no source path in the program (HETCAST_SRCLUADIR is for tests only)\t%s\n' "$w/path" >>"$out"
    )
}

rules . "$T/here"
while IFS='	' read -r name file; do
    report "$name" "$file"
done <"$T/here"

# plant NAME FILE LINE: a copy of the tree with LINE added at the top of
# FILE; the rules must fail on it (the named rule among them)
plant() {
    p=$(mktemp -d "$T/p.XXXXXX")
    cp -R src ui app tests "$p/" 2>/dev/null
    { printf '%s\n' "$3"; cat "$p/$2"; } >"$p/$2.new" && mv "$p/$2.new" "$p/$2"
    rules "$p" "$p/out"
    : >"$T/caught"
    while IFS='	' read -r name file; do
        [ "$name" = "$1" ] && [ -s "$file" ] && echo "$name" >>"$T/caught"
    done <"$p/out"
    n=$((n + 1))
    if [ -s "$T/caught" ]; then
        echo "ok $n - a planted violation is caught: $3 in $2"
    else
        echo "not ok $n - a planted violation is not caught: $3 in $2"
        fails=$((fails + 1))
    fi
    rm -rf "$p"
}
up=$(sed -n 1p "$T/here" | cut -f1)
plant "$up" src/model/cluster.c '#include "session/session.h"'
plant "$up" src/support/heap.c '#include "model/cluster.h"'
plant "$up" src/engine/bounds.c '#include "output/report.h"'
plant "ui/ includes nothing of app/" ui/draw.c '#include "app/cli.h"'
plant "curses only in ui/" src/session/run.c '#include <curses.h>'
plant "MPI only in app/mpi/" app/cli.c '#include <mpi.h>'
plant "no include circle between modules (a fast twin and engine_lean count with their module)" src/support/diag.h '#include "support/atomic.h"'
plant "app/mpi/ is included from app/mpi/ only" app/cli.c '#include "app/mpi/common.h"'

echo "1..$n"
[ "$fails" -eq 0 ]
