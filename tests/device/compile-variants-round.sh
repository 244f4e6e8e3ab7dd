#!/usr/bin/env bash
# Cold compiles and kernel speed under kernel-header switches (issue #10), from the repository root
# with .device/ carried:
#   VARIANTS="label=-DSWITCH ...;label2=..." bash tests/device/compile-variants-round.sh
# Each variant's NVRTC options go to bench_cuda_compile (BENCH_COMPILE_VARIANTS, RUNS times, the
# backend's own choice last in every run) and to the kernel benchmarks (BENCH_NVRTC_OPTIONS): the
# Hodgkin-Huxley and Keller-Miksis kernels (bench_cuda_heavy_rhs), Duffing RKCK45, Lorenz RK4 and
# MPGOS end to end; the GPU tests in TESTS first. The driver's JIT cache is off. Logs to $OUT; the table last.
set -uo pipefail
root=$(pwd)
out=${OUT:-$root/build-compile-variants-logs}
mkdir -p "$out"
source "$root/tests/device/round_support.sh"
use_device_libraries "$root"
export CUDA_CACHE_DISABLE=1
build=/tmp/bifscope-compile-variants
variants=${VARIANTS-"carry=-DBIF_ROLLED_CARRY;stages=-DBIF_ROLLED_STAGES;both=-DBIF_ROLLED_CARRY -DBIF_ROLLED_STAGES"}
models=${MODELS:-"duffing lorenz relief hodgkin keller"}
runs=${RUNS:-3}
kernels=${KERNELS:-"bench_cuda_heavy_rhs bench_cuda_duffing bench_cuda_lorenz bench_cuda_mpgos"}
tests=${TESTS:-}
start=$SECONDS
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBIFSCOPE_GUI=OFF -DBIFSCOPE_SANITIZE=OFF \
    -DBIFSCOPE_FUZZ=OFF -DBIFSCOPE_BENCH=ON 2>&1 | grep -E "Error"
  cmake --build "$build" -j "$(nproc)" --target bench_cuda_compile $kernels $tests 2>&1 | grep -E "error|FAILED"
  echo "build took $((SECONDS - start)) s"
} >"$out/build.log" 2>&1
bench=$build/tests/bench
compile_variants=""
items=()
[[ -n $variants ]] && IFS=';' read -ra items <<<"$variants"
for item in "${items[@]}"; do
  compile_variants+="${item%%=*}::${item#*=};"
done
for t in $tests; do
  s=$SECONDS
  BIFSCOPE_CUDA_CACHE_DIR=$build/module-cache timeout 300 "$build/tests/cuda/$t" >"$out/$t.log" 2>&1
  echo "$t exit $? in $((SECONDS - s)) s: $(tail -2 "$out/$t.log" | head -1)" >>"$out/tests.log"
done
mkdir -p "$out/programs"
BENCH_COMPILE_DUMP=$out/programs BENCH_COMPILE_MODELS="duffing hodgkin keller" timeout 120 "$bench/bench_cuda_compile" \
  >"$out/compile-dump.log" 2>&1
python3 "$root/tests/device/nvrtc_phases.py" "$root/kernels" 3 "$out"/programs/*_backend.cu >"$out/phases.log" 2>&1
for run in $(seq 1 "$runs"); do
  BENCH_COMPILE_MODELS=$models BENCH_COMPILE_VARIANTS=$compile_variants timeout 300 "$bench/bench_cuda_compile" \
    >"$out/compile-$run.log" 2>&1
done
for item in "base=" "${items[@]}"; do
  label=${item%%=*}
  for b in $kernels; do
    BENCH_NVRTC_OPTIONS=${item#*=} timeout 150 "$bench/$b" >"$out/$b-$label.log" 2>&1
    echo "exit $?" >>"$out/$b-$label.log"
  done
done
cat "$out/build.log"
[[ -n $tests ]] && cat "$out/tests.log"
echo "== cold compiles (s), runs 1..$runs"
cat "$out"/compile-*.log | awk '/cold/ {k = $1 " " $4; v[k] = v[k] " " $6} END {for (k in v) print k ":" v[k]}' | sort
echo "== NVRTC phases (s; median of 3 in one process)"
cat "$out/phases.log"
echo "== kernels"
for item in "base=" "${items[@]}"; do
  label=${item%%=*}
  for b in $kernels; do
    echo "-- $b $label"
    grep -E "bifscope|kernel|median" "$out/$b-$label.log" | grep -v "min_blocks  *[0-9]"
  done
done
