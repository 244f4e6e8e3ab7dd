#!/bin/sh
# Regenerates AUTO's output for the models of this folder (see README.md) by driving XPPAUT's AUTO
# window, which has no batch mode, under a virtual X server with synthetic clicks and keys.
# Needs xppaut 6.11, Xvfb, xdotool (and ImageMagick's `import` for the screenshots it keeps in
# $SHOTS, when set). Run from anywhere: sh tests/reference/auto/run_xppaut_auto.sh
#
# The clicks are at the pixel positions of XPPAUT 6.11's default windows with no window manager
# (the main window at the top left, the AUTO window over it); another version may move them.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
display=:${XPP_DISPLAY:-97}
xvfb_pid=
xpp_pid=
cleanup() {
    [ -n "$xpp_pid" ] && kill "$xpp_pid" 2>/dev/null || true
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
Xvfb "$display" -screen 0 1280x1024x24 >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
sleep 1
export DISPLAY="$display"
# AUTO writes NAME.ode.p (its fort.7: the branch, one line a point, special points labelled),
# NAME.ode.q (fort.8: every labelled solution in full, its parameters to 11 digits) and NAME.ode.d
# (fort.9: the diagnostics, eigenvalues and Floquet multipliers) into $HOME.
export HOME="$work"

click() { xdotool mousemove "$1" "$2" click 1; sleep "${3:-0.8}"; }
shot() { [ -n "${SHOTS:-}" ] && import -window root "$SHOTS/$1.png" || true; }

size_of() { cat "$work/$1.p" 2>/dev/null | wc -c; }

# wait_for_auto NAME SIZE: waits until AUTO's branch file, SIZE bytes before the run, has changed
# and stopped changing (a run takes a few seconds). XPPAUT keeps its files open: they must not be
# removed between runs; the second run's files hold both branches.
wait_for_auto() {
    before=$2
    last=-1
    for _ in $(seq 1 120); do
        sleep 1
        size=$(size_of "$1")
        [ "$size" -ne "$before" ] && [ "$size" -eq "$last" ] && return 0
        last=$size
    done
    echo "AUTO did not finish $1" >&2
    exit 1
}

# start NAME: XPPAUT on NAME.ode, then File -> Auto, then Run -> Steady state from the model's
# initial state (an equilibrium at the parameter's start value).
start() {
    cp "$here/$1.ode" "$work/"
    (cd "$work" && exec xppaut "$1.ode" >"$work/$1.log" 2>&1) &
    xpp_pid=$!
    sleep 2
    click 47 196     # main window: File
    click 30 107 1.5 # File: Auto (opens the AUTO window)
    shot "$1_auto_window"
    click 40 91      # AUTO: Run
    click 60 48      # Run: Steady state
    wait_for_auto "$1.ode" 0
    shot "$1_steady"
}

# keep NAME KIND: AUTO's three files of the last run as NAME_KIND.{p,q,d} here.
keep() {
    for ext in p q d; do cp "$work/$1.ode.$ext" "$here/$1_$2.$ext"; done
}

stop() {
    kill "$xpp_pid"
    wait "$xpp_pid" 2>/dev/null || true
    xpp_pid=
    rm -f "$work/$1".ode.*
}

start fhn
keep fhn steady
stop fhn

# cycles NAME: after the steady-state run, the cycles from its Hopf point (the next labelled point
# after the start), AUTO's files kept as NAME_steady.* and then NAME_periodic.*.
cycles() {
    start "$1"
    keep "$1" steady
    before=$(size_of "$1.ode")
    click 30 109 # AUTO: Grab
    xdotool mousemove 350 150 key Tab # from the start to the next labelled point: HB, label 2
    sleep 0.5
    shot "$1_grab_hopf"
    xdotool key Return
    sleep 0.5
    click 40 91 # AUTO: Run (at a Hopf point it offers Periodic first)
    click 48 47 # Periodic
    wait_for_auto "$1.ode" "$before"
    shot "$1_periodic"
    keep "$1" periodic
    stop "$1"
}

cycles rossler
cycles bautin
cycles torus
