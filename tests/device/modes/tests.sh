# round.sh tests: the GPU tests (every gpu-labelled test, or --tests), each with its own time limit;
# --engine adds the engine-labelled tests (a full build), --sanitize compute-sanitizer's memcheck
# and racecheck on each GPU test at 4096 systems (the sanitizer slows kernels a hundredfold).
mode_tests() {
  local tests t path tool
  tests=${opt_tests:-$(gpu_tests)}
  build_targets $tests
  for t in $tests; do
    run_program "$t" 300
  done
  # the render kernels' timings (CUDA events, median of 7), hidden from ordinary runs
  path=$(exe test_cuda_render_kernels)
  [[ " $tests " == *" test_cuda_render_kernels "* && -n $path ]] && run_step "render kernel timings" 60 "$path" "[.timing]"
  if [[ -n $opt_engine ]]; then
    local s=$SECONDS
    cmake --build "$build" -j "$(nproc)" -- -k 0 >>"$logs/build.log" 2>&1
    row "build everything" "$(result_of $?)" $((SECONDS - s)) ""
    run_step "ctest -L engine" 400 ctest --test-dir "$build" -L engine --output-on-failure --timeout 120 -j "$(nproc)"
  fi
  if [[ -n $opt_sanitize ]]; then
    if ! command -v compute-sanitizer >/dev/null; then
      row compute-sanitizer "not here" 0 ""
      return
    fi
    for tool in memcheck racecheck; do
      for t in $tests; do
        path=$(exe "$t")
        [[ -n $path ]] || continue
        BIFSCOPE_GPU_TEST_SYSTEMS=4096 run_step "$tool $t" 300 compute-sanitizer --tool "$tool" \
          --report-api-errors no --error-exitcode 99 "$path"
      done
    done
  fi
}
