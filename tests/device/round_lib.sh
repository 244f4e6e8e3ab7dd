# Shared by tests/device/round.sh and its modes (source it): the build every round makes, running a
# step with a time limit and a row in the round's table, the logs under $OUT, and the study files
# the rounds generate. Nothing here is a mode of its own; see tests/device/README.md.

# round_init: the round's folders and clock. Reads ROUND_OUT, ROUND_BUILD, ROUND_SOURCE (round.sh
# sets them from its options); logs go to $ROUND_OUT/logs, the table to $ROUND_OUT/summary.txt.
round_init() {
  out=$ROUND_OUT
  logs=$out/logs
  build=$ROUND_BUILD
  src=$ROUND_SOURCE
  mkdir -p "$logs" "$build"
  round_start=$SECONDS
  : >"$out/summary.txt"
  export BIFSCOPE_CUDA_CACHE_DIR=${BIFSCOPE_CUDA_CACHE_DIR:-$build/module-cache}
}

# use_device_libraries ROOT: .device/ (../shared/tools/device-prep.sh) first on the compiler,
# linker and loader paths, with the HDF5 that tests/device/prep-hdf5.sh adds where it is there.
use_device_libraries() {
  [[ -f $1/.device/env.sh ]] && source "$1/.device/env.sh"
  if [[ -d $1/.device/hdf5 ]]; then
    export HDF5_ROOT=$1/.device/hdf5 LD_LIBRARY_PATH=$1/.device/hdf5/lib:${LD_LIBRARY_PATH:-}
  fi
  return 0
}

# machine_info: GPUs, driver, cores, memory, MPI, into logs/machine.log and one line of the table.
machine_info() {
  {
    nvidia-smi --query-gpu=index,name,driver_version,memory.total,clocks.max.sm --format=csv,noheader 2>/dev/null ||
      echo "no NVIDIA GPU"
    echo "$(nproc) cores, $(free -g 2>/dev/null | awk '/Mem:/ {print $2}') GB"
    command -v nvcc >/dev/null && nvcc --version | tail -1
    command -v mpirun >/dev/null && mpirun --version 2>/dev/null | head -1
    command -v compute-sanitizer >/dev/null && echo "compute-sanitizer: yes"
    command -v ncu >/dev/null && echo "ncu: yes"
  } >"$logs/machine.log" 2>&1
  row machine ok 0 "$(head -1 "$logs/machine.log" | cut -c1-70) ($(gpu_count) GPU)"
}

gpu_count() { nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true; }

# row NAME RESULT SECONDS NOTE: one line of the round's table, printed as it comes (a round cut off
# at a lease's end still reports what it did) and kept in summary.txt for the table at the end
# (a file, so that rows written in a subshell count too).
row() {
  printf '%-38s %-12s %6s  %s\n' "$1" "$2" "$3" "$4" | tee -a "$out/summary.txt"
}

# result_of EXIT_CODE: ok, skipped (77), timed out, or the code.
result_of() {
  case $1 in
  0) echo ok ;;
  77) echo skipped ;;
  124 | 137) echo "timed out" ;;
  *) echo "exit $1" ;;
  esac
}

# configure [CMAKE_ARGS...]: the Release build without the GUI, sanitizers or fuzzers, with the
# benchmarks, of $src into $build; what CMake says of HDF5 and MPI into the log.
configure() {
  local s=$SECONDS rc
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBIFSCOPE_GUI=OFF -DBIFSCOPE_SANITIZE=OFF \
    -DBIFSCOPE_FUZZ=OFF -DBIFSCOPE_BENCH=ON "$@" >"$logs/configure.log" 2>&1
  rc=$?
  row configure "$(result_of $rc)" $((SECONDS - s)) "$(grep -hE "HDF5|MPI" "$logs/configure.log" | tr '\n' ' ' | cut -c1-80)"
  return $rc
}

