# round.sh scaleout: big runs and many processes on one node (issue 14), with Open MPI and the HDF5
# that prep-hdf5.sh carries. Parts (--skip leaves them out):
#   tests  the runner's GPU tests (test_cuda_backend takes about 2 minutes)
#   multi  bench_cuda_multi_gpu, its batches' timeline in the log
#   mpi    `mpirun -n 2 bifscope-cli run` (a GPU per rank) against one process on one GPU: the same
#          rows; a Duffing diagram at 2^18 values in blocks of 16384 and 65536 (per-block cost)
#   same   a streamed 2 x 10^6-system CUDA map in blocks of 100000: the rows with two blocks at once,
#          one at a time (BIF_STREAM_BLOCKS_AT_ONCE=1) and the CPU backend's, bit for bit
#   host   bench_host_side: the host side of a 10^8-system map without kernels
#   big    the 10^8-system Lorenz map to HDF5 on GPU 0 (blocks of 2^22, 2^21, 2^20) and on all
#          GPUs, and the 10^9-system map on all: wall time and peak RSS, each file removed after
mode_scaleout() {
  local tests="test_cuda_multi_gpu test_cuda_chunks test_cuda_gpu test_cuda_backend" t cli
  build_targets bifscope-cli bench_cuda_multi_gpu bench_host_side $tests
  cli=$(exe bifscope-cli)
  if ldd "$cli" 2>/dev/null | grep -q libmpi; then row "bifscope-cli" "with MPI" 0 ""; else row "bifscope-cli" "NO MPI" 0 ""; fi
  if ! skipped tests; then
    for t in $tests; do run_program "$t" 300; done
  fi
  if ! skipped multi; then
    BIFSCOPE_CUDA_TIMELINE=1 run_program bench_cuda_multi_gpu 300
  fi
  skipped mpi || scaleout_mpi "$cli"
  skipped same || scaleout_same "$cli"
  if ! skipped host; then
    run_program bench_host_side 300 --systems 100000000 --out "$build/bench.h5"
    rm -f "$build/bench.h5"
  fi
  skipped big || scaleout_big "$cli"
}

scaleout_mpi() {
  local cli=$1 study=$build/duffing_262144.json blocks
  local mpi=(mpirun --allow-run-as-root --oversubscribe -n 2)
  write_duffing_diagram "$study" 262144 512
  run_step "one process, --gpus 0" 120 "$cli" run "$study" --backend cuda --gpus 0 --quiet --out "$build/one.csv"
  BIFSCOPE_CUDA_TIMELINE=1 run_step "mpirun -n 2" 120 "${mpi[@]}" -x BIFSCOPE_CUDA_TIMELINE "$cli" run "$study" \
    --backend cuda --out "$build/two_ranks.csv"
  # the timeline names the GPU (ordinal) of every batch, with the process id: one GPU per rank
  row "  batches per rank and GPU" "" "" "$(awk '$1 == "timeline" && $5 == "batch" {n["pid " $2 " GPU " $4]++}
    END {for (k in n) printf "%s: %d; ", k, n[k]}' "$logs/mpirun_-n_2.log")"
  same_rows "rows, 2 ranks against 1 process" "$build/one.csv" "$build/two_ranks.csv"
  rm -f "$build"/one.csv "$build"/two_ranks.csv
  run_step "one process, all GPUs, HDF5" 120 "${measure[@]}" "$cli" run "$study" --backend cuda --out "$build/d.h5"
  rm -f "$build/d.h5"
  for blocks in 16384 65536; do
    run_step "mpirun -n 2, blocks of $blocks" 120 "${measure[@]}" "${mpi[@]}" "$cli" run "$study" --backend cuda \
      --block-systems $blocks --out "$build/d.h5"
    rm -f "$build/d.h5"
  done
}

scaleout_same() {
  local cli=$1 period
  for period in true false; do
    write_lorenz_map "$build/lorenz_2e6.json" 2000 1000 "$period"
    BIF_STREAM_BLOCKS_AT_ONCE=1 run_step "map 2e6 period=$period, cuda one block at a time" 300 "$cli" run \
      "$build/lorenz_2e6.json" --backend cuda --block-systems 100000 --out "$build/one.csv" --quiet
    run_step "map 2e6 period=$period, cuda" 300 "$cli" run "$build/lorenz_2e6.json" --backend cuda \
      --block-systems 100000 --out "$build/two.csv" --quiet
    run_step "map 2e6 period=$period, cpu" 300 "$cli" run "$build/lorenz_2e6.json" --backend cpu \
      --block-systems 100000 --out "$build/cpu.csv" --quiet
    same_rows "  two blocks at once against one" "$build/one.csv" "$build/two.csv"
    same_rows "  cuda against cpu" "$build/two.csv" "$build/cpu.csv"
    rm -f "$build/one.csv" "$build/two.csv" "$build/cpu.csv"
  done
}

# big LABEL STUDY [ARGS...]: a map streamed to HDF5: wall time and peak RSS (measure), file size.
scaleout_map() {
  local label=$1 study=$2
  shift 2
  run_step "$label" 300 "${measure[@]}" "$cli" run "$study" --backend cuda "$@" --out "$build/map.h5"
  row "  result" "" "" "$(head -1 "$logs/$(log_name "$label").log" | cut -c1-60), $(du -m "$build/map.h5" 2>/dev/null | cut -f1) MB"
  rm -f "$build/map.h5"
}

scaleout_big() {
  local cli=$1
  write_lorenz_map "$build/lorenz_1e8.json" 10000 10000 false
  write_lorenz_map "$build/lorenz_1e9.json" 31623 31623 false
  scaleout_map "10^8 warm-up, GPU 0" "$build/lorenz_1e8.json" --gpus 0
  scaleout_map "10^8 on GPU 0" "$build/lorenz_1e8.json" --gpus 0
  scaleout_map "10^8, GPU 0, blocks of 2^21" "$build/lorenz_1e8.json" --gpus 0 --block-systems 2097152
  scaleout_map "10^8, GPU 0, blocks of 2^20" "$build/lorenz_1e8.json" --gpus 0 --block-systems 1048576
  (($(gpu_count) > 1)) || return 0
  scaleout_map "10^8 on all GPUs" "$build/lorenz_1e8.json"
  scaleout_map "10^9 (31623^2) on all GPUs" "$build/lorenz_1e9.json"
}
