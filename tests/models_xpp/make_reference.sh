#!/bin/sh
# Regenerates the XPPAUT reference outputs (*.dat) in this folder; see README.md.
# Needs XPPAUT 6.11 (`xppaut`) on PATH. Run from anywhere: sh tests/models_xpp/make_reference.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
models="$here/../../resources/models"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# run NAME FILE [OPTIONS]: FILE, its Poincare-map option dropped (a later @ line cannot turn it
# off) and OPTIONS added before `done`, integrated by XPPAUT; output.dat becomes NAME.dat.
run() {
    name=$1
    file=$2
    options=${3:-}
    if [ -n "$options" ]; then
        grep -v '^@ poimap' "$file" | sed "/^done/i @ $options" > "$work/$name.ode"
    else
        cp "$file" "$work/$name.ode"
    fi
    (cd "$work" && rm -f output.dat && xppaut "$name.ode" -silent > "$name.log" 2>&1)
    cp "$work/output.dat" "$here/$name.dat"
}

run lorenz_rk4 "$models/lorenz.ode" "meth=rk4,dt=0.001,njmp=10,total=1.99"
run vanderpol_rk4 "$models/vanderpol.ode" "meth=rk4,dt=0.005,njmp=20,total=19.9"
run duffing_rk4 "$models/duffing.ode" "meth=rk4,dt=0.01,njmp=10,total=19.9"
run relief_valve_rk4 "$models/relief_valve.ode" "meth=rk4,dt=0.001,njmp=25,total=4.975"
run lif_reset "$here/lif_reset.ode"
run ramp_reset "$here/ramp_reset.ode"
run ramp_on_grid "$here/ramp_on_grid.ode"
