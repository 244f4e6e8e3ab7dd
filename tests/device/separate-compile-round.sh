#!/usr/bin/env bash
# The first tier's compile (-rdc and nvJitLink, engine/cuda/jit_link_library.h) against whole-program
# compiles, in one machine start (issue #10), from the repository root with .device/ carried:
#   bash tests/device/separate-compile-round.sh
# SETTINGS="label:VAR=value VAR=value;...": the environments compared, interleaved, in every run
# (default: separate, the first tier as the app compiles it, against whole; for example
# "rare:;inlined:BIFSCOPE_CUDA_OUTLINE_RARE=0;whole:BIFSCOPE_NVRTC_SEPARATE=0"). Under each: cold
# compiles of every bundled model (RUNS times the small ones, Pleiades once unless SKIP_PLEIADES),
# the kernel benchmarks (KERNELS) on their first-tier module (BENCH_FIRST_TIER=1: whole-program where
# the setting compiles whole). Then the relief valve and bouncing ball studies through bifscope-cli
# under BIFSCOPE_NVRTC_SEPARATE 1 and 0 (tests/device/study-switch-round.sh); the GPU tests in TESTS
# first. The driver's JIT cache is off. Logs to $OUT; each test's and compile run's figures as they
# come (a run cut off at a lease's end still reports them), the table last. A short lease's round:
#   RUNS=2 TESTS=test_cuda_backend KERNELS="bench_cuda_lorenz bench_cuda_duffing" STUDIES= bash ...
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
IFS=';' read -ra settings <<<"${SETTINGS:-separate:BIFSCOPE_NVRTC_SEPARATE=1;whole:BIFSCOPE_NVRTC_SEPARATE=0}"
labels=()
for s in "${settings[@]}"; do labels+=("${s%%:*}"); done
# run_with SETTING CMD...: CMD under the setting's variables
run_with() {
  local vars=${1#*:}
  shift
  env $vars "$@"
}
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
  echo "$t exit $? in $((SECONDS - s)) s: $(tail -2 "$out/$t.log" | head -1)" | tee -a "$out/tests.log"
done
for run in $(seq 1 "$runs"); do
  for s in "${settings[@]}"; do
    BENCH_COMPILE_MODELS=$small run_with "$s" timeout 300 "$bench/bench_cuda_compile" \
      >"$out/compile-${s%%:*}-$run.log" 2>&1
    echo "-- cold, ${s%%:*} run $run: $(awk '/cold/ {printf "%s %s ", $1, $6}' "$out/compile-${s%%:*}-$run.log")"
  done
done
if [[ -z ${SKIP_PLEIADES-} ]]; then
  for s in "${settings[@]}"; do
    BENCH_COMPILE_MODELS=pleiades run_with "$s" timeout 300 "$bench/bench_cuda_compile" \
      >"$out/compile-${s%%:*}-pleiades.log" 2>&1
    echo "-- cold, ${s%%:*}: $(awk '/cold/ {printf "%s %s ", $1, $6}' "$out/compile-${s%%:*}-pleiades.log")"
  done
fi
for b in $kernels; do
  for s in "${settings[@]}"; do
    BENCH_FIRST_TIER=1 run_with "$s" timeout 150 "$bench/$b" >"$out/$b-${s%%:*}.log" 2>&1
    echo "exit $?" >>"$out/$b-${s%%:*}.log"
  done
done
for s in $studies; do
  OUT=$out/study-$s BUILD=$build STUDY=$root/resources/studies/$s.json SWITCH=BIFSCOPE_NVRTC_SEPARATE A=1 B=0 \
    bash "$root/tests/device/study-switch-round.sh" >"$out/study-$s.log" 2>&1
done
cat "$out/build.log"
for label in "${labels[@]}"; do
  echo "== cold compiles (s), $label, runs 1..$runs"
  cat "$out"/compile-"$label"-*.log | awk '/cold/ {v[$1] = v[$1] " " $6} END {for (k in v) print k ":" v[k]}' | sort
done
echo "== fresh process (${labels[0]})"
grep -hE "warm-up|ready" "$out/compile-${labels[0]}-1.log" | head -4
echo "== kernels (${labels[*]})"
for b in $kernels; do
  for label in "${labels[@]}"; do
    echo "-- $b $label"
    grep -E "bifscope|kernel|median" "$out/$b-$label.log" | grep -v "min_blocks  *[0-9]" | head -8
  done
done
for s in $studies; do
  echo "== $s"
  grep -E "run|largest" "$out/study-$s.log"
done
