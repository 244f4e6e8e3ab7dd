# round.sh compile: cold NVRTC compiles of the bundled models (bench_cuda_compile) under each of
# --settings' environments, interleaved in every run so that one machine start compares them (cold
# compiles move 20-30% between machine starts), with the driver's JIT cache off. The small models
# RUNS times, Pleiades once (--pleiades); --variants adds NVRTC option variants to every run. Then,
# under each setting: the kernel benchmarks (--kernels, on their first-tier module where the setting
# compiles one), bundled studies through bifscope-cli (--studies: a cold run, cached runs, the
# results compared), NVRTC's phases (--phases) and the CPU-against-GPU threshold (--threshold).
compile_small="bouncing brusselator chua logistic duffing vanderpol henon hodgkin keller lorenz relief robertson
  rossler standard"

mode_compile() {
  local models s label run b t
  models=$(echo ${opt_models:-$compile_small}) # one line: bench_cuda_compile splits at spaces
  IFS=';' read -ra settings <<<"$opt_settings"
  export CUDA_CACHE_DISABLE=1
  build_targets bench_cuda_compile bifscope-cli $opt_kernels $opt_tests
  for t in $opt_tests; do run_program "$t" 300; done
  local bench
  bench=$(exe bench_cuda_compile)
  [[ -n $bench ]] || { row bench_cuda_compile "not built" 0 ""; return; }
  for run in $(seq 1 "$opt_runs"); do
    for s in "${settings[@]}"; do
      label=${s%%:*}
      BENCH_COMPILE_MODELS=$models BENCH_COMPILE_VARIANTS=$opt_variants \
        with_setting "$s" run_step "cold $label run $run" 300 "$bench"
      row "  figures" "" "" "$(awk '/cold/ {printf "%s %s ", $1, $6}' "$logs/$(log_name "cold $label run $run").log" | cut -c1-110)"
    done
  done
  if [[ -n $opt_pleiades ]]; then
    for s in "${settings[@]}"; do
      BENCH_COMPILE_MODELS=pleiades with_setting "$s" run_step "cold ${s%%:*} pleiades" 300 "$bench"
    done
  fi
  for b in $opt_kernels; do
    for s in "${settings[@]}"; do
      BENCH_FIRST_TIER=1 with_setting "$s" run_program_as "$b ${s%%:*}" "$b" 150
    done
  done
  for t in $opt_studies; do
    compile_study "$t" "${settings[@]}"
  done
  [[ -n $opt_phases ]] && compile_phases
  [[ -n $opt_threshold ]] && compile_threshold
  compile_table "${settings[@]}"
}

