#!/bin/sh
# tmux_lib.sh - what the tests that drive the real binary in tmux share
# (sourced by the ui_*.sh tests, practice.sh, class.sh and multicast_cli.sh): a private tmux
# server, a pane that runs hetcast and records its pid and exit status, TAP's
# ok, and waits that poll capture-pane every 20 ms with a timeout (no fixed
# sleeps), then let the screen settle.  The timeouts are multiplied by
# HETCAST_TIMEOUT_MULTIPLIER (a whole number, 1 by default; test.sh passes
# its --timeout-multiplier on) for a loaded machine.  HC_TERM sets the pane's TERM (xterm-256color by
# default), HC_CWD its working directory (where the view's exports land).
# HETCAST is the program (build/hetcast by default), made absolute.  A script
# that sources this is skipped whole (TAP's 1..0) where tmux is missing; one
# that prints checks before (class.sh, multicast_cli.sh) tests for tmux first.

HETCAST=${HETCAST:-build/hetcast}
case $HETCAST in /*) ;; *) HETCAST=$(pwd)/$HETCAST ;; esac
if ! command -v tmux >/dev/null 2>&1; then
    echo "1..0 # SKIP tmux is not installed"
    exit 0
fi

SOCK=hetcast-test-$$
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hetcast-ui.XXXXXX")
n=0
failed=0
MULT=${HETCAST_TIMEOUT_MULTIPLIER:-1}
case $MULT in ''|0|*[!0-9]*) MULT=1 ;; esac
# polls TENTHS: how many 20 ms polls make TENTHS tenths of a second (times MULT)
polls() { echo $(($1 * 5 * MULT)); }

tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
# The view we started, if it still runs (a failed test left it there), is
# killed outright: an ASan build that gets SIGHUP from a dying tmux can spin
# for ever in LeakSanitizer's exit check, with a helper process under it.
reap() {
    rp=$(cat "$TMP/pid" 2>/dev/null)
    [ -n "$rp" ] && [ "$(ps -o comm= -p "$rp" 2>/dev/null)" = hetcast ] || return 0
    kids=$(ps -o pid= --ppid "$rp" 2>/dev/null)
    # shellcheck disable=SC2086
    kill -KILL "$rp" $kids 2>/dev/null
}
# Every hetcast a test started in a pane of ours (students' hetcast join
# beside the view) is killed outright too, for the same reason.
reap_all() {
    for p in $(tm list-panes -a -F '#{pane_pid}' 2>/dev/null); do
        kids=$(ps -o pid= --ppid "$p" 2>/dev/null)
        for k in $kids; do
            [ "$(ps -o comm= -p "$k" 2>/dev/null)" = hetcast ] && kill -KILL "$k" $(ps -o pid= --ppid "$k" 2>/dev/null) 2>/dev/null
        done
    done
}
cleanup() { reap; reap_all; tm kill-server >/dev/null 2>&1; rm -rf "$TMP"; }
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

ok() {   # ok STATUS DESCRIPTION
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $n - $2"
    else
        echo "not ok $n - $2"
        failed=$((failed + 1))
        if [ -s "$TMP/screen" ]; then
            echo "# last screen:"
            sed 's/^/#   /' "$TMP/screen"
        fi
    fi
}

# The pane runs run.sh: it records hetcast's pid (exec keeps it), runs it with
# TERM=xterm-256color, then prints the exit status and the terminal settings.
# The shell catches SIGINT (so Ctrl-C does not end it too); hetcast, exec'd,
# starts with the default action and installs its own handler.
cat >"$TMP/run.sh" <<EOF
#!/bin/sh
trap : INT
ulimit -c 0   # the crash signals of ui_tmux.sh leave no core file
[ -n "\${HC_CWD:-}" ] && cd "\$HC_CWD"
sh -c 'echo \$\$ >"\$1"; shift; exec "\$@"' sh "$TMP/pid" env TERM=\${HC_TERM:-xterm-256color} LANG=C.UTF-8 "$HETCAST" "\$@"
echo "EXIT=\$?"
stty -a >"$TMP/stty" 2>&1
echo STTY-DONE
sleep 600
EOF

capture() { tm capture-pane -p -t hc >"$TMP/screen" 2>/dev/null; }

# settle: capture until two captures 20 ms apart agree, so that a check never
# reads a screen that hetcast is still drawing (a busy machine shows halves).
settle() {
    j=0
    while [ "$j" -lt 50 ]; do
        cp "$TMP/screen" "$TMP/settle"
        sleep 0.02
        capture
        cmp -s "$TMP/settle" "$TMP/screen" && return 0
        j=$((j + 1))
    done
}

wait_for() {   # wait_for TEXT [TENTHS]: poll the screen until TEXT shows up
    i=0 lim=$(polls "${2:-100}")
    while [ "$i" -lt "$lim" ]; do
        capture
        grep -qF -- "$1" "$TMP/screen" && { settle; return 0; }
        sleep 0.02
        i=$((i + 1))
    done
    echo "# timed out waiting for \"$1\""
    return 1
}

wait_all() {   # wait_all TEXT...: poll until every TEXT is on the screen at once
    i=0 lim=$(polls 100)
    while [ "$i" -lt "$lim" ]; do
        capture
        all=0
        for text in "$@"; do
            grep -qF -- "$text" "$TMP/screen" || { all=1; break; }
        done
        [ "$all" -eq 0 ] && { settle; return 0; }
        sleep 0.02
        i=$((i + 1))
    done
    echo "# timed out waiting for all of: $*"
    return 1
}

wait_same() {   # wait_same FILE [TENTHS]: poll until the screen is exactly FILE
    i=0 lim=$(polls "${2:-100}")
    while [ "$i" -lt "$lim" ]; do
        capture
        cmp -s "$1" "$TMP/screen" && return 0
        sleep 0.02
        i=$((i + 1))
    done
    diff "$1" "$TMP/screen" | sed 's/^/# /'
    return 1
}

wait_gone() {   # wait_gone TEXT [TENTHS]
    i=0 lim=$(polls "${2:-100}")
    while [ "$i" -lt "$lim" ]; do
        capture
        grep -qF -- "$1" "$TMP/screen" || { settle; return 0; }
        sleep 0.02
        i=$((i + 1))
    done
    echo "# timed out waiting for \"$1\" to go"
    return 1
}

start() {   # start W H [ENV=VALUE ...] -- HETCAST-ARGS...
    w=$1
    h=$2
    shift 2
    envs=""
    while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do
        envs="$envs $1"
        shift
    done
    [ "$1" = "--" ] && shift
    stop_server
    rm -f "$TMP/pid" "$TMP/stty" "$TMP/screen"
    tries=0
    until tm new-session -d -s hc -x "$w" -y "$h" "env$envs sh '$TMP/run.sh' $*" 2>/dev/null; do
        tries=$((tries + 1))
        [ "$tries" -ge 20 ] && { echo "# cannot start tmux"; return 1; }
        sleep 0.2
        stop_server
    done
    # Keys typed while the view opens are dropped (docs/ui.md, "At open"):
    # wait until it is up (the alternate screen), says what it computes (the
    # progress line, where a test may cancel), or has exited -- 10 s at most.
    i=0 lim=$(polls 100)
    while [ "$i" -lt "$lim" ]; do
        [ "$(tm display-message -p -t hc '#{alternate_on}' 2>/dev/null)" = 1 ] && break
        tm capture-pane -p -t hc 2>/dev/null | grep -q '^EXIT=\|cancel' && break
        sleep 0.02
        i=$((i + 1))
    done
}

stop_server() {   # kill the server (and a view left running) and wait until it is gone
    reap
    tm kill-server >/dev/null 2>&1
    i=0 lim=$(polls 50)
    while tm list-sessions >/dev/null 2>&1 && [ "$i" -lt "$lim" ]; do
        sleep 0.02
        i=$((i + 1))
    done
}

keys() { tm send-keys -t hc "$@"; }

sane() {   # the terminal after hetcast: cooked mode, echo, main screen, cursor on
    wait_for STTY-DONE 50 || return 1
    grep -q -- ' icanon' "$TMP/stty" && grep -q -- ' echo ' "$TMP/stty" &&
        [ "$(tm display-message -p -t hc '#{alternate_on}')" = 0 ] &&
        [ "$(tm display-message -p -t hc '#{cursor_flag}')" = 1 ]
}

hetcast_pid() {
    i=0 lim=$(polls 50)
    while [ ! -s "$TMP/pid" ] && [ "$i" -lt "$lim" ]; do
        sleep 0.02
        i=$((i + 1))
    done
    cat "$TMP/pid"
}

