# Shared by the GPU round scripts (source it): what .device/ carries on the library paths, the
# 10^8-system Lorenz map and Duffing diagram studies, and a command's wall time and peak memory.

# use_device_libraries ROOT: .device/ (../shared/tools/device-prep.sh) first on the compiler,
# linker and loader paths, with the HDF5 that tests/device/prep-hdf5.sh adds where it is there.
use_device_libraries() {
  [[ -f $1/.device/env.sh ]] && source "$1/.device/env.sh"
  if [[ -d $1/.device/hdf5 ]]; then
    export HDF5_ROOT=$1/.device/hdf5 LD_LIBRARY_PATH=$1/.device/hdf5/lib:${LD_LIBRARY_PATH:-}
  fi
}

# measure CMD...: runs CMD, prints its exit code, wall time, peak RSS and the tail of its stderr.
measure() {
  python3 - "$@" <<'PY'
import resource, subprocess, sys, time
t = time.time()
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
wall = time.time() - t
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"exit {r.returncode}  wall {wall:.2f} s  peak RSS {rss:.0f} MB  {' '.join(sys.argv[1:])}")
print(r.stderr[-600:])
PY
}

# write_lorenz_map FILE SOURCE_DIR RHO_COUNT SIGMA_COUNT DETECT_PERIOD: a map of the Lorenz system
# over rho in [0, 50] and sigma in [5, 15] (RK4 0.1 to t = 1).
write_lorenz_map() {
  cat >"$1" <<JSON
{"bifscope_study": 1, "model": {"path": "$2/resources/models/lorenz.ode"},
 "parameters": {"beta": 2.6666666666666667},
 "sweep": [{"parameter": "rho", "from": 0, "to": 50, "count": $3},
           {"parameter": "sigma", "from": 5, "to": 15, "count": $4}],
 "analysis": {"kind": "map", "section": {"kind": "stroboscopic", "period": "1"},
              "transient_sections": 0, "recorded_sections": 1, "detect_period": $5},
 "solver": {"method": "rk4", "initial_step": 0.1}, "precision": "double"}
JSON
}

# write_lorenz_1e8 FILE SOURCE_DIR: the 10^4 x 10^4 map of issue 14's 10^8-system benchmark.
write_lorenz_1e8() { write_lorenz_map "$1" "$2" 10000 10000 false; }

# write_duffing_diagram FILE SOURCE_DIR COUNT TRANSIENT: a Duffing diagram over k in [0.2, 0.3]
# (COUNT values; TRANSIENT + 32 recorded forcing periods of y1, y2; RKCK45 at 1e-9, double).
write_duffing_diagram() {
  cat >"$1" <<JSON
{"bifscope_study": 1, "model": {"path": "$2/resources/models/duffing.ode"},
 "parameters": {"b": 0.3, "delta": 1, "omega": 1},
 "sweep": [{"parameter": "k", "from": 0.2, "to": 0.3, "count": $3}],
 "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
              "transient_sections": $4, "recorded_sections": 32, "record": ["y1", "y2"]},
 "solver": {"method": "rkck45", "rtol": 1e-9, "atol": 1e-9, "initial_step": 1e-2}, "precision": "double"}
JSON
}