# with_setting "LABEL:VAR=value VAR=value" CMD...: CMD (a function too) under the setting's
# variables, in a subshell.
with_setting() {
  local vars=${1#*:}
  shift
  (
    for v in $vars; do export "${v?}"; done
    "$@"
  )
}

# run_program_as NAME TARGET TIMEOUT [ARGS...]: run_program under another name in the table.
run_program_as() {
  local name=$1 target=$2 limit=$3 path
  shift 3
  path=$(exe "$target")
  [[ -n $path ]] || { row "$name" "not built" 0 ""; return 1; }
  run_step "$name" "$limit" "$path" "$@"
}

# The cold figures of every run, per setting: "model: run1 run2 ..." (seconds).
compile_table() {
  local s label
  for s in "$@"; do
    label=${s%%:*}
    cat "$logs"/cold_"$label"_run_*.log 2>/dev/null | awk '/cold/ {k = $1 " " $4; v[k] = v[k] " " $6} END {for (k in v) print k ":" v[k]}' |
      sort >"$logs/cold-$label.txt"
    row "cold compiles, $label (s)" "" "" "$(tr '\n' ';' <"$logs/cold-$label.txt" | cut -c1-200)"
  done
}

# compile_study NAME SETTING...: resources/studies/NAME.json through bifscope-cli on the GPU under
# each setting: one cold run (a module cache of its own), then two with the module cached; the
# largest relative difference between the settings' results.
compile_study() {
  local name=$1 study=$src/resources/studies/$1.json cli s label run
  shift
  cli=$(exe bifscope-cli)
  [[ -f $study && -n $cli ]] || { row "study $name" "missing" 0 ""; return; }
  local results=()
  for s in "$@"; do
    label=${s%%:*}
    rm -rf "$build/study-cache-$label"
    for run in 0 1 2; do
      BIFSCOPE_CUDA_CACHE_DIR=$build/study-cache-$label with_setting "$s" \
        run_step "study $name $label run $run" 300 "$cli" run "$study" --backend cuda --out "$build/study-$label.csv"
    done
    results+=("$build/study-$label.csv")
  done
  row "study $name, results" "" "" "$(largest_difference "${results[@]}")"
}

# largest_difference A.csv B.csv ...: the largest relative difference of each result from the first.
largest_difference() {
  python3 - "$@" <<'PY'
import csv, math, sys
def load(p):
    return list(csv.reader(l for l in open(p) if not l.startswith("#")))
base = load(sys.argv[1])
for other in sys.argv[2:]:
    b = load(other)
    worst, cells = 0.0, 0
    for ra, rb in zip(base[1:], b[1:]):
        for x, y in zip(ra, rb):
            try:
                fx, fy = float(x), float(y)
            except ValueError:
                continue
            if math.isnan(fx) and math.isnan(fy):
                continue
            cells += 1
            worst = max(worst, abs(fx - fy) / max(abs(fx), abs(fy), 1e-300))
    print(f"rows {len(base) - 1}/{len(b) - 1}, {cells} numbers, largest relative difference {worst:.3g}", end="; ")
PY
}

# NVRTC's front end, optimizer and ptxas times of three dumped study programs, as written and under
# NVRTC's precompiled header (tests/device/nvrtc_phases.py).
compile_phases() {
  local dir=$logs/programs
  mkdir -p "$dir"
  BENCH_COMPILE_DUMP=$dir BENCH_COMPILE_MODELS="duffing hodgkin keller" run_step "dump programs" 120 \
    "$(exe bench_cuda_compile)"
  run_step "nvrtc phases" 300 python3 "$src/tests/device/nvrtc_phases.py" "$src/kernels" 3 "$dir"/*_backend.cu
  rm -rf "$dir"
}

# The `auto` backend's threshold: wall time of bifscope-cli runs of a Lorenz spectrum and a Duffing
# diagram over N systems, on every core against the GPU, with warm caches.
compile_threshold() {
  local cli kind n backend dir=$build/threshold-studies t0 t1 rc
  cli=$(exe bifscope-cli)
  mkdir -p "$dir"
  for n in 1 16 128 512 2048 8192; do
    cat >"$dir/lorenz_$n.json" <<JSON
{"bifscope_study": 1, "model": {"path": "$src/resources/models/lorenz.ode"},
 "parameters": {"sigma": 10, "beta": 2.6666666666666667},
 "sweep": [{"parameter": "rho", "from": 24, "to": 30, "count": $n, "scale": "linear"}],
 "analysis": {"kind": "lyapunov", "exponents": "spectrum", "transient_time": 20, "averaging_time": 200, "renormalization_interval": 1},
 "solver": {"method": "dopri5", "rtol": 1e-8, "atol": 1e-8, "initial_step": 1e-2}, "precision": "double"}
JSON
    write_duffing_diagram "$dir/duffing_$n.json" "$n" 256
  done
  for kind in lorenz duffing; do
    for n in 1 16 128 512 2048 8192; do
      for backend in cpu cuda; do
        "$cli" run "$dir/${kind}_$n.json" --backend $backend --quiet --out /dev/null >/dev/null 2>&1 # warm caches
        t0=$(date +%s%N)
        timeout 120 "$cli" run "$dir/${kind}_$n.json" --backend $backend --quiet --out "$build/r.csv" >/dev/null 2>&1
        rc=$?
        t1=$(date +%s%N)
        echo "threshold $kind n=$n $backend $(((t1 - t0) / 1000000)) ms exit $rc"
      done
    done
  done >"$logs/threshold.log"
  row threshold ok 0 "$(awk '{printf "%s %s %s %s; ", $2, $3, $4, $5}' "$logs/threshold.log" | cut -c1-200)"
}
