#!/usr/bin/env bash
# The GPU round of session 7, from the repository root with .device/ carried (after
# ../shared/tools/device-prep.sh and tests/device/prep-hdf5.sh):
#   bash tests/device/session7-round.sh [SOURCE_DIR]
# Builds the GPU tests, the kernel benchmarks and bifscope-cli (with HDF5), then: the logistic-map
# diagram against its hand-written kernel (maps, issue 12), the GPU tests (the agreement test runs
# every example study, the maps' included), Lorenz / Duffing / MPGOS against theirs, the CSV writer on
# every core, a 10^8-system Lorenz map streamed to HDF5 and to CSV (wall time and peak memory), a
# 202-state stiff chain on the CUDA backend (must end, not hang), and cold compiles under the
# backend's options. Logs to $OUT; a summary last. SKIP="tests big stiff compile" leaves parts out.
set -uo pipefail
root=$(pwd)
src=${1:-$root}
out=${OUT:-$root/build-session7-logs}
mkdir -p "$out"
source "$root/tests/device/round_support.sh"
use_device_libraries "$root"
build=/tmp/bifscope-session7
export BIFSCOPE_CUDA_CACHE_DIR=$build/module-cache
skip=" ${SKIP:-} "
start=$SECONDS
elapsed() { echo "$((SECONDS - start)) s"; }
{
  nvidia-smi --query-gpu=name,driver_version --format=csv
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBIFSCOPE_GUI=OFF -DBIFSCOPE_SANITIZE=OFF \
    -DBIFSCOPE_FUZZ=OFF -DBIFSCOPE_BENCH=ON 2>&1 | grep -E "HDF5|MPI|Error" &&
    cmake --build "$build" -j "$(nproc)" --target test_cuda_gpu test_cuda_gpu_models test_cuda_backend \
      bench_cuda_logistic bench_cuda_lorenz bench_cuda_duffing bench_cuda_mpgos bench_cuda_compile bench_result_csv \
      bifscope-cli 2>&1 | tail -3
  echo "build took $(elapsed)"
} >"$out/build.log" 2>&1
bench=$build/tests/bench
cli=$build/app/bifscope-cli
timeout 200 "$bench/bench_cuda_logistic" >"$out/bench_cuda_logistic.log" 2>&1
echo "exit $?" >>"$out/bench_cuda_logistic.log"
if [[ $skip != *" tests "* ]]; then
  for t in test_cuda_gpu test_cuda_gpu_models test_cuda_backend; do
    s=$SECONDS
    timeout 200 "$build/tests/cuda/$t" >"$out/$t.log" 2>&1
    echo "$t exit $? in $((SECONDS - s)) s" >>"$out/tests.log"
  done
fi
for b in bench_cuda_lorenz bench_cuda_duffing bench_cuda_mpgos; do
  timeout 90 "$bench/$b" >"$out/$b.log" 2>&1
  echo "exit $?" >>"$out/$b.log"
done
timeout 60 "$bench/bench_result_csv" >"$out/bench_result_csv.log" 2>&1
# peak memory and wall time of a command, from its parent
if [[ $skip != *" big "* ]]; then
  write_lorenz_1e8 "$build/lorenz_1e8.json" "$src"
  {
    measure "$cli" run "$build/lorenz_1e8.json" --backend cuda --out "$build/lorenz_1e8.h5"
    ls -la "$build/lorenz_1e8.h5" 2>&1 | awk '{print $5, $9}'
    measure "$cli" run "$build/lorenz_1e8.json" --backend cuda --out "$build/lorenz_1e8.h5"
    rm -f "$build/lorenz_1e8.h5"
    measure timeout 150 "$cli" run "$build/lorenz_1e8.json" --backend cuda --out "$build/lorenz_1e8.csv"
    ls -la "$build/lorenz_1e8.csv" 2>&1 | awk '{print $5, $9}'
    rm -f "$build/lorenz_1e8.csv"
  } >"$out/big-run.log" 2>&1
fi
if [[ $skip != *" stiff "* && -f $src/resources/models/schnakenberg_chain.ode ]]; then
  cat >"$build/stiff.json" <<JSON
{"bifscope_study": 1, "model": {"path": "$src/resources/models/schnakenberg_chain.ode"},
 "sweep": [{"parameter": "a", "from": 0.09, "to": 0.11, "count": 256}],
 "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "0.5"},
              "transient_sections": 1, "recorded_sections": 1, "record": ["u50"]},
 "solver": {"method": "rodas4", "rtol": 1e-6, "atol": 1e-8, "initial_step": 1e-4}, "precision": "double"}
JSON
  measure timeout ${STIFF_SECONDS:-240} "$cli" run "$build/stiff.json" --backend cuda --out "$build/stiff.csv" >"$out/stiff.log" 2>&1
fi
if [[ $skip != *" compile "* ]]; then
  BENCH_COMPILE_MODELS="duffing hodgkin keller" timeout 120 "$bench/bench_cuda_compile" >"$out/compile.log" 2>&1
  echo "exit $?" >>"$out/compile.log"
fi
echo "== build"; cat "$out/build.log"
echo "== logistic"; cat "$out/bench_cuda_logistic.log"
echo "== tests"; cat "$out/tests.log" 2>/dev/null
grep -h -E "test cases|FAILED|misses" "$out"/test_cuda_*.log 2>/dev/null | head -20
echo "== benchmarks"
grep -h -E "ratio hand|end to end|exit [^0]" "$out"/bench_cuda_{lorenz,duffing,mpgos}.log | head -12
grep -E "rows/s|threads" "$out/bench_result_csv.log" | head -8
echo "== big run"; cat "$out/big-run.log" 2>/dev/null
echo "== stiff"; cat "$out/stiff.log" 2>/dev/null
echo "== compile"; grep -E "cold|exit" "$out/compile.log" 2>/dev/null
echo "round took $(elapsed)"
