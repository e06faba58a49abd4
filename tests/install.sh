#!/bin/sh
# install.sh - hetcast as a packager installs it (TAP): `meson install` into
# a temporary DESTDIR, then the installed program alone, with the source tree
# out of reach (a private mount namespace hides it where unshare is allowed;
# elsewhere the program is checked to carry no source path): the view's
# default cluster, a bundled cluster, lesson and Lua heuristic by bare name,
# the manual pages and every EXAMPLE of theirs, the README's walk-through
# from the installed README, the docs, LICENSE, and the completion of bash,
# zsh and fish run by each shell's own completion system (a shell that is
# not installed is skipped).  $BUILDDIR is the build, $SRCDIR the source root.
set -u
T=$(mktemp -d)
trap 'tmux -L hetcast-install-$$ kill-server 2>/dev/null; tmux -L hetcast-install-zsh-$$ kill-server 2>/dev/null; rm -rf "$T"' EXIT
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
    tmux -L hetcast-install-$$ new-session -d -x 80 -y 24 "cd / && $hide $bin" 2>/dev/null
    shown=1
    for i in 1 2 3 4 5 6 7 8 9 10; do
        sleep 0.3
        if tmux -L hetcast-install-$$ capture-pane -p >"$T/screen" 2>/dev/null &&
            grep -q 'p2' "$T/screen" && grep -q 'counterexample' "$T/screen"; then
            shown=0
            break
        fi
    done
    tmux -L hetcast-install-$$ send-keys q 2>/dev/null
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

comp=$(find "$T/dest" -path '*/bash-completion/completions/hetcast.bash' | head -n 1)
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


# ---- bundled files by bare name, from an empty folder ----
bindir=$(dirname "$bin")
mkdir -p "$T/work/.git" "$T/work/sub"
inw() { (cd "$T/work" && eval "$hide" '"$@"'); }
inw "$bin" run counterexample.csv --summary >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && grep -q '^makespan *6$' "$T/out"
ok $? "hetcast run counterexample.csv: the installed cluster by its bare name"
inw "$bin" lesson fnf-loses --print >"$T/out" 2>"$T/err"
[ $? -eq 0 ] && grep -q '^# Why fastest-node-first loses' "$T/out" && grep -q 'makespan 6' "$T/out"
ok $? "hetcast lesson fnf-loses: the installed lesson by its bare name (its cluster found too)"
inw "$bin" run --list-clusters >"$T/out" 2>"$T/err" && inw "$bin" lesson --list >>"$T/out" 2>>"$T/err"
[ $? -eq 0 ] && grep -q '^  counterexample.csv ' "$T/out" && grep -q '^  fnf-loses.lua ' "$T/out"
ok $? "run --list-clusters and lesson --list list the installed ones"

# ---- the documentation ----
doc=$(find "$T/dest" -path '*/share/doc/hetcast' -type d | head -n 1)
[ -f "$doc/README.md" ] && [ -f "$doc/docs/cli.md" ] && [ -f "$doc/docs/lessons.md" ] &&
    [ "$(ls "$doc/docs" | wc -l)" -eq "$(ls "$SRCDIR"/docs/*.md | wc -l)" ]
ok $? "README.md and every docs/*.md are installed under share/doc/hetcast"

