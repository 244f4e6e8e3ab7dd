# round.sh stiff: the stiff solvers on the GPU (issue 36). Every stiff benchmark program this tree
# has (bench_* named for stiff, Rosenbrock, Rodas, Robertson or HIRES; or --benches), then
# Robertson's equations through bifscope-cli as issue 36 measures them: k3 over [0, 1e4] at --count
# systems (default 2^20), t to 1e5, rtol 1e-3, atol 1e-6, with Rosenbrock23 and Rodas4 in float and
# double: a first run that compiles, two cached runs (wall time, peak RSS) and the systems' statuses.
# Last, the 202-state Schnakenberg chain with Rodas4 on the GPU, which must end (session 7's compile
# did not). --tests: GPU tests first.
stiff_benches_pattern='^bench_.*(stiff|rosenbrock|rodas|robertson|hires)'

mode_stiff() {
  local benches b t cli method precision study run
  build_targets bifscope-cli $opt_tests
  benches=${opt_benches:-$(targets_matching "$stiff_benches_pattern")}
  [[ -n $benches ]] && build_targets $benches
  [[ -n $benches ]] || row "stiff benchmarks" "none" 0 "no target matches $stiff_benches_pattern"
  for t in $opt_tests; do run_program "$t" 300; done
  for b in $benches; do run_program "$b" 300; done
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
