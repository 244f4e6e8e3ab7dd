#!/usr/bin/env bash
# Separate compilation (-rdc and nvJitLink, engine/cuda/jit_link_library.h) against whole-program
# compiles, in one machine start (issue #10), from the repository root with .device/ carried:
#   bash tests/device/separate-compile-round.sh
# Separate (1) and whole (0) interleaved: cold compiles of every bundled model (RUNS times the small
# ones, Pleiades once; BIFSCOPE_NVRTC_SEPARATE), the kernel benchmarks (KERNELS; BENCH_FIRST_TIER),
# the relief valve and bouncing ball studies through bifscope-cli (tests/device/study-switch-round.sh:
# with separate compiles allowed, the cold run is the tiered compile's first module and the later
# ones the whole-program module it left in the cache); the GPU tests in TESTS first. The driver's
# JIT cache is off. Logs to $OUT; the table last.
set -uo pipefail
root=$(pwd)
out=${OUT:-$root/build-separate-compile-logs}
mkdir -p "$out"
source "$root/tests/device/round_support.sh"
use_device_libraries "$root"
export CUDA_CACHE_DISABLE=1
build=/tmp/bifscope-compile-variants
small="bouncing brusselator chua logistic duffing vanderpol henon hodgkin keller lorenz relief robertson rossler standard"
runs=${RUNS:-3}
kernels=${KERNELS-"bench_cuda_heavy_rhs bench_cuda_duffing bench_cuda_lorenz bench_cuda_mpgos"}
tests=${TESTS-}
studies=${STUDIES-"relief_valve_impacts bouncing_ball_lyapunov"}
start=$SECONDS
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBIFSCOPE_GUI=OFF -DBIFSCOPE_SANITIZE=OFF \
    -DBIFSCOPE_FUZZ=OFF -DBIFSCOPE_BENCH=ON 2>&1 | grep -E "Error"
  cmake --build "$build" -j "$(nproc)" --target bench_cuda_compile bifscope-cli $kernels $tests 2>&1 |
    grep -E "error|FAILED"
  echo "build took $((SECONDS - start)) s"
} >"$out/build.log" 2>&1
bench=$build/tests/bench
for t in $tests; do
  s=$SECONDS
  BIFSCOPE_CUDA_CACHE_DIR=$build/module-cache timeout 300 "$build/tests/cuda/$t" >"$out/$t.log" 2>&1
  echo "$t exit $? in $((SECONDS - s)) s: $(tail -2 "$out/$t.log" | head -1)" >>"$out/tests.log"
done
for run in $(seq 1 "$runs"); do
  for separate in 1 0; do
    BIFSCOPE_NVRTC_SEPARATE=$separate BENCH_COMPILE_MODELS=$small timeout 300 "$bench/bench_cuda_compile" \
      >"$out/compile-$separate-$run.log" 2>&1
  done
done
if [[ -z ${SKIP_PLEIADES-} ]]; then
  for separate in 1 0; do
    BIFSCOPE_NVRTC_SEPARATE=$separate BENCH_COMPILE_MODELS=pleiades timeout 300 "$bench/bench_cuda_compile" \
      >"$out/compile-$separate-pleiades.log" 2>&1
  done
fi
for b in $kernels; do
  for separate in 1 0; do
    BENCH_FIRST_TIER=$separate timeout 150 "$bench/$b" >"$out/$b-$separate.log" 2>&1
    echo "exit $?" >>"$out/$b-$separate.log"
  done
done
for s in $studies; do
  OUT=$out/study-$s BUILD=$build STUDY=$root/resources/studies/$s.json SWITCH=BIFSCOPE_NVRTC_SEPARATE A=1 B=0 \
    bash "$root/tests/device/study-switch-round.sh" >"$out/study-$s.log" 2>&1
done
cat "$out/build.log"
[[ -n $tests ]] && cat "$out/tests.log"
for separate in 1 0; do
  echo "== cold compiles (s), separate=$separate, runs 1..$runs"
  cat "$out"/compile-$separate-*.log | awk '/cold/ {v[$1] = v[$1] " " $6} END {for (k in v) print k ":" v[k]}' | sort
done
echo "== fresh process (separate=1)"
grep -hE "warm-up|ready" "$out"/compile-1-1.log | head -4
echo "== kernels (separate=1, then 0)"
for b in $kernels; do
  for separate in 1 0; do
    echo "-- $b $separate"
    grep -E "bifscope|kernel|median" "$out/$b-$separate.log" | grep -v "min_blocks  *[0-9]" | head -8
  done
done
for s in $studies; do
  echo "== $s"
  grep -E "run|largest" "$out/study-$s.log"
done
