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
# The tree is read once (one awk pass strips the comments of every file);
# the rules run on that reading.  Then the same rules on the reading with a
# violation planted in each (a line added to one file): every planted one
# must be caught.
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

# read DIR OUT: the tree DIR read once into the folder OUT: "all", every
# line of src/ ui/ app/ tests/ as "file:line: text" with the comments
# stripped (/* ... */ and // ... do not count); "src" and "ui", its lines of
# those folders; "inc.src", "inc.ui", "inc.app", "file:line: included" for
# each #include "..."; "main" and "path", the files and lines the last two
# rules look at (as grep finds them, comments and all).
read_tree() {
    (
    cd "$1" || exit 1
    find src ui app tests -name '*.[ch]' | sort >"$2/files"
    # shellcheck disable=SC2046
    awk '
        FNR == 1 { inc = 0 }
        { l = $0; gsub(/\/\*.*\*\//, "", l); sub(/\/\/.*$/, "", l)
          if (l ~ /\/\*/) { inc = 1; sub(/\/\*.*/, "", l); if (l != "") print FILENAME ":" FNR ": " l; next }
          if (inc && l ~ /\*\//) { inc = 0; next }
          if (inc) next
          print FILENAME ":" FNR ": " l }' $(cat "$2/files") >"$2/all"
    # shellcheck disable=SC2046
    grep -l -E '(^|[[:space:]])int[[:space:]]+main[[:space:]]*\(' $(grep -E '^(src|ui)/.*\.c$' "$2/files") >"$2/main" 2>/dev/null
    # shellcheck disable=SC2046
    grep -n 'HETCAST_SRCLUADIR' $(grep -E '^(src|app|ui)/' "$2/files") >"$2/path"
    )
    split_reading "$2"
}

# split_reading DIR: the per-folder lists of DIR/all
split_reading() {
    grep '^src/' "$1/all" >"$1/src"
    grep '^ui/' "$1/all" >"$1/ui"
    for top in src ui app; do
        sed -n "s/^\\($top\\/[^:]*:[0-9]*\\): *# *include *\"\\([^\"]*\\)\".*/\\1: \\2/p" "$1/all" >"$1/inc.$top"
    done
}

# rules DIR OUT: check the rules on the reading DIR (read_tree), one
# "name<TAB>offending lines" line a rule in OUT (the file empty when the
# rule holds)
rules() {
    w=$1 out=$2

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
    grep -E '(^|[^a-z_])(printf|puts|putchar|perror|exit|abort)[[:space:]]*\(|f(printf|puts|putc|write)[[:space:]]*\([^;]*(stdout|stderr)|vfprintf[[:space:]]*\((stdout|stderr)' "$w/src" |
        grep -v -E '(snprintf|vsnprintf|asprintf)[[:space:]]*\(' |
        grep -v -E '^src/support/diag\.c:[0-9]+: *(fputs\([^;]*stderr\);|exit\(1\);)$' >"$w/print"
    printf 'src/ never prints to stdout/stderr and never exits (but diag_fatal)\t%s\n' "$w/print" >>"$out"

    grep -E '^src/support/diag\.c:[0-9]+: *(fputs\([^;]*stderr\);|exit\(1\);)$' "$w/src" |
        awk -F: '{ print $2 }' >"$w/lines"
    first=$(grep '^src/support/diag\.c:[0-9]*: *_Noreturn void diag_fatal' "$w/src" | cut -d: -f2)
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

    printf 'main() lives in app/ only\t%s\n' "$w/main" >>"$out"
    printf 'no source path in the program (HETCAST_SRCLUADIR is for tests only)\t%s\n' "$w/path" >>"$out"
}

mkdir "$T/here"
read_tree "$ROOT" "$T/here"
rules "$T/here" "$T/here/out"
while IFS='	' read -r name file; do
    report "$name" "$file"
done <"$T/here/out"

# plant NAME FILE LINE: the reading of the tree with LINE added at the top of
# FILE (the file's own lines one further down); the rules must fail on it
# (the named rule among them)
plant() {
    p=$(mktemp -d "$T/p.XXXXXX")
    grep -q "^$2:" "$T/here/all" || { echo "# layering.sh: no $2 to plant in"; rm -rf "$p"; n=$((n + 1)); echo "not ok $n - $2 exists"; fails=$((fails + 1)); return; }
    cp "$T/here/main" "$T/here/path" "$p/"
    awk -v f="$2" -v l="$3" '
        index($0, f ":") == 1 && !done { print f ":1: " l; done = 1 }
        index($0, f ":") == 1 { c = index($0, ": "); split(substr($0, 1, c - 1), a, ":")
                                print f ":" a[2] + 1 substr($0, c); next }
        { print }' "$T/here/all" >"$p/all"
    split_reading "$p"
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
up=$(sed -n 1p "$T/here/out" | cut -f1)
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
