#!/usr/bin/env bash
# A quick GPU round, from the repository root with .device/ carried: builds the GPU tests named in
# TESTS (default: the render kernels and the kept maps and points) and runs each, logs to $OUT, a
# line per test last. For checking a change to kernels/ or engine/cuda between full rounds.
set -uo pipefail
root=$(pwd)
out=${OUT:-$root/build-gpu-tests-logs}
mkdir -p "$out"
source "$root/tests/device/round_support.sh"
use_device_libraries "$root"
build=/tmp/bifscope-gpu-tests
export BIFSCOPE_CUDA_CACHE_DIR=$build/module-cache
tests=${TESTS:-test_cuda_render_kernels test_cuda_device_map}
start=$SECONDS
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBIFSCOPE_GUI=OFF -DBIFSCOPE_SANITIZE=OFF \
    -DBIFSCOPE_FUZZ=OFF -DBIFSCOPE_BENCH=OFF 2>&1 | grep -E "Error" ;
  cmake --build "$build" -j "$(nproc)" --target $tests 2>&1 | grep -E "error|FAILED" ; 
  echo "build took $((SECONDS - start)) s"
} >"$out/build.log" 2>&1
for t in $tests; do
  s=$SECONDS
  timeout 300 "$build/tests/cuda/$t" >"$out/$t.log" 2>&1
  echo "$t exit $? in $((SECONDS - s)) s: $(tail -2 "$out/$t.log" | head -1)" >>"$out/tests.log"
done
cat "$out/build.log" "$out/tests.log"
