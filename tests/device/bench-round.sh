#!/usr/bin/env bash
# A short GPU round for kernel performance work, from the repository root, with .device/ carried:
#   bash tests/device/bench-round.sh
# Builds only the CUDA benchmarks, kernel_report and the CUDA-vs-CPU agreement test, runs the
# agreement test, the benchmarks (BENCH_MIN_BLOCKS: register bounds to compare, see
# tests/bench/NOTES.md) and counts local loads/stores per function in the SASS of the benchmark
# kernels. Logs go to $OUT; the lines that matter are printed last.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
out=${OUT:-$root/build-bench-round-logs}
mkdir -p "$out"
build=$root/build-gpu
[[ -f .device/env.sh ]] && source .device/env.sh
export BIFSCOPE_CUDA_CACHE_DIR=$build/module-cache
export BENCH_MIN_BLOCKS=${BENCH_MIN_BLOCKS:-}
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv 2>&1
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBIFSCOPE_GUI=OFF -DBIFSCOPE_SANITIZE=OFF \
    -DBIFSCOPE_FUZZ=OFF -DBIFSCOPE_BENCH=ON >/dev/null &&
    cmake --build "$build" -j "$(nproc)" --target bench_cuda_lorenz bench_cuda_duffing bench_cuda_mpgos \
      bench_cuda_compile kernel_report test_cuda_backend 2>&1 | tail -3
} >"$out/build.log" 2>&1
bench=$build/tests/bench
mkdir -p "$out/kernels"
timeout 120 "$bench/kernel_report" "$out/kernels" >"$out/kernels.log" 2>&1
for c in lorenz_double lorenz_float duffing mpgos; do
  [[ -f $out/kernels/$c.cubin ]] || continue
  cuobjdump -sass "$out/kernels/$c.cubin" >"$out/kernels/$c.sass" 2>&1
  awk -v c="$c" '/Function :/{f=$3} /LDL/{l[f]++} /STL/{s[f]++} /^ +\/\*[0-9a-f]+\*\//{n[f]++}
    END{for (f in n) if (f ~ /advance|integrate/) printf "sass %-14s %-60.60s %6d instr LDL %4d STL %4d\n", c, f, n[f], l[f], s[f]}' \
    "$out/kernels/$c.sass"
done >"$out/sass.log"
# the hand-written kernels' SASS beside Bifscope's (nvcc here; the benchmarks compile them with NVRTC)
for h in lorenz_rk4 duffing_rkck45; do
  nvcc -cubin -arch=sm_90 -o "$out/kernels/hand_$h.cubin" "tests/bench/handwritten/$h.cu" >>"$out/sass.log" 2>&1 &&
    cuobjdump -sass "$out/kernels/hand_$h.cubin" >"$out/kernels/hand_$h.sass" 2>&1
