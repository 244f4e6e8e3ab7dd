# round.sh stiff: the stiff solvers on the GPU (issue 36). Every stiff benchmark program this tree
# has (bench_* named for stiff, Rosenbrock, Rodas, Robertson or HIRES; or --benches), then
# Robertson's equations through bifscope-cli as issue 36 measures them: k3 over [0, 1e4] at --count
# systems (default 2^20), t to 1e5, rtol 1e-3, atol 1e-6, with Rosenbrock23 and Rodas4 in float and
# double: a first run that compiles, two cached runs (wall time, peak RSS) and the systems' statuses.
# Last, the 202-state Schnakenberg chain with Rodas4 on the GPU, which must end (session 7's compile
# did not). --tests: GPU tests first. bench_cuda_stiff's cases become rows of the table (stiff_table);
# --nvrtc "OPTS;..." runs its kernels again under each option set; --skip cli leaves the bifscope-cli
# part out.
stiff_benches_pattern='^bench_.*(stiff|rosenbrock|rodas|robertson|hires)'

mode_stiff() {
  local benches b t cli method precision study run
  skipped cli || build_targets bifscope-cli
  [[ -n $opt_tests ]] && build_targets $opt_tests
  benches=${opt_benches:-$(targets_matching "$stiff_benches_pattern")}
  [[ -n $benches ]] && build_targets $benches
  [[ -n $benches ]] || row "stiff benchmarks" "none" 0 "no target matches $stiff_benches_pattern"
  for t in $opt_tests; do run_program "$t" 300; done
  for b in $benches; do
    run_program "$b" 540
    [[ $b == bench_cuda_stiff ]] && stiff_table "$logs/$(log_name "$b").log"
  done
  # --nvrtc "OPTS;OPTS": the kernels again under each set of kernel-header switches (e.g.
  # -DBIF_LU_RECIPROCAL_PIVOTS), in the same machine start as the figures above
  if [[ -n $opt_nvrtc && " $benches " == *" bench_cuda_stiff "* ]]; then
    local options name variants
    IFS=';' read -ra variants <<<"$opt_nvrtc"
    for options in "${variants[@]}"; do
      name="bench_cuda_stiff $options"
      BENCH_NVRTC_OPTIONS=$options BENCH_STIFF_NO_JOB=1 run_step "$name" 540 "$(exe bench_cuda_stiff)"
      stiff_table "$logs/$(log_name "$name").log"
    done
  fi
  # --skip cli: the benchmark programs alone (a round that must fit one 10-minute call)
  skipped cli && return
  cli=$(exe bifscope-cli)
  [[ -n $cli ]] || { row bifscope-cli "not built" 0 ""; return; }
  for method in rosenbrock23 rodas4; do
    for precision in float double; do
      study=$build/robertson_${method}_$precision.json
      write_robertson "$study" "$opt_count" "$method" "$precision"
      for run in 0 1 2; do
        run_step "robertson $method $precision run $run" 300 "${measure[@]}" "$cli" run "$study" \
          --backend cuda --out "$build/robertson.csv"
      done
      [[ -s $build/robertson.csv ]] && row "  statuses" "" "" "$(status_counts "$build/robertson.csv")"
      rm -f "$build/robertson.csv"
    done
  done
  # Rodas4's float failures at atol 1e-6 come from the ODE itself once y2 < -k3/k2 (issue 33); with
  # y1 and y2 held to 1e-8 none should fail
  study=$build/robertson_rodas4_float_tight.json
  write_robertson "$study" "$opt_count" rodas4 float '{"y1": 1e-8, "y2": 1e-8, "*": 1e-6}'
  run_step "robertson rodas4 float, y1 y2 atol 1e-8" 300 "${measure[@]}" "$cli" run "$study" --backend cuda \
    --out "$build/robertson.csv"
  [[ -s $build/robertson.csv ]] && row "  statuses" "" "" "$(status_counts "$build/robertson.csv")"
  rm -f "$build/robertson.csv"
  write_schnakenberg "$build/schnakenberg.json" 256
  run_step "schnakenberg chain (202 states) rodas4" 300 "${measure[@]}" "$cli" run "$build/schnakenberg.json" \
    --backend cuda --out "$build/schnakenberg.csv"
  [[ -s $build/schnakenberg.csv ]] && row "  statuses" "" "" "$(status_counts "$build/schnakenberg.csv")"
  rm -f "$build/schnakenberg.csv"
}

# stiff_table LOG: a row per case (fields split by the unit separator: a tab run would merge) of bench_cuda_stiff's log: hand-written time / Bifscope's, then
# both times, the mean accepted steps of both, the failed systems of both, how far apart the final
# states are (in tolerances) and the warm job's time against the hand kernel's; a row with the
# failed systems where there are, and one with where the warm job's time went.
stiff_table() {
  python3 - "$1" <<'PY' | while IFS=$'\x1f' read -r name ratio note; do row "  $name" "$ratio" "" "$note"; done
import math, re, sys
cases, case = [], None
for line in open(sys.argv[1]):
    m = re.match(r"^((?:robertson|hires) \S+ \S+)\s+N=(\d+)\s+bifscope\s+([\d.]+) ms \| hand\s+([\d.]+) ms \| "
                 r"ratio hand/bifscope ([\d.]+)", line)
    if m:
        case = {"name": f"{m[1]} 2^{round(math.log2(int(m[2])))}", "ratio": f"{float(m[5]):.3f}x",
                "note": f"bif {float(m[3]):.2f} ms hand {float(m[4]):.2f} ms"}
        cases.append(case)
        continue
    if case is None:
        continue
    if m := re.search(r"mean accepted steps bifscope ([\d.]+) hand ([\d.]+) \(([-+\d.]+)%\)", line):
        case["note"] += f", steps {m[1]}/{m[2]} ({m[3]}%)"
    elif m := re.search(r"failed bifscope (\d+) hand (\d+)(.*)\| final states up to ([\d.e+-]+) tol", line):
        case["note"] += f", failed {m[1]}/{m[2]}, states {m[4]} tol apart"
        if m[3].strip():
            case["failures"] = m[3].strip()
    elif m := re.search(r"warm job through the CUDA backend ([\d.]+) s = ([\d.]+)x", line):
        case["note"] += f", job {m[1]} s = {m[2]}x hand"
    elif m := re.search(r"warm job [\d.]+ s: (.*)", line):
        case["job"] = m[1].strip()
    elif m := re.search(r"host pieces alone: (.*)", line):
        case["job"] = case.get("job", "") + "; alone: " + m[1].strip()
for c in cases:
    print(f"{c['name']}\x1f{c['ratio']}\x1f{c['note']}")
    if "failures" in c:
        print(f"{c['name']} failed\x1f\x1f{c['failures'][:200]}")
    if "job" in c:
        print(f"{c['name']} job\x1f\x1f{c['job']}")
PY
}
