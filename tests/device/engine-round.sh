#!/usr/bin/env bash
# A focused GPU round for engine changes, from the repository root with .device/ carried:
#   bash tests/device/engine-round.sh
# Builds the gpu-labelled tests and the kernel benchmarks only, runs the tests, the Lorenz, Duffing
# and MPGOS benchmarks (MPGOS also with BIF_EVENT_SAMPLES=0, the cost of sampling events inside a
# step), the compile benchmark on two small models (cold, cached, a fresh process after warm-up),
# and compute-sanitizer memcheck on the backend test when time is left. Logs to $OUT, summary last.
set -uo pipefail
root=$(pwd)
out=${OUT:-$root/build-engine-round-logs}
mkdir -p "$out"
[[ -f .device/env.sh ]] && source .device/env.sh
build=/tmp/bifscope-engine-round
export BIFSCOPE_CUDA_CACHE_DIR=$build/module-cache
start=$SECONDS
{
  nvidia-smi --query-gpu=name,driver_version --format=csv
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBIFSCOPE_GUI=OFF -DBIFSCOPE_SANITIZE=OFF \
    -DBIFSCOPE_FUZZ=OFF -DBIFSCOPE_BENCH=ON >/dev/null &&
    cmake --build "$build" -j "$(nproc)" --target test_cuda_gpu test_cuda_gpu_models test_cuda_backend \
      test_cuda_chunks bench_cuda_lorenz bench_cuda_duffing bench_cuda_mpgos bench_cuda_compile 2>&1 | tail -3
  echo "build took $((SECONDS - start)) s"
} >"$out/build.log" 2>&1
for t in test_cuda_gpu test_cuda_gpu_models test_cuda_chunks test_cuda_backend; do
  s=$SECONDS
  timeout 150 "$build/tests/cuda/$t" >"$out/$t.log" 2>&1
  echo "$t exit $? in $((SECONDS - s)) s" >>"$out/tests.log"
done
bench=$build/tests/bench
for b in bench_cuda_lorenz bench_cuda_duffing bench_cuda_mpgos; do
  timeout 100 "$bench/$b" >"$out/$b.log" 2>&1
  echo "exit $?" >>"$out/$b.log"
done
BENCH_NVRTC_OPTIONS=-DBIF_EVENT_SAMPLES=0 timeout 100 "$bench/bench_cuda_mpgos" >"$out/bench_cuda_mpgos-no-samples.log" 2>&1
BENCH_COMPILE_MODELS="duffing lorenz" timeout 100 "$bench/bench_cuda_compile" >"$out/compile.log" 2>&1
if command -v compute-sanitizer >/dev/null && ((SECONDS - start < 380)); then
  BIFSCOPE_GPU_TEST_SYSTEMS=4096 timeout 120 compute-sanitizer --tool memcheck --report-api-errors no \
    --error-exitcode 99 "$build/tests/cuda/test_cuda_backend" >"$out/memcheck.log" 2>&1
  echo "memcheck exit $?" >>"$out/tests.log"
fi
echo "== build"; tail -4 "$out/build.log"
echo "== tests"; cat "$out/tests.log"
grep -h -E "test cases|FAILED|quick build|passed|failed" "$out"/test_cuda_*.log | head -30
echo "== benchmarks"
grep -h -E "ratio|end to end|exit|seconds|s end" "$out"/bench_cuda_*.log | grep -v "per system" | head -40
echo "== compile"; cat "$out/compile.log"
grep -h "ERROR SUMMARY" "$out/memcheck.log" 2>/dev/null
echo "round took $((SECONDS - start)) s"
