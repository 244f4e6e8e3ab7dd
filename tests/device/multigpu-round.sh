#!/usr/bin/env bash
# The multi-GPU round (issue 14, "All GPUs of a node"), from the repository root on a server with two
# or more GPUs (after ../shared/tools/device-prep.sh, with .device/ carried where it exists):
#   bash tests/device/multigpu-round.sh [SOURCE_DIR]
# Builds the batch-sizing test, the chunking test, the multi-GPU test and benchmark and bifscope-cli,
# then runs the tests (bit for bit on one and on two GPUs), `bifscope-cli run --gpus` (one GPU, both,
# a bad one) and bench_cuda_multi_gpu (MPGOS Duffing diagram at 2^20 values of k and a 2048^2 Duffing
# period/Lyapunov map, one GPU against all, end to end; bench_cuda_mpgos's 46080 systems on one GPU). Logs to $OUT; the benchmark's table last.
# About 5 minutes on 2 H200s. SKIP="tests cli bench" leaves parts out.
set -uo pipefail
root=$(pwd)
src=${1:-$root}
out=${OUT:-$root/build-multigpu-logs}
mkdir -p "$out"
source "$root/tests/device/round_support.sh"
use_device_libraries "$root"
build=/tmp/bifscope-multigpu
export BIFSCOPE_CUDA_CACHE_DIR=$build/module-cache
skip=" ${SKIP:-} "
start=$SECONDS
elapsed() { echo "$((SECONDS - start)) s"; }
{
  nvidia-smi --query-gpu=index,name,driver_version --format=csv
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBIFSCOPE_GUI=OFF -DBIFSCOPE_SANITIZE=OFF \
    -DBIFSCOPE_FUZZ=OFF -DBIFSCOPE_BENCH=ON >/dev/null &&
    cmake --build "$build" -j "$(nproc)" --target test_cuda_lane_plan test_cuda_chunks test_cuda_multi_gpu \
      bench_cuda_multi_gpu bench_cuda_mpgos bifscope-cli 2>&1 | tail -3
  echo "build took $(elapsed)"
} >"$out/build.log" 2>&1
if [[ $skip != *" tests "* ]]; then
  for t in test_cuda_lane_plan test_cuda_multi_gpu test_cuda_chunks; do
    s=$SECONDS
    timeout 150 "$build/tests/cuda/$t" >"$out/$t.log" 2>&1
    echo "$t exit $? in $((SECONDS - s)) s" >>"$out/tests.log"
  done
fi
if [[ $skip != *" cli "* ]]; then
  cli=$build/app/bifscope-cli
  write_duffing_diagram "$build/duffing_65536.json" "$src" 65536 256
  {
    for gpus in 0 0,1; do
      s=$SECONDS
      timeout 60 "$cli" run "$build/duffing_65536.json" --backend cuda --gpus $gpus --quiet \
        --out "$build/duffing_$gpus.csv"
      echo "--gpus $gpus: exit $? in $((SECONDS - s)) s"
    done
    # the values, without the '#' lines (run information, times, the study with its "gpus")
    grep -h "^#.*batches per GPU" "$build/duffing_0,1.csv"
    if cmp -s <(grep -v "^#" "$build/duffing_0.csv") <(grep -v "^#" "$build/duffing_0,1.csv"); then
      echo "CSV values of --gpus 0 and --gpus 0,1: identical ($(grep -vc "^#" "$build/duffing_0.csv") lines)"
    else echo "CSV values of --gpus 0 and --gpus 0,1: DIFFER"; fi
    timeout 60 "$cli" run "$build/duffing_65536.json" --backend cuda --gpus 0,7 --quiet --out "$build/bad.csv"
    echo "--gpus 0,7: exit $?"
    rm -f "$build"/duffing_*.csv "$build/bad.csv"
  } >"$out/cli.log" 2>&1
fi
if [[ $skip != *" bench "* ]]; then
  timeout 240 "$build/tests/bench/bench_cuda_multi_gpu" >"$out/bench_cuda_multi_gpu.log" 2>&1
  echo "exit $?" >>"$out/bench_cuda_multi_gpu.log"
  # the small-study case on one GPU must not regress (46080 systems: one round of batches)
  timeout 90 "$build/tests/bench/bench_cuda_mpgos" >"$out/bench_cuda_mpgos.log" 2>&1
fi
echo "== build"; cat "$out/build.log"
echo "== tests"; cat "$out/tests.log" 2>/dev/null
grep -h -E "test cases|FAILED|SKIPPED|batches per GPU" "$out"/test_cuda_*.log 2>/dev/null | head -20
echo "== cli"; cat "$out/cli.log" 2>/dev/null
echo "== bench"; grep -A4 -E "^multi-GPU end to end" "$out/bench_cuda_multi_gpu.log" 2>/dev/null ||
  tail -20 "$out/bench_cuda_multi_gpu.log" 2>/dev/null
grep -E "^exit" "$out/bench_cuda_multi_gpu.log" 2>/dev/null
grep -h "end to end" "$out/bench_cuda_mpgos.log" 2>/dev/null
echo "round took $(elapsed)"
