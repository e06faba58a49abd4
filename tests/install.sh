#!/bin/sh
# install.sh - hetcast as a packager installs it (TAP): `meson install` into
# a temporary DESTDIR, then the installed program alone, with the source tree
# out of reach (a private mount namespace hides it where unshare is allowed;
# elsewhere the program is checked to carry no source path): the view's
# default cluster, a bundled Lua heuristic by bare name, the manual pages,
# LICENSE and the bash completion.  $BUILDDIR is the build, $SRCDIR the source root.
set -u
T=$(mktemp -d)
trap 'tmux -L hetcast-install kill-server 2>/dev/null; rm -rf "$T"' EXIT
n=0
fails=0
ok() { n=$((n + 1)); if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fails=$((fails + 1)); fi; }
skip() { n=$((n + 1)); echo "ok $n - # SKIP $1"; }

meson install -C "$BUILDDIR" --no-rebuild --strip --destdir "$T/dest" >"$T/log" 2>&1
ok $? "meson install into a DESTDIR"
bin=$(find "$T/dest" -path '*/bin/hetcast' -type f | head -n 1)
data=$(find "$T/dest" -path '*/share/hetcast' -type d | head -n 1)
[ -n "$bin" ] && [ -x "$bin" ] && [ -f "$data/clusters/counterexample.csv" ] && [ -f "$data/lua/fnf.lua" ]
ok $? "the program, the clusters and the Lua heuristics are installed"
! grep -q -F "$SRCDIR" "$bin" && ! grep -q -F "$BUILDDIR" "$bin"
ok $? "the installed program carries no source or build path"
[ ! -e "$(dirname "$bin")/hetcast-uninstalled" ]
ok $? "no hetcast-uninstalled marker beside the installed program"

# Run the installed program with the source tree hidden where we may.
hide=""
case $BUILDDIR in "$SRCDIR"/*) builddir_too="" ;; *) builddir_too="$BUILDDIR" ;; esac
if unshare -m true 2>/dev/null; then
    cat >"$T/hide.sh" <<HIDE
mount -t tmpfs none "$SRCDIR" || exit 99
[ -z "$builddir_too" ] || mount -t tmpfs none "$builddir_too" || exit 99
exec "\$@"
HIDE
    hide="unshare -m sh $T/hide.sh"
fi
inst() { (cd / && eval "$hide" '"$@"'); }
if [ -n "$hide" ]; then
    inst sh -c "[ ! -e '$SRCDIR/meson.build' ]"
    ok $? "the source tree is out of reach (a private mount namespace)"
else
    skip "no private mount namespace here: the path check above stands in"
fi

inst "$bin" run "$data/clusters/counterexample.csv" -s fnf.lua --summary >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 0 ] && grep -q '^makespan *6$' "$T/out" && grep -q 'scheduler: fnf.lua' "$T/out"
ok $? "-s fnf.lua found among the installed heuristics (makespan 6)"

if [ -x "$BUILDDIR/hetcast-simgrid" ]; then
    cp tests/data/simgrid-ring.xml "$T/ring.xml"
    inst "$bin" run "$T/ring.xml" --summary >"$T/out" 2>"$T/err"
    [ $? -eq 0 ] && grep -q '^makespan' "$T/out"
    ok $? "a SimGrid platform loads through the installed helper (libexec/hetcast/hetcast-simgrid)"
    ! ldd "$bin" 2>/dev/null | grep -q simgrid
    ok $? "the program itself does not link SimGrid (only the helper does)"
else
    skip "built without SimGrid"
fi

if [ -x "$BUILDDIR/hetcast-mpi" ]; then
    mbin=$(dirname "$bin")/hetcast-mpi
    [ -x "$mbin" ] && inst "$mbin" --version 2>/dev/null | grep -q '^hetcast-mpi '
    ok $? "hetcast-mpi is installed beside hetcast and runs"
    ! grep -q -F "$SRCDIR" "$mbin" && ! grep -q -F "$BUILDDIR" "$mbin"
    ok $? "hetcast-mpi carries no source or build path"
    mpage=$(find "$T/dest" -path '*/man1/hetcast-mpi.1' | head -n 1)
    [ -n "$mpage" ] && MANWIDTH=80 man -l "$mpage" 2>/dev/null | grep -q '^EXIT STATUS' && MANWIDTH=80 man -l "$mpage" 2>/dev/null | grep -q 'hetcast-mpi exec'
    ok $? "hetcast-mpi's manual page is installed and renders"
else
    skip "built without MPI: no hetcast-mpi"
