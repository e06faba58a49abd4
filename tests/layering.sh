#!/bin/sh
# layering.sh - the rules of the house (docs/layout.md), checked on the
# source with grep (TAP):
#   src/ (libhetcast) never prints to stdout or stderr and never exits, but
#     for diag_fatal in support/diag.c (out of memory): it writes only to a FILE * it
#     is handed, and hands its messages back (struct diag, char **cause);
#   src/ never includes curses and never includes a front door's header;
#   ui/ (the view) reaches the core through the session layer: no cli_
#     function, no dup2 of a descriptor;
#   app/ (the front doors) is the only place with main();
#   no source path is compiled into the program (app/datadir.c finds the data).
# Run from the source root (meson sets workdir), or give it: layering.sh DIR.
set -u
cd "${1:-.}" || exit 1
n=0
fails=0
# check NAME FILE: ok when FILE (the offending lines) is empty
check() {
    n=$((n + 1))
    if [ -s "$2" ]; then
        echo "not ok $n - $1"
        sed 's/^/# /' "$2"
        fails=$((fails + 1))
    else
        echo "ok $n - $1"
    fi
}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# Comments do not count: strip /* ... */ and // ... before looking.
strip() { sed -e 's#/\*.*\*/##g' -e 's#//.*$##' "$1" | awk -v f="$1" '
    /\/\*/ { inc = 1; sub(/\/\*.*/, "") ; if ($0 != "") print f ":" NR ": " $0; next }
    inc && /\*\// { inc = 0; next }
    inc { next }
    { print f ":" NR ": " $0 }'; }

find src -name "*.[ch]" | sort | while read -r f; do strip "$f"; done >"$T/src"
find ui -name "*.[ch]" | sort | while read -r f; do strip "$f"; done >"$T/ui"

grep -E '(^|[^a-z_])(printf|puts|putchar|perror|exit|abort)[[:space:]]*\(|f(printf|puts|putc|write)[[:space:]]*\([^;]*(stdout|stderr)|vfprintf[[:space:]]*\((stdout|stderr)' "$T/src" |
    grep -v -E '(snprintf|vsnprintf|asprintf)[[:space:]]*\(' |
    grep -v -E '^src/support/diag\.c:[0-9]+: *(fputs\([^;]*stderr\);|exit\(1\);)$' >"$T/bad"
check "src/ never prints to stdout/stderr and never exits (but diag_fatal)" "$T/bad"

grep -E '^src/support/diag\.c:[0-9]+: *(fputs\([^;]*stderr\);|exit\(1\);)$' "$T/src" >"$T/fatal"
awk -F: '{ print $2 }' "$T/fatal" >"$T/lines"
first=$(grep -n "_Noreturn void diag_fatal" src/support/diag.c | cut -d: -f1)
first=${first:-0}
: >"$T/bad"
while read -r l; do
    [ "$l" -gt "$first" ] && [ "$l" -lt $((first + 8)) ] || echo "src/support/diag.c:$l: outside diag_fatal" >>"$T/bad"
done <"$T/lines"
check "diag.c prints and exits only inside diag_fatal" "$T/bad"

grep -E 'include[[:space:]]*[<"](n?curses|ncursesw/|term\.h|app/)' "$T/src" >"$T/bad"
check "src/ includes neither curses nor a front door's header" "$T/bad"

grep -E '(^|[^a-z_])cli_[a-z_]+[[:space:]]*\(|struct cli_opts' "$T/ui" >"$T/bad"
check "ui/ calls no cli_ function (it uses the session layer)" "$T/bad"

grep -E '(^|[^a-z_])dup2?[[:space:]]*\(' "$T/ui" >"$T/bad"
check "ui/ redirects no descriptor (no dup, no dup2)" "$T/bad"

find src ui -name "*.c" | xargs grep -l -E '(^|[[:space:]])int[[:space:]]+main[[:space:]]*\(' >"$T/bad" 2>/dev/null
check "main() lives in app/ only" "$T/bad"

find src app ui -name "*.[ch]" | xargs grep -n HETCAST_SRCLUADIR >"$T/bad"
check "no source path in the program (HETCAST_SRCLUADIR is for tests only)" "$T/bad"

echo "1..$n"
[ "$fails" -eq 0 ]