# ---- the README's walk-through, from the installed README ----
# Its sessions ($ hetcast ARGS, then what it prints; "..." leaves lines out,
# a line ending in "..." is the start of one) against the installed program.
awk '/^## A first walk-through/ { on = 1; next } /^## / { on = 0 } on' "$doc/README.md" >"$T/walk"
awk -v dir="$T" '
    /^```/ { inblock = !inblock; next }
    inblock && /^\$ hetcast / { k++; cmd = substr($0, 11); print cmd > (dir "/walk." k ".cmd"); printf "" > (dir "/walk." k ".want"); next }
    inblock && k { print >> (dir "/walk." k ".want") }
' "$T/walk"
walks=0
for cmdf in "$T"/walk.*.cmd; do
    [ -f "$cmdf" ] || continue
    want=${cmdf%.cmd}.want
    [ -s "$want" ] || continue   # the view or a lesson in it: shown, not run
    walks=$((walks + 1))
    eval "set -- $(cat "$cmdf")"
    inw "$bin" "$@" >"$T/got" 2>&1
    st=$?
    awk 'NR == FNR { want[++n] = $0; next }
         { while (i < n && want[i + 1] == "...") i++
           if (i < n) { w = want[i + 1]
               if (w ~ /\.\.\.$/) { pre = substr(w, 1, length(w) - 3); if (substr($0, 1, length(pre)) == pre) i++ }
               else if ($0 == w) i++ } }
         END { while (i < n && want[i + 1] == "...") i++; exit i < n }' "$want" "$T/got"
    [ $? -eq 0 ] && [ $st -eq 0 ]
    ok $? "README walk-through, installed: hetcast $(cat "$cmdf")"
done
[ "$walks" -ge 3 ]
ok $? "the README's walk-through has its sessions ($walks run)"

# ---- every EXAMPLE of the manual pages, as installed ----
# hetcast's in a folder of their own with the installed bin first on PATH; the
# bare `hetcast` (the view) is the tmux check above.
examples() {   # examples PAGE: the EXAMPLES lines, comments cut
    MANWIDTH=250 man -l "$1" 2>/dev/null |
        awk '/^EXAMPLES/ { on = 1; next } /^[A-Z]/ { on = 0 } on' |
        sed 's/^ *//; s/  *#.*$//' | grep -E '^(hetcast|mpirun|for) '
}
mkdir -p "$T/ex"
if [ -n "$page" ]; then
    examples "$page" >"$T/ex.list"
    nex=0
    while IFS= read -r line; do
        [ "$line" = hetcast ] && continue
        nex=$((nex + 1))
        (cd "$T/ex" && PATH="$bindir:$PATH" eval "$hide" sh -c "'set -e; $line'") </dev/null >"$T/out" 2>"$T/err"
        ok $? "man hetcast EXAMPLE, installed: $line"
    done <"$T/ex.list"
    [ "$nex" -ge 5 ]
    ok $? "man hetcast has its EXAMPLES ($nex run)"
fi
mpage=$(find "$T/dest" -path '*/man1/hetcast-mpi.1' | head -n 1)
if [ -n "$mpage" ] && command -v mpirun >/dev/null 2>&1; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1   # as root, and
    export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none   # above the cores
    examples "$mpage" >"$T/ex.list"
    while IFS= read -r line; do
        case $line in
            *--sizes*)   # a sweep of sizes measures for minutes
                skip "man hetcast-mpi EXAMPLE: $line: minutes of measurement (tests/mpi.sh measures sizes)"
                continue ;;
            *sweep.csv*)
                skip "man hetcast-mpi EXAMPLE: $line: needs the sweep above"
                continue ;;
        esac
        # calibrate measures: on a loaded machine its round trips may not split
        # into s + L + r, which it says with status 1 (docs/mpi.md): measured
        # again, up to three times, as tests/mpi.sh does
        attempt=1 note=""
        while :; do
            (cd "$T/ex" && PATH="$bindir:$PATH" eval "$hide" timeout 120 sh -c "'set -e; $line'") </dev/null >"$T/out" 2>"$T/err"
            rc=$?
            case $line in *calibrate*) ;; *) break ;; esac
            [ $rc -eq 1 ] && grep -q 'the measurement cannot be split into s + L + r' "$T/err" && [ $attempt -lt 3 ] || break
            attempt=$((attempt + 1)) note=" (measured $attempt times: the load's noise)"
        done
        ok $rc "man hetcast-mpi EXAMPLE, installed: $line$note"
        [ $rc -eq 0 ] || { echo "# status $rc; its output's end:"; tail -n 8 "$T/out" "$T/err" | sed 's/^/#   /'; }
    done <"$T/ex.list"
else
    skip "hetcast-mpi's EXAMPLES: built without MPI, or mpirun is not installed"
fi

# ---- completion: bash, zsh and fish, each by its own completion system ----
bashc=$(find "$T/dest" -path '*/bash-completion/completions/hetcast.bash' | head -n 1)
zshc=$(find "$T/dest" -path '*/zsh/site-functions/_hetcast' | head -n 1)
fishc=$(find "$T/dest" -path '*/fish/vendor_completions.d/hetcast.fish' | head -n 1)
[ -n "$bashc" ] && [ -n "$zshc" ] && [ -n "$fishc" ]
ok $? "completion installed for bash, zsh and fish"
share=$(dirname "$(dirname "$(dirname "$bashc")")")   # PREFIX/share in the DESTDIR
# comp SHELL LINE: what the shell offers for LINE (the cursor at its end), one a line
comp() {
    case $1 in
    bash) # bash-completion's loader finds the installed file by the command's name
        (cd "$T/work" && PATH="$bindir:$PATH" XDG_DATA_DIRS="$share:/usr/share" bash -c '
            . /usr/share/bash-completion/bash_completion 2>/dev/null || exit 1
            read -ra COMP_WORDS <<<"$0"; case $0 in *" ") COMP_WORDS+=("") ;; esac
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE=$0; COMP_POINT=${#0}
            _completion_loader "${COMP_WORDS[0]}" 2>/dev/null
            fn=$(complete -p "${COMP_WORDS[0]}" 2>/dev/null | sed -n "s/.*-F \([^ ]*\).*/\1/p")
            [ -n "$fn" ] || exit 1
            "$fn" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf "%s\n" "${COMPREPLY[@]}"' "$2") ;;
    fish) # fish autoloads the file by the command's name from its completion path
        (cd "$T/work" && PATH="$bindir:$PATH" fish -c 'set -p fish_complete_path $argv[1]; complete -C $argv[2]' \
            "$(dirname "$fishc")" "$2" | cut -f1) ;;
    zsh) zsh_comp "$2" ;;
    esac
}
# zsh's completion system needs its line editor: a zsh in tmux, TAB twice, the screen read
zsh_comp() {
    mkdir -p "$T/zdot"
    cat >"$T/zdot/.zshrc" <<ZRC
fpath=($(dirname "$zshc") \$fpath)
path=($bindir \$path)
autoload -U compinit; compinit -u -d $T/zdot/.zcompdump
zstyle ':completion:*' list-rows-first true
PROMPT='> '
ZRC
    tmux -L hetcast-install-zsh-$$ kill-server 2>/dev/null
    tmux -L hetcast-install-zsh-$$ new-session -d -x 200 -y 40 "cd $T/work && ZDOTDIR=$T/zdot zsh -i"
    # every wait polls, up to 20 s times HETCAST_TIMEOUT_MULTIPLIER (a loaded machine);
    # the prompt is "> ", which capture-pane shows without its trailing blank
    polls=$((100 * ${HETCAST_TIMEOUT_MULTIPLIER:-1}))
    i=0
    while [ $i -lt $polls ]; do
        tmux -L hetcast-install-zsh-$$ capture-pane -p 2>/dev/null | grep -q '^>' && break
        sleep 0.2; i=$((i + 1))
    done
    tmux -L hetcast-install-zsh-$$ send-keys -l "$1"
    tmux -L hetcast-install-zsh-$$ send-keys Tab
    sleep 0.5
    tmux -L hetcast-install-zsh-$$ send-keys Tab
    # the completion is there once the screen holds more than what was typed
    # (a listing, or the word completed on the line) and stays the same over two polls
    prev="" i=0
    while [ $i -lt $polls ]; do
        sleep 0.2; i=$((i + 1))
        cur=$(tmux -L hetcast-install-zsh-$$ capture-pane -p 2>/dev/null | grep -v '^ *$')
        [ "$cur" != "> $1" ] && [ "$cur" = "$prev" ] && break
        prev=$cur
    done
    tmux -L hetcast-install-zsh-$$ capture-pane -p | tr -s ' ' '\n' | grep -v '^>\?$'
    tmux -L hetcast-install-zsh-$$ kill-server 2>/dev/null
}
for sh in bash zsh fish; do
    if ! command -v $sh >/dev/null 2>&1; then
        skip "$sh completion: $sh is not installed"
        continue
    fi
    comp $sh "hetcast lesson fnf-l" >"$T/c"
    grep -q '^fnf-loses$' "$T/c"
    ok $? "$sh: hetcast lesson fnf-l<TAB> gives the installed lesson fnf-loses"
    comp $sh "hetcast lesson --s" >"$T/c"
    grep -q '^--student$' "$T/c"
    ok $? "$sh: hetcast lesson --s<TAB> gives lesson's --student"
    comp $sh "hetcast class report --ta" >"$T/c"
    grep -q '^--table$' "$T/c"
    ok $? "$sh: hetcast class report --ta<TAB> gives --table"
    comp $sh "hetcast run x.csv -m one-p" >"$T/c"
    grep -q '^one-port$' "$T/c" && grep -q '^one-port-uni$' "$T/c" && ! grep -q '^sync$' "$T/c"
    ok $? "$sh: hetcast run x.csv -m one-p<TAB> gives one-port and one-port-uni"
    comp $sh "hetcast run " >"$T/c"
    grep -q '^counterexample.csv$' "$T/c" && grep -q '^sub/\?$' "$T/c" && ! grep -q '\.git' "$T/c"
    ok $? "$sh: hetcast run <TAB>: the bundled clusters and folders, not .git/"
    if [ -x "$bindir/hetcast-mpi" ]; then
        comp $sh "hetcast-mpi exec counterexample.csv --emu" >"$T/c"
        grep -q '^--emulate$' "$T/c"
        ok $? "$sh: hetcast-mpi exec counterexample.csv --emu<TAB> gives --emulate"
    fi
done

echo "1..$n"
[ "$fails" -eq 0 ]