fi

inst "$bin" </dev/null >"$T/out" 2>"$T/err"
grep -q 'needs a terminal' "$T/err" && ! grep -q 'cannot open' "$T/err"
ok $? "no FILE: the installed default cluster loads (then the view asks for a terminal)"

if command -v tmux >/dev/null 2>&1; then
    tmux -L hetcast-install new-session -d -x 80 -y 24 "cd / && $hide $bin" 2>/dev/null
    shown=1
    for i in 1 2 3 4 5 6 7 8 9 10; do
        sleep 0.3
        if tmux -L hetcast-install capture-pane -p >"$T/screen" 2>/dev/null &&
            grep -q 'p2' "$T/screen" && grep -q 'counterexample' "$T/screen"; then
            shown=0
            break
        fi
    done
    tmux -L hetcast-install send-keys q 2>/dev/null
    ok $shown "the view with no FILE shows the installed counterexample (tmux)"
else
    skip "tmux is not installed"
fi

page=$(find "$T/dest" -path '*/man1/hetcast.1' | head -n 1)
if [ -z "$page" ]; then
    n=$((n + 1)); echo "not ok $n - the manual page is installed (help2man missing at build?)"; fails=$((fails + 1))
else
    MANWIDTH=80 man -l "$page" >"$T/man" 2>/dev/null
    grep -q 'hetcast run FILE' "$T/man" && grep -q 'HETCAST_DATADIR' "$T/man"
    ok $? "man -l renders the installed page (commands, environment)"
    # help2man runs a line of the help into the one before it unless a blank line parts them
    MANWIDTH=250 man -l "$page" >"$T/man-wide" 2>/dev/null   # a paragraph on one line
    ! grep -q 'one-port-uni *exchanges' "$T/man-wide" && ! grep -q 'starts *with *-\. *keys' "$T/man-wide"
    ok $? "the manual page keeps the help's paragraphs apart (models / exchanges, options / keys)"
    ! grep -q '^ *--svg-parts P  *--format' "$T/man" && grep -q '^ *--svg-parts P$' "$T/man"
    ok $? "the manual page sets each option on its line, its help under it"
    grep -q '^KEYS IN THE VIEW' "$T/man" && grep -q 'find a node (/; n next, N previous)' "$T/man"
    ok $? "the manual page lists the view's keys"
    grep -q 'GPL-3.0-or-later' "$T/man"
    ok $? "the manual page names the licence (from --version)"
fi
"$bin" --help | grep -q 'man hetcast'
ok $? "hetcast --help names the manual page"

lic=$(find "$T/dest" -path '*/share/doc/hetcast/LICENSE' | head -n 1)
[ -n "$lic" ] && cmp -s "$lic" "$SRCDIR/LICENSE"
ok $? "LICENSE is installed (share/doc/hetcast/LICENSE)"

comp=$(find "$T/dest" -path '*/bash-completion/completions/hetcast' | head -n 1)
if [ -z "$comp" ] || ! command -v bash >/dev/null 2>&1; then
    n=$((n + 1)); echo "not ok $n - bash completion installed"; fails=$((fails + 1))
else
    got=$(cd "$data" && bash -c '. "$1"; COMP_WORDS=("$2" run clusters/c); COMP_CWORD=2; _hetcast; printf "%s\n" "${COMPREPLY[@]}"' sh "$comp" "$bin")
    echo "$got" | grep -q '^clusters/counterexample.csv$' && ! echo "$got" | grep -q -v '\.csv$\|\.lua$\|\.xml$\|/$'
    ok $? "completion: hetcast run clusters/c<TAB> gives cluster files"
    got=$(bash -c '. "$1"; COMP_WORDS=("$2" run x.csv -s ""); COMP_CWORD=4; _hetcast; printf "%s\n" "${COMPREPLY[@]}"' sh "$comp" "$bin")
    echo "$got" | grep -q '^fnf$' && echo "$got" | grep -q '^optimal$' && echo "$got" | grep -q '^slowest-first$'
    ok $? "completion: -s <TAB> gives the schedulers"
    got=$(bash -c '. "$1"; COMP_WORDS=("$2" run x.csv -m s); COMP_CWORD=4; _hetcast; printf "%s\n" "${COMPREPLY[@]}"' sh "$comp" "$bin")
    [ "$(echo "$got" | sort | tr '\n' ' ')" = "sender-only sync " ]
    ok $? "completion: -m s<TAB> gives sender-only and sync"
fi

echo "1..$n"
[ "$fails" -eq 0 ]
