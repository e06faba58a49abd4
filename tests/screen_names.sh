#!/bin/sh
# screen_names.sh - no file of ui/ names another screen's functions
# (docs/layout.md, the view): a function or a `const struct screen`
# defined in ui/screen_NAME.c is named by no other .c file of ui/ but
# ui/screens.c, the table of the screens (the others open a screen by its
# id and reach it through its hooks).  Comments and #include lines (a
# screen's header, for the values passed when it opens) do not count.  Then the
# same check on copies of ui/ with a violation planted in one file: each
# must be caught (TAP).  Run from the source root, or give it: DIR.
set -u
cd "${1:-.}" || exit 1
n=0
fails=0
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# strip DIR: the .c files of DIR/ui without their comments, as DIR.s/FILE
strip() {
    mkdir -p "$1.s"
    for f in "$1"/ui/*.c; do
        awk '{ l = $0; gsub(/\/\*.*\*\//, "", l); sub(/\/\/.*$/, "", l)
               if (l ~ /\/\*/) { inc = 1; sub(/\/\*.*/, "", l); print l; next }
               if (inc && l ~ /\*\//) { inc = 0; print ""; next }
               if (inc) { print ""; next }
               if (l ~ /^# *include/) l = ""
               print l }' "$f" >"$1.s/$(basename "$f")"
    done
}

# check DIR: the lines of DIR that name another screen's definitions
check() {
    for s in "$1.s"/screen_*.c; do
        sed -n -E 's/^const struct screen ([a-z_0-9]+) =.*/\1/p;
                   /^(static|typedef|struct [a-z_]+ \{|enum)/d;
                   s/^[a-z][a-z_0-9 ]*[ *]([a-z_][a-z_0-9]*)\(.*/\1/p' "$s" | sort -u >"$T/names"
        [ -s "$T/names" ] || continue
        for f in "$1.s"/*.c; do
            case "$(basename "$f")" in "$(basename "$s")" | screens.c) continue ;; esac
            grep -n -w -F -f "$T/names" "$f" | sed "s|^|ui/$(basename "$f"):|;s|\$| (names ui/$(basename "$s")'s)|"
        done
    done
}

report() {
    n=$((n + 1))
    if [ "$2" = ok ]; then echo "ok $n - $1"; else echo "not ok $n - $1"; fails=$((fails + 1)); fi
}

mkdir -p "$T/here/ui"
cp ui/*.c "$T/here/ui/"
strip "$T/here"
check "$T/here" >"$T/found"
if [ -s "$T/found" ]; then
    report "no file of ui/ names another screen's functions (ui/screens.c lists the screens)" bad
    sed 's/^/# /' "$T/found"
else
    report "no file of ui/ names another screen's functions (ui/screens.c lists the screens)" ok
fi

# plant FILE LINE: LINE added to a copy of FILE must be caught
plant() {
    p="$T/p$n"
    mkdir -p "$p/ui"
    cp ui/*.c "$p/ui/"
    printf '%s\n' "$2" >>"$p/$1"
    strip "$p"
    if check "$p" | grep -q "^$1:"; then
        report "a planted violation is caught: $2 in $1" ok
    else
        report "a planted violation is caught: $2 in $1" bad
    fi
}
plant ui/view.c 'static int planted(struct view *v) { return exercise_of(v) != NULL; }'
plant ui/term.c 'static int planted(struct view *v) { return lesson_view_open_hooked(v, NULL, 0, NULL, NULL); }'
plant ui/draw.c 'static const struct screen *planted = &screen_help;'
plant ui/screen_facts.c 'static bool planted(const struct view *v) { return lesson_revealed(v); }'

echo "1..$n"
[ "$fails" -eq 0 ]
