#!/bin/sh
# setup.sh - install what hetcast needs (Debian/Ubuntu), build it, and open
# the view on the paper's counterexample.  Safe to run again.
#   ./setup.sh            install, build, open the view
#   ./setup.sh --no-view  install and build only (CI, scripts)
set -eu
cd "$(dirname "$0")"

packages="meson ninja-build pkg-config gcc clang libncurses-dev libcsv-dev liblua5.4-dev libglpk-dev glpk-utils libsqlite3-dev sqlite3 python3 tmux valgrind help2man man-db libsimgrid-dev pajeng graphviz libotf2-trace-dev otf2-tools openmpi-bin libopenmpi-dev"
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

[ -d build ] || meson setup build >/dev/null
ninja -C build

if [ "${1:-}" != "--no-view" ] && [ -t 1 ]; then
    exec ./build/hetcast clusters/counterexample.csv
fi
echo "setup: built ./build/hetcast; try ./build/hetcast clusters/counterexample.csv"
