#!/usr/bin/env bash
# Cold compiles against kernel speed (issue #10), from the repository root with .device/ carried:
#   bash tests/device/compile-trade-round.sh [SOURCE_DIR]
# Compares the tree as it is ("after") with the same tree under the switches in $BEFORE ("before";
# default BIFSCOPE_NVRTC_SPLIT_COMPILE=1, NVRTC on one thread as before session 10; session 9
# compared BIFSCOPE_CUDA_EVERY_STEP_LOOP=1, every step loop the kernel may choose at run time):
#   - bench_cuda_compile, cold / cached / fresh-process figures of the small models and the
#     Hodgkin-Huxley and Keller-Miksis ones (the sections program, RKCK45 double, step observer on,
#     the driver's JIT cache off), the "after" figures also without a step observer, and Pleiades
#     (28 states) after only;
#   - the kernel benchmarks bench_cuda_lorenz (RK4), bench_cuda_duffing and bench_cuda_mpgos
#     (RKCK45) and bench_cuda_heavy_rhs (the Hodgkin-Huxley and Keller-Miksis kernels), each under
#     both;
#   - resources/studies/duffing_maxima.json (extremes between sections) run by bifscope-cli on the
#     GPU with a warm module cache, under both: its rows must be identical.
# About 4-5 minutes after the build. Logs to $OUT; the table last.
set -uo pipefail
root=$(pwd)
src=${1:-$root}
out=${OUT:-$root/build-compile-trade-logs}
before_env=${BEFORE:-BIFSCOPE_NVRTC_SPLIT_COMPILE=1}
export CUDA_CACHE_DISABLE=1
mkdir -p "$out"
[[ -f $root/.device/env.sh ]] && source "$root/.device/env.sh"
build=/tmp/bifscope-compile-trade
kernels="bench_cuda_lorenz bench_cuda_duffing bench_cuda_mpgos bench_cuda_heavy_rhs"
benches="bench_cuda_compile $kernels bifscope-cli"
start=$SECONDS
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBIFSCOPE_GUI=OFF -DBIFSCOPE_SANITIZE=OFF \
    -DBIFSCOPE_FUZZ=OFF -DBIFSCOPE_BENCH=ON >/dev/null &&
    cmake --build "$build" -j "$(nproc)" --target $benches 2>&1 | tail -2
  echo "build took $((SECONDS - start)) s"
} >"$out/build.log" 2>&1
bench=$build/tests/bench
models="duffing lorenz relief hodgkin keller"
start=$SECONDS
for variant in before after; do
  switches=$([[ $variant == before ]] && echo "$before_env" || echo "BIFSCOPE_ROUND=after")
  # a fresh module cache per variant: every compile below is cold where the bench says cold
  export BIFSCOPE_CUDA_CACHE_DIR=$build/module-cache-$variant
  rm -rf "$BIFSCOPE_CUDA_CACHE_DIR"
  env $switches BENCH_COMPILE_MODELS=$models timeout 120 "$bench/bench_cuda_compile" \
    >"$out/compile-$variant.log" 2>&1
  echo "exit $?" >>"$out/compile-$variant.log"
  for b in $kernels; do
    env $switches timeout 100 "$bench/$b" >"$out/$b-$variant.log" 2>&1
    echo "exit $?" >>"$out/$b-$variant.log"
  done
  # the first run compiles (cold: its own cache), the next three are timed
  for run in 0 1 2 3; do
    t=$(date +%s%N)
    env $switches timeout 60 "$build/app/bifscope-cli" run \
      "$src/resources/studies/duffing_maxima.json" --backend cuda --quiet --out "$out/maxima-$variant.csv" \
      >>"$out/maxima-$variant.log" 2>&1
    rc=$?
    echo "run $run exit $rc wall $((($(date +%s%N) - t) / 1000000)) ms" >>"$out/maxima-$variant.log"
  done
done
# the comment lines carry timings; the rows must be bit-equal
cmp -s <(grep -v '^#' "$out/maxima-before.csv") <(grep -v '^#' "$out/maxima-after.csv") && same=identical ||
  same=DIFFERENT
echo "duffing_maxima results before/after: $same" >>"$out/maxima-after.log"
BENCH_COMPILE_OBSERVES=0 BENCH_COMPILE_MODELS="duffing lorenz hodgkin keller" timeout 60 \
  "$bench/bench_cuda_compile" >"$out/compile-after-no-observer.log" 2>&1
BENCH_COMPILE_MODELS=pleiades timeout 90 "$bench/bench_cuda_compile" >"$out/compile-pleiades.log" 2>&1
echo "exit $?" >>"$out/compile-pleiades.log"
echo "runs took $((SECONDS - start)) s" >>"$out/build.log"

{
  echo "== build (before: $before_env)"
  cat "$out/build.log"
  echo "== cold compiles (bench_cuda_compile, sections program RKCK45 double, step observer on)"
  for variant in before after; do
    grep -E "cold|fresh process|FAILED" "$out/compile-$variant.log" | sed "s/^/$variant  /"
  done
  echo "== after, no step observer"
  grep -E "cold|FAILED" "$out/compile-after-no-observer.log"
  echo "== Pleiades (after)"
  grep -E "cold|cached|FAILED|exit" "$out/compile-pleiades.log"
  echo "== duffing_maxima.json on the GPU (bifscope-cli; run 0 compiles, runs 1-3 warm)"
  for variant in before after; do
    grep -E "^run|identical|DIFFERENT" "$out/maxima-$variant.log" | sed "s/^/$variant  /"
  done
  echo "== kernels (ratio = hand-written / Bifscope)"
  for b in $kernels; do
    for variant in before after; do
      grep -E "ratio|median|kernel .* ms|advance kernel|FAILED|exit [^0]" "$out/$b-$variant.log" | sed "s/^/$variant  $b: /"
    done
  done
} | tee "$out/summary.log"
