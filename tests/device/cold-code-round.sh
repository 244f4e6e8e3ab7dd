#!/usr/bin/env bash
# A GPU round for the compile-time work on the kernels' code size, from the repository root with
# .device/ carried:   bash tests/device/cold-code-round.sh [SOURCE_DIR]
# Compares, for compile time (bench_cuda_compile, cold) and kernel speed (Lorenz, Duffing, MPGOS
# against the hand-written kernels), the variants of the switches in bif/config.h and
# bif/study/common.h: the study programs' once-per-system parts inlined (BIF_ENSEMBLE_INLINE_COLD,
# the old code) or out of line (default), transcendental functions inlined (default) or out of line
# (BIF_OUTLINE_MATH), and the register bound (min blocks 1 = none). Runs the GPU tests first.
# Logs to $OUT; a summary last.
set -uo pipefail
root=$(pwd)
src=${1:-$root}
out=${OUT:-$root/build-cold-round-logs}
mkdir -p "$out"
[[ -f $root/.device/env.sh ]] && source "$root/.device/env.sh"
build=/tmp/bifscope-cold-round
export BIFSCOPE_CUDA_CACHE_DIR=$build/module-cache
start=$SECONDS
{
  nvidia-smi --query-gpu=name,driver_version --format=csv
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBIFSCOPE_GUI=OFF -DBIFSCOPE_SANITIZE=OFF \
    -DBIFSCOPE_FUZZ=OFF -DBIFSCOPE_BENCH=ON >/dev/null &&
    cmake --build "$build" -j "$(nproc)" --target test_cuda_gpu test_cuda_gpu_models test_cuda_backend \
      bench_cuda_lorenz bench_cuda_duffing bench_cuda_mpgos bench_cuda_compile 2>&1 | tail -3
  echo "build took $((SECONDS - start)) s"
} >"$out/build.log" 2>&1
if [[ ${SKIP_TESTS:-0} != 1 ]]; then
  for t in test_cuda_gpu test_cuda_gpu_models test_cuda_backend; do
    s=$SECONDS
    timeout 150 "$build/tests/cuda/$t" >"$out/$t.log" 2>&1
    echo "$t exit $? in $((SECONDS - s)) s" >>"$out/tests.log"
  done
fi
bench=$build/tests/bench
IFS=';' read -ra variants <<<"${KERNEL_VARIANTS:--DBIF_ENSEMBLE_INLINE_COLD;;-DBIF_OUTLINE_MATH}"
for v in "${variants[@]}"; do
  for b in bench_cuda_lorenz bench_cuda_duffing bench_cuda_mpgos; do
    echo "== variant '$v': $b"
    BENCH_NVRTC_OPTIONS="$v" timeout 90 "$bench/$b" 2>&1 | grep -E "ratio|FAILED|end to end|min_blocks"
  done
done >"$out/kernel-variants.log" 2>&1
echo "== no bound (min blocks 1), default code" >>"$out/kernel-variants.log"
for b in bench_cuda_duffing bench_cuda_mpgos; do
  BENCH_MIN_BLOCKS=1 timeout 90 "$bench/$b" 2>&1 | grep -E "ratio|min_blocks|end to end" >>"$out/kernel-variants.log"
done
BENCH_COMPILE_MODELS=${COMPILE_MODELS:-"duffing lorenz relief hodgkin keller"} \
  BENCH_COMPILE_VARIANTS=${COMPILE_VARIANTS:-"inline-cold::-DBIF_ENSEMBLE_INLINE_COLD;nobound:1:;outline-math::-DBIF_OUTLINE_MATH;outline-nobound:1:-DBIF_OUTLINE_MATH"} \
  timeout 240 "$bench/bench_cuda_compile" >"$out/compile.log" 2>&1
echo "exit $?" >>"$out/compile.log"
echo "== build"; tail -3 "$out/build.log"
echo "== tests"; cat "$out/tests.log" 2>/dev/null
grep -h -E "test cases|FAILED" "$out"/test_cuda_*.log 2>/dev/null | head -20
echo "== kernels"; cat "$out/kernel-variants.log"
echo "== compile"; grep -E "cold|exit|failures" "$out/compile.log"
echo "round took $((SECONDS - start)) s"
