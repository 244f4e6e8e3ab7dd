#!/usr/bin/env bash
# The GPU round of session 8, from the repository root with .device/ carried (after
# ../shared/tools/device-prep.sh and tests/device/prep-hdf5.sh):
#   bash tests/device/session8-round.sh [SOURCE_DIR]
# Builds the GPU tests, the kernel benchmarks and bifscope-cli (with HDF5), then runs every GPU test
# (the CPU/GPU agreement over every example study, multi-GPU, continuation chains, render kernels),
# the logistic / Lorenz / Duffing / MPGOS benchmarks against their hand-written kernels, the
# render-kernel timings, and the 10^8-system Lorenz map streamed to HDF5 (wall time, peak memory).
# Logs to $OUT; a summary last. SKIP="tests big" leaves parts out.
set -uo pipefail
root=$(pwd)
src=${1:-$root}
out=${OUT:-$root/build-session8-logs}
mkdir -p "$out"
source "$root/tests/device/round_support.sh"
use_device_libraries "$root"
build=/tmp/bifscope-session8
export BIFSCOPE_CUDA_CACHE_DIR=$build/module-cache
skip=" ${SKIP:-} "
start=$SECONDS
tests="test_cuda_gpu test_cuda_gpu_models test_cuda_backend test_cuda_multi_gpu test_cuda_render_kernels
  test_cuda_lane_plan test_cuda_chunks test_cuda_device_map"
benches="bench_cuda_logistic bench_cuda_lorenz bench_cuda_duffing bench_cuda_mpgos bench_cuda_heavy_rhs
  bench_cuda_progressive"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBIFSCOPE_GUI=OFF -DBIFSCOPE_SANITIZE=OFF \
    -DBIFSCOPE_FUZZ=OFF -DBIFSCOPE_BENCH=ON 2>&1 | grep -E "HDF5|Error" &&
    cmake --build "$build" -j "$(nproc)" --target $tests $benches bifscope-cli 2>&1 | tail -2
  echo "build took $((SECONDS - start)) s"
} >"$out/build.log" 2>&1
if [[ $skip != *" tests "* ]]; then
  for t in $tests; do
    s=$SECONDS
    timeout 300 "$build/tests/cuda/$t" >"$out/$t.log" 2>&1
    echo "$t exit $? in $((SECONDS - s)) s" >>"$out/tests.log"
  done
  timeout 60 "$build/tests/cuda/test_cuda_render_kernels" "[.timing]" >"$out/render_timing.log" 2>&1
fi
for b in $benches; do
  timeout 90 "$build/tests/bench/$b" >"$out/$b.log" 2>&1
  echo "exit $?" >>"$out/$b.log"
done
if [[ $skip != *" big "* ]]; then
  write_lorenz_1e8 "$build/lorenz_1e8.json" "$src"
  {
    measure "$build/app/bifscope-cli" run "$build/lorenz_1e8.json" --backend cuda --out "$build/lorenz_1e8.h5"
    measure "$build/app/bifscope-cli" run "$build/lorenz_1e8.json" --backend cuda --out "$build/lorenz_1e8.h5"
    rm -f "$build/lorenz_1e8.h5"
  } >"$out/big-run.log" 2>&1
fi
echo "== build"; cat "$out/build.log"
echo "== tests"; cat "$out/tests.log" 2>/dev/null
grep -h -E "test cases|FAILED|SKIPPED|misses" "$out"/test_cuda_*.log 2>/dev/null | head -20
grep -h -E "ms|passed" "$out/render_timing.log" 2>/dev/null | head -6
echo "== benchmarks"
grep -h -E "^logistic|ratio hand|end to end|kernel .* ms \||complete|exit [^0]" "$out"/bench_cuda_*.log | cut -c1-170 | head -30
echo "== big run"; grep -E "exit|wall" "$out/big-run.log" 2>/dev/null
echo "round took $((SECONDS - start)) s"