# build_targets TARGET...: builds those of the targets this tree has (a target another tree lacks is
# named in the table, not an error); -k 0 so that one broken target does not stop the others.
build_targets() {
  local s=$SECONDS known have=() missing=() t rc
  known=$(build_target_names)
  for t in "$@"; do
    if grep -qx "$t" <<<"$known"; then have+=("$t"); else missing+=("$t"); fi
  done
  ((${#have[@]})) || { row build "nothing" 0 "none of: $*"; return 1; }
  cmake --build "$build" -j "$(nproc)" --target "${have[@]}" -- -k 0 >>"$logs/build.log" 2>&1
  rc=$?
  row build "$(result_of $rc)" $((SECONDS - s)) "${#have[@]} targets${missing:+; not in this tree: ${missing[*]}}"
  return $rc
}

# build_target_names: every target name of the configured build (Ninja's list, paths left out).
build_target_names() {
  ninja -C "$build" -t targets all 2>/dev/null | awk -F: '$1 !~ /[\/.]/ {print $1}' | sort -u
}

# targets_matching REGEX: the build's targets whose names match (e.g. the stiff benchmarks).
targets_matching() {
  build_target_names | grep -E "$1"
}

# exe TARGET: the built program's path (tests/*/, tests/bench/, app/), empty where it is not built.
exe() {
  find "$build" -name "$1" -type f -perm -u+x -not -path '*/CMakeFiles/*' 2>/dev/null | head -1
}

# gpu_tests: the gpu-labelled tests of the configured build (ctest's own list; test = target name).
gpu_tests() {
  ctest --test-dir "$build" -N -L gpu 2>/dev/null | awk '/Test +#/ {print $3}'
}

# run_step NAME TIMEOUT CMD...: runs CMD (output to logs/NAME.log) and adds its row: the result,
# the seconds and the last line that says how it went (Catch2's summary, a benchmark's ratio).
run_step() {
  local name=$1 limit=$2 s=$SECONDS rc log
  shift 2
  log=$logs/$(log_name "$name").log
  timeout --kill-after=10 "$limit" "$@" >"$log" 2>&1
  rc=$?
  row "$name" "$(result_of $rc)" $((SECONDS - s)) "$(summary_line "$log")"
  return $rc
}

# log_name NAME: a step's name as a file name (variants carry spaces, '=' and '-D').
log_name() { local n=${1//[^A-Za-z0-9_.-]/_}; echo "${n:0:100}"; }

# summary_line LOG: the line of a log that says how a run went.
summary_line() {
  grep -hE "^exit [0-9]+  wall|GL_RENDERER|All tests passed|test cases:|SKIPPED|ratio hand|end to end|auto/best at most|beyond its integration|ERROR SUMMARY|RACECHECK SUMMARY|tests passed|FAILED|Error|error:" "$1" 2>/dev/null |
    tail -1 | cut -c1-90
}

# run_program TARGET TIMEOUT [ARGS...]: run_step under the target's name, or a "not built" row.
run_program() {
  local target=$1 limit=$2 path
  shift 2
  path=$(exe "$target")
  if [[ -z $path ]]; then
    row "$target" "not built" 0 ""
    return 1
  fi
  run_step "$target" "$limit" "$path" "$@"
}

# "${measure[@]}" CMD...: CMD's exit code, wall time and peak RSS (tests/device/measure.py).
measure=(python3 "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/measure.py")

# rows FILE: a result CSV's rows without its comment block (run information, times, backend).
rows() { grep -v "^#" "$1"; }

# status_counts FILE: "N systems: ok 1000, non_finite 3" from a result CSV (one count per system:
# a diagram's systems have a row per point, each with the system's status; the sweep values tell
# the systems apart).
status_counts() {
  python3 - "$1" <<'PY'
import collections, csv, sys
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if not l.startswith("#"))]
head, body = rows[0], rows[1:]
k = head.index("status")
seen = {tuple(r[:k]): r[k] for r in body}
n = collections.Counter(seen.values())
print(f"{len(seen)} systems: " + ", ".join(f"{s} {c}" for s, c in n.most_common()))
PY
}

# same_rows LABEL A B: a row saying whether two CSV results hold the same rows, bit for bit.
same_rows() {
  if [[ -s $2 && -s $3 ]] && cmp -s <(rows "$2") <(rows "$3"); then
    row "$1" identical 0 "$(rows "$2" | wc -l) lines"
  else
    row "$1" DIFFER 0 "or missing: $(basename "$2") $(basename "$3")"
  fi
}

# finish_round: the table last, then every log in one archive beside summary.txt (the device
# tool brings back few files; pictures and the summary stay as they are).
finish_round() {
  echo
  echo "== round: $ROUND_MODES ($((SECONDS - round_start)) s), logs in logs.tar.gz"
  cat "$out/summary.txt"
  tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
}

# write_lorenz_map FILE RHO_COUNT SIGMA_COUNT DETECT_PERIOD: a map of the Lorenz system over rho in
# [0, 50] and sigma in [5, 15] (RK4 0.1 to t = 1).
write_lorenz_map() {
  cat >"$1" <<JSON
{"bifscope_study": 1, "model": {"path": "$src/resources/models/lorenz.ode"},
 "parameters": {"beta": 2.6666666666666667},
 "sweep": [{"parameter": "rho", "from": 0, "to": 50, "count": $2},
           {"parameter": "sigma", "from": 5, "to": 15, "count": $3}],
 "analysis": {"kind": "map", "section": {"kind": "stroboscopic", "period": "1"},
              "transient_sections": 0, "recorded_sections": 1, "detect_period": $4},
 "solver": {"method": "rk4", "initial_step": 0.1}, "precision": "double"}
JSON
}

# write_duffing_diagram FILE COUNT TRANSIENT: a Duffing diagram over k in [0.2, 0.3] (COUNT
# values; TRANSIENT + 32 recorded forcing periods of y1, y2; RKCK45 at 1e-9, double).
write_duffing_diagram() {
  cat >"$1" <<JSON
{"bifscope_study": 1, "model": {"path": "$src/resources/models/duffing.ode"},
 "parameters": {"b": 0.3, "delta": 1, "omega": 1},
 "sweep": [{"parameter": "k", "from": 0.2, "to": 0.3, "count": $2}],
 "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "2*pi/omega"},
              "transient_sections": $3, "recorded_sections": 32, "record": ["y1", "y2"]},
 "solver": {"method": "rkck45", "rtol": 1e-9, "atol": 1e-9, "initial_step": 1e-2}, "precision": "double"}
JSON
}

# write_robertson FILE COUNT METHOD PRECISION [ATOL]: issue 36's stiff benchmark problem, Robertson's
# equations with k3 over [0, 1e4] (COUNT values), from y0 = (1, 0, 0) to t = 1e5, initial step 1e-3,
# rtol 1e-3, atol 1e-6 (or ATOL, a JSON value), no step limit (the model's own dtmax=1 would make it 1e5 steps a system); the
# final state recorded.
write_robertson() {
  cat >"$1" <<JSON
{"bifscope_study": 1, "model": {"path": "$src/resources/models/robertson.ode"},
 "parameters": {"k1": 0.04, "k2": 3e7},
 "sweep": [{"parameter": "k3", "from": 0, "to": 1e4, "count": $2}],
 "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "1e5"},
              "transient_sections": 0, "recorded_sections": 1, "record": ["y1", "y2", "y3"]},
 "solver": {"method": "$3", "rtol": 1e-3, "atol": ${5:-1e-6}, "initial_step": 1e-3, "max_step": 0, "bound": 0},
 "precision": "$4"}
JSON
}

# write_schnakenberg FILE COUNT: the 202-state Schnakenberg chain with Rodas4 over a in
# [0.09, 0.11] (COUNT values), one section at t = 0.5 (session 7: its CUDA compile must end).
write_schnakenberg() {
  cat >"$1" <<JSON
{"bifscope_study": 1, "model": {"path": "$src/resources/models/schnakenberg_chain.ode"},
 "sweep": [{"parameter": "a", "from": 0.09, "to": 0.11, "count": $2}],
 "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "0.5"},
              "transient_sections": 1, "recorded_sections": 1, "record": ["u50"]},
 "solver": {"method": "rodas4", "rtol": 1e-6, "atol": 1e-8, "initial_step": 1e-4}, "precision": "double"}
JSON
}
