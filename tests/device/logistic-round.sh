#!/usr/bin/env bash
# A GPU round for the logistic diagram (issue 12), from the repository root with .device/ carried:
#   bash tests/device/logistic-round.sh
# Builds bench_cuda_logistic, times it with the kernels' tuning switches (LOGISTIC_VARIANTS: lines of
# NVRTC options, "-" for none) and the two phases apart (LOGISTIC_PHASES: "T,R ..." transient and
# recorded iterates), and splits one run's time between the
# map-diagram pass and the advance kernel with nsys where the server has it. LOGISTIC_TESTS=1: the
# CUDA/CPU agreement tests too (test_cuda_backend, test_cuda_gpu_models: every example study, the
# maps included). Logs to $OUT; a table last.
set -uo pipefail
root=$(pwd)
out=${OUT:-$root/build-logistic-logs}
mkdir -p "$out"
source "$root/tests/device/round_support.sh"
use_device_libraries "$root"
build=/tmp/bifscope-logistic
export BIFSCOPE_CUDA_CACHE_DIR=$build/module-cache
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBIFSCOPE_GUI=OFF -DBIFSCOPE_SANITIZE=OFF \
    -DBIFSCOPE_FUZZ=OFF -DBIFSCOPE_BENCH=ON >/dev/null &&
    cmake --build "$build" -j "$(nproc)" --target bench_cuda_logistic test_cuda_backend test_cuda_gpu_models 2>&1 |
    tail -1
} >"$out/build.log" 2>&1
bench=$build/tests/bench/bench_cuda_logistic
if [[ -n ${LOGISTIC_TESTS:-} ]]; then
  for t in test_cuda_gpu_models test_cuda_backend; do
    timeout 200 "$build/tests/cuda/$t" >"$out/$t.log" 2>&1
    echo "$t exit $?" >>"$out/tests.log"
  done
fi
variants=${LOGISTIC_VARIANTS:-"-"}
while IFS= read -r options; do
  [[ -z $options ]] && continue
  for phases in ${LOGISTIC_PHASES:-"10000,1000 10000,1 0,1000"}; do
    phases=${phases/,/ }
    nvrtc=$options
    [[ $nvrtc == - ]] && nvrtc=
    echo "== options [$options] iterates [$phases]"
    BENCH_NVRTC_OPTIONS=$nvrtc BENCH_LOGISTIC_ITERATES=$phases timeout 60 "$bench" 2>&1
  done
done <<<"$variants" >"$out/variants.log"
profiler=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
if [[ -n $profiler ]]; then
  (cd "$build" && timeout 60 "$profiler" profile -o "$build/logistic" --force-overwrite true "$bench" &&
    timeout 60 "$profiler" stats -r cuda_gpu_kern_sum "$build/logistic.nsys-rep") >"$out/nsys.log" 2>&1
else
  echo "no nsys on this server" >"$out/nsys.log"
fi
tail -2 "$out/build.log"
cat "$out/tests.log" 2>/dev/null
grep -h -E "test cases|FAILED" "$out"/test_cuda_*.log 2>/dev/null | head
grep -E "^==|^logistic|registers" "$out/variants.log" | cut -c1-150
grep -E "bif_|hand_|Time" "$out/nsys.log" | cut -c1-160 | head -20
