# round.sh bench: the kernel benchmarks against their hand-written kernels (tests/bench/README.md),
# each program's figures in its log and its ratio line in the table. --benches: other programs;
# --nvrtc "OPTS;...": Lorenz and Duffing again under each NVRTC option set; --sass: registers,
# stack and spills (kernel_report) and the local loads/stores per function in the SASS, beside the
# hand-written kernels'; --ncu: Nsight Compute on the first launches. --tests: GPU tests first
# (test_cuda_backend is the CPU/GPU agreement test). Environment variables the benchmarks read
# (BENCH_MIN_BLOCKS, BENCH_LORENZ_STEPS, BENCH_FIRST_TIER, ...) pass through.
bench_default="bench_cuda_lorenz bench_cuda_duffing bench_cuda_mpgos bench_cuda_logistic bench_cuda_heavy_rhs
  bench_cuda_progressive"

mode_bench() {
  local benches=${opt_benches:-$bench_default} b v t extra=()
  [[ -n $opt_sass ]] && extra+=(kernel_report)
  build_targets $benches $opt_tests "${extra[@]}"
  for t in $opt_tests; do run_program "$t" 300; done
  for b in $benches; do run_program "$b" 150; done
  if [[ -n $opt_nvrtc ]]; then
    IFS=';' read -ra variants <<<"$opt_nvrtc"
    for v in "${variants[@]}"; do
      for b in bench_cuda_lorenz bench_cuda_duffing; do
        [[ -n $(exe "$b") ]] || continue
        BENCH_NVRTC_OPTIONS="$v" run_step "$b [$v]" 150 "$(exe "$b")"
      done
    done
  fi
  [[ -n $opt_sass ]] && bench_sass
  [[ -n $opt_ncu ]] && bench_ncu
}

# kernel_report's cubins of the benchmark studies (no GPU needed for that part), cuobjdump's SASS,
# instructions and local loads/stores (LDL/STL) of the step functions; the hand-written kernels
# through nvcc beside them. The SASS files go into logs/ (logs.tar.gz).
bench_sass() {
  local dir=$logs/kernels c h
  mkdir -p "$dir"
  run_program kernel_report 120 "$dir"
  for c in lorenz_double lorenz_float duffing mpgos; do
    [[ -f $dir/$c.cubin ]] || continue
    cuobjdump -sass "$dir/$c.cubin" >"$dir/$c.sass" 2>&1
    awk -v c="$c" '/Function :/{f=$3} /LDL/{l[f]++} /STL/{s[f]++} /^ +\/\*[0-9a-f]+\*\//{n[f]++}
      END{for (f in n) if (f ~ /advance|integrate/) printf "sass %-14s %-60.60s %6d instr LDL %4d STL %4d\n", c, f, n[f], l[f], s[f]}' \
      "$dir/$c.sass"
  done >"$logs/sass.log"
  for h in lorenz_rk4 duffing_rkck45; do
    nvcc -cubin -arch=sm_90 -o "$dir/hand_$h.cubin" "$src/tests/bench/handwritten/$h.cu" >>"$logs/sass.log" 2>&1 &&
      cuobjdump -sass "$dir/hand_$h.cubin" >"$dir/hand_$h.sass" 2>&1
  done
  rm -f "$dir"/*.cubin "$dir"/*.cu
  row "sass" "$( [[ -s $logs/sass.log ]] && echo ok || echo empty)" 0 "$(grep -c '^sass' "$logs/sass.log") functions (sass.log)"
}

# Nsight Compute on the benchmarks' first launches: Lorenz double 2^20 (6 of Bifscope's kernel, then
# the hand-written one), Duffing (4, then the hand-written one), with the sections that say where
# issue slots go; duffing-source: executed instructions per SASS instruction, as CSV, per kernel.
bench_ncu() {
  command -v ncu >/dev/null || { row ncu "not here" 0 ""; return; }
  local sections=(--section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats
    --section InstructionStats --section ComputeWorkloadAnalysis --print-details all) c k
  for c in $opt_ncu; do
    case $c in
    lorenz) run_step "ncu lorenz" 300 ncu -k 'regex:^(bif_ensemble_advance|hand_lorenz_rk4_double)$' -c 7 \
      "${sections[@]}" "$(exe bench_cuda_lorenz)" ;;
    duffing) run_step "ncu duffing" 300 ncu -k 'regex:^(bif_ensemble_advance|hand_duffing_rkck45)$' -c 5 \
      "${sections[@]}" "$(exe bench_cuda_duffing)" ;;
    duffing-source)
      for k in bif_ensemble_advance hand_duffing_rkck45; do
        run_step "ncu source $k" 300 ncu -k "regex:^$k\$" -c 1 --section SourceCounters --page source \
          --print-source sass --csv "$(exe bench_cuda_duffing)"
      done ;;
    *) row "ncu $c" "unknown" 0 "lorenz, duffing or duffing-source" ;;
    esac
  done
  # a few metrics of each kernel, for the table's reader
  for f in "$logs"/ncu_lorenz.log "$logs"/ncu_duffing.log; do
    [[ -f $f ]] || continue
    awk '/^  [a-z_]+ \(/{name=$1} /Executed Instructions  |Achieved Occupancy|Issue Slots Busy|Registers Per Thread  /{v[name" "$1" "$2" "$3]=$NF}
      END{for (k in v) print k, v[k]}' "$f" | sort >"${f%.log}-metrics.log"
  done
}
