#!/usr/bin/env bash
# One short GPU round for the app's first tier (issue #10), for a lease with little device time
# left: from the repository root with .device/ carried,
#   bash tests/device/first-tier-round.sh
# Builds the backend test and the compile and kernel benchmarks; times the cold compiles of every
# bundled small model as the first tier ("rare", the app's separately compiled module) and as the
# whole program, interleaved, RUNS times; runs test_cuda_backend; Pleiades once each; the Lorenz
# and Duffing kernels against the hand-written ones. Prints each figure as it comes, so
# that a run cut off at the lease's end still reports what it measured; every log goes into one
# file under $OUT (at most 8 files come back).
set -uo pipefail
root=$(pwd)
out=${OUT:-$root/build-first-tier-logs}
mkdir -p "$out"
source "$root/tests/device/round_support.sh"
use_device_libraries "$root"
export CUDA_CACHE_DISABLE=1
build=/tmp/bifscope-first-tier
small="bouncing brusselator chua logistic duffing vanderpol henon hodgkin keller lorenz relief robertson rossler standard"
runs=${RUNS:-2}
log=$out/round.log
section() { echo "== $*" | tee -a "$log"; }
start=$SECONDS
section "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBIFSCOPE_GUI=OFF -DBIFSCOPE_SANITIZE=OFF \
  -DBIFSCOPE_FUZZ=OFF -DBIFSCOPE_BENCH=ON >>"$log" 2>&1
cmake --build "$build" -j "$(nproc)" --target test_cuda_backend bench_cuda_compile bench_cuda_duffing \
  bench_cuda_lorenz >>"$log" 2>&1 || section "BUILD FAILED"
section "build took $((SECONDS - start)) s"

# cold NAME SETTING MODELS: one bench_cuda_compile run, its cold lines printed
cold() {
  local label=$1 vars=$2 models=$3
  section "cold compiles, $label ($vars)"
  env $vars BENCH_COMPILE_MODELS="$models" timeout 200 "$build/tests/bench/bench_cuda_compile" 2>&1 |
    tee -a "$log" | grep -E "cold|warm-up|ready|FAILED" | awk '{$1 = $1; print}'
}
for run in $(seq 1 "$runs"); do
  cold "rare run $run" "BIFSCOPE_NVRTC_SEPARATE=1" "$small"
  cold "whole run $run" "BIFSCOPE_NVRTC_SEPARATE=0" "$small"
done
s=$SECONDS
BIFSCOPE_CUDA_CACHE_DIR=$build/module-cache timeout 240 "$build/tests/cuda/test_cuda_backend" >>"$log" 2>&1
section "test_cuda_backend exit $? in $((SECONDS - s)) s: $(grep -E "^(All tests passed|test cases:)" "$log" | tail -1)"
cold "rare" "BIFSCOPE_NVRTC_SEPARATE=1" pleiades
cold "whole" "BIFSCOPE_NVRTC_SEPARATE=0" pleiades
for b in bench_cuda_lorenz bench_cuda_duffing; do
  section "$b (whole-program module, against the hand-written kernel)"
  timeout 120 "$build/tests/bench/$b" 2>&1 | tee -a "$log" | grep -E "ratio|median|bifscope|hand" | head -8
done
section "round took $((SECONDS - start)) s"
