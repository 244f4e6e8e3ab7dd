# round.sh multigpu: all GPUs of one node (two or more). The runner's tests (batch sizing, batches
# dealt over lanes and GPUs, bit for bit against one GPU), `bifscope-cli run --gpus` on one GPU, on
# all and on one that does not exist (identical CSV values, a clear refusal), and
# bench_cuda_multi_gpu (the MPGOS diagram at 2^20 values and a 2048^2 Duffing period/Lyapunov map,
# one GPU against all, end to end, the batches' timeline in its log) with bench_cuda_mpgos (one
# round of batches on one GPU must not regress). --skip "tests cli bench" leaves parts out.
mode_multigpu() {
  local t cli last
  build_targets test_cuda_lane_plan test_cuda_chunks test_cuda_multi_gpu bench_cuda_multi_gpu bench_cuda_mpgos \
    bifscope-cli
  if ! skipped tests; then
    for t in test_cuda_lane_plan test_cuda_multi_gpu test_cuda_chunks; do run_program "$t" 300; done
  fi
  cli=$(exe bifscope-cli)
  if ! skipped cli && [[ -n $cli ]]; then
    last=$(($(gpu_count) - 1))
    write_duffing_diagram "$build/duffing_65536.json" 65536 256
    run_step "cli --gpus 0" 120 "$cli" run "$build/duffing_65536.json" --backend cuda --gpus 0 --quiet \
      --out "$build/duffing_one.csv"
    run_step "cli --gpus 0..$last" 120 "$cli" run "$build/duffing_65536.json" --backend cuda \
      --gpus "$(seq -s, 0 "$last")" --quiet --out "$build/duffing_all.csv"
    same_rows "rows, one GPU against all" "$build/duffing_one.csv" "$build/duffing_all.csv"
    timeout 60 "$cli" run "$build/duffing_65536.json" --backend cuda --gpus 0,17 --quiet --out "$build/bad.csv" \
      >"$logs/cli-bad-gpu.log" 2>&1
    row "cli --gpus 0,17 (no GPU 17)" "exit $?" 0 "$(tail -1 "$logs/cli-bad-gpu.log" | cut -c1-90)"
    rm -f "$build"/duffing_*.csv "$build/bad.csv"
  fi
  if ! skipped bench; then
    BIFSCOPE_CUDA_TIMELINE=1 run_program bench_cuda_multi_gpu 300
    row "  multi-GPU end to end" "" "" "$(grep -A3 -E "^multi-GPU end to end" "$logs/bench_cuda_multi_gpu.log" |
      tr -s ' \n' ' ' | cut -c1-200)"
    run_program bench_cuda_mpgos 120
  fi
}