done
rm -f "$out"/kernels/*.cubin "$out"/kernels/*.cu
# BENCH_SKIP_AGREEMENT=1: benchmarks and SASS only
if [[ -z ${BENCH_SKIP_AGREEMENT:-} ]]; then
  timeout 150 "$build/tests/cuda/test_cuda_backend" >"$out/agreement.log" 2>&1
  echo "agreement test exit $?" >>"$out/agreement.log"
fi
# BENCH_OLD_TREE=DIR: the agreement test of another source tree too (an earlier commit, unpacked
# into an ignored folder that the call carries), to tell a new disagreement from an old one
if [[ -n ${BENCH_OLD_TREE:-} && -f ${BENCH_OLD_TREE}/CMakeLists.txt ]]; then
  {
    cmake -S "$BENCH_OLD_TREE" -B "$root/build-old" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBIFSCOPE_GUI=OFF \
      -DBIFSCOPE_SANITIZE=OFF -DBIFSCOPE_FUZZ=OFF -DBIFSCOPE_BENCH=OFF >/dev/null &&
      cmake --build "$root/build-old" -j "$(nproc)" --target test_cuda_backend 2>&1 | tail -1
    BIFSCOPE_CUDA_CACHE_DIR=$root/build-old/module-cache timeout 150 "$root/build-old/tests/cuda/test_cuda_backend"
    echo "old tree agreement test exit $?"
  } >"$out/agreement-old.log" 2>&1
fi
# BENCH_COMPILE=1: the cold and cached NVRTC compile of every bundled model too
compile_bench=()
[[ -n ${BENCH_COMPILE:-} ]] && compile_bench=(bench_cuda_compile)
for b in bench_cuda_lorenz bench_cuda_duffing bench_cuda_mpgos "${compile_bench[@]}"; do
  timeout 150 "$bench/$b" >"$out/$b.log" 2>&1
  echo "exit $?" >>"$out/$b.log"
done
# BENCH_VARIANTS="OPTIONS;OPTIONS...": NVRTC option sets (tuning switches, tests/bench/NOTES.md) under
# which the Lorenz and Duffing benchmarks run again
IFS=';' read -ra variants <<<"${BENCH_VARIANTS:-}"
for v in "${variants[@]}"; do
  for b in bench_cuda_lorenz bench_cuda_duffing; do
    echo "== variant '$v': $b"
    BENCH_NVRTC_OPTIONS="$v" BENCH_MIN_BLOCKS= timeout 120 "$bench/$b" 2>&1 | grep -E "ratio|FAILED"
  done
done >"$out/variants.log" 2>&1
# BENCH_NCU="lorenz duffing": Nsight Compute on the benchmark's first launches: Lorenz double 2^20
# (6 of Bifscope's kernel, then the hand-written one), Duffing (4 of Bifscope's, then the
# hand-written one); the sections that say where issue slots go, a few metrics printed
if [[ -n ${BENCH_NCU:-} ]] && command -v ncu >/dev/null; then
  sections=(--section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats
    --section InstructionStats --section ComputeWorkloadAnalysis --print-details all)
  for c in $BENCH_NCU; do
    case $c in
    lorenz) BENCH_MIN_BLOCKS= timeout 300 ncu -k 'regex:^(bif_ensemble_advance|hand_lorenz_rk4_double)$' -c 7 \
      "${sections[@]}" "$bench/bench_cuda_lorenz" >"$out/ncu-$c.log" 2>&1 ;;
    duffing) BENCH_MIN_BLOCKS= timeout 300 ncu -k 'regex:^(bif_ensemble_advance|hand_duffing_rkck45)$' -c 5 \
      "${sections[@]}" "$bench/bench_cuda_duffing" >"$out/ncu-$c.log" 2>&1 ;;
    duffing-source) # executed instructions per SASS instruction, as CSV, one kernel per run
      for k in bif_ensemble_advance hand_duffing_rkck45; do
        BENCH_MIN_BLOCKS= timeout 300 ncu -k "regex:^$k\$" -c 1 --section SourceCounters --page source \
          --print-source sass --csv "$bench/bench_cuda_duffing" >"$out/source-$k.csv" 2>&1
      done ;;
    esac
    echo "ncu exit $?" >>"$out/ncu-$c.log"
  done
fi
tar -C "$out" -czf "$out/kernels.tgz" kernels && rm -rf "$out/kernels"
echo "== build"; cat "$out/build.log"
echo "== kernel_report"; cat "$out/kernels.log"
echo "== sass"; cat "$out/sass.log"
[[ -f $out/agreement.log ]] && echo "== agreement" && grep -E "systems:|passed|failed|exit" "$out/agreement.log" | tail -16
[[ -f $out/agreement-old.log ]] && { echo "== agreement, old tree"; grep -E "systems:|passed|failed|exit" "$out/agreement-old.log" | tail -16; }
for b in bench_cuda_lorenz bench_cuda_duffing bench_cuda_mpgos "${compile_bench[@]}"; do echo "== $b"; cat "$out/$b.log"; done
echo "== variants"; cat "$out/variants.log"
for f in "$out"/ncu-*.log; do
  [[ -f $f ]] || continue
  echo "== $(basename "$f")"
  awk '/^  [a-z_]+ \(/{n++; name=$1} /Executed Instructions  |Elapsed Cycles|Achieved Occupancy|Issue Slots Busy|Eligible Warps Per|Warp Cycles Per Issued|Registers Per Thread  |Stall (Math|Not Sel|Wait|Long|Short|LG|Branch|No Inst|MIO|Barrier)/{v[name" "$1" "$2" "$3" "$4]=$NF} /ncu exit/{print}
    END{for (k in v) print k, v[k]}' "$f" | sort
done
# the device tool brings back a few files only: everything in one archive
tar -C "$out" -czf "$root/round.tgz" . && find "$out" -mindepth 1 -delete && mv "$root/round.tgz" "$out/round.tgz"
