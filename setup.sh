#!/bin/sh
# setup.sh - install what hetcast needs (Debian/Ubuntu), build it, and open
# the view on the paper's counterexample.  Safe to run again.  It builds what
# `meson install` installs (the programs, their manual pages, the shell
# completion), not the tests: test.sh builds what it runs.
#   ./setup.sh            install, build the programs, open the view
#   ./setup.sh --no-view  install and build the programs only (CI, scripts)
#   ./setup.sh --tests    ... and build the tests and fuzzers too (all of build/)
set -eu
cd "$(dirname "$0")"

packages="meson ninja-build pkg-config gcc g++ clang libncurses-dev libcsv-dev liblua5.4-dev libglpk-dev libltdl-dev glpk-utils libsqlite3-dev sqlite3 python3 tmux valgrind help2man man-db libsimgrid-dev pajeng graphviz libotf2-trace-dev otf2-tools openmpi-bin libopenmpi-dev bash-completion zsh fish"
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
    echo "setup: installing$missing"
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    if [ -n "$sudo" ] && ! command -v sudo >/dev/null; then
        echo "setup: need root (or sudo) to install:$missing" >&2
        exit 1
    fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
fi

view=yes tests=no
for arg in "$@"; do
    case $arg in
        --no-view) view=no ;;
        --tests) tests=yes; view=no ;;
        *) echo "setup: unknown option $arg (--no-view, --tests)" >&2; exit 2 ;;
    esac
done

[ -d build ] || meson setup build >/dev/null
# the targets meson install installs, named as ninja knows them (build/hetcast, ...)
targets=$(meson introspect build --targets | python3 -c '
import json, os, sys
for t in json.load(sys.stdin):
    if t["installed"]:
        for f in t["filename"]:
            print(os.path.relpath(f, "build"))')
# shellcheck disable=SC2086
ninja -C build $targets
if [ "$tests" = yes ]; then
    ninja -C build
fi

if [ "$view" = yes ] && [ -t 1 ]; then
    exec ./build/hetcast counterexample.csv
fi
echo "setup: built ./build/hetcast; try ./build/hetcast counterexample.csv"
