#!/usr/bin/env bash
# The stiff float benchmark of issue 33 on the CUDA backend, from the repository root:
#   bash tests/device/stiff-float-round.sh [SOURCE_DIR]
# Robertson, k3 = linspace(0, 1e4, 2^23), k1 = 0.04, k2 = 3e7, y0 = (1, 0, 0), to t = 1e5, initial
# step 1e-3, rtol 1e-3, float: Rosenbrock23 and Rodas4 at atol 1e-6 (the benchmark's settings), and
# Rodas4 with atol 1e-8 on y1 and y2 (test_stiff_float's remedy), then the GPU tests of the events
# and Lyapunov paths. Prints each run's summary line (systems, ok, failed).
set -uo pipefail
root=$(pwd)
src=${1:-$root}
out=${OUT:-$root/build-stiff-float-logs}
mkdir -p "$out"
source "$root/tests/device/round_support.sh"
use_device_libraries "$root"
build=/tmp/bifscope-stiff-float
export BIFSCOPE_CUDA_CACHE_DIR=$build/module-cache
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBIFSCOPE_GUI=OFF -DBIFSCOPE_SANITIZE=OFF \
  -DBIFSCOPE_FUZZ=OFF >"$out/build.log" 2>&1 &&
  cmake --build "$build" -j "$(nproc)" --target bifscope-cli test_cuda_gpu test_cuda_gpu_models >>"$out/build.log" 2>&1
cli=$build/app/bifscope-cli
robertson() { # METHOD TOLERANCES FILE
  cat >"$3" <<JSON
{"bifscope_study": 1, "model": {"path": "$src/resources/models/robertson.ode"},
 "parameters": {"k1": 0.04, "k2": 3e7},
 "sweep": [{"parameter": "k3", "from": 0, "to": 1e4, "count": 8388608}],
 "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "1e5"},
              "transient_sections": 0, "recorded_sections": 1, "record": ["y1", "y2", "y3"]},
 "solver": {"method": "$1", "initial_step": 1e-3, $2},
 "precision": "float"}
JSON
}
robertson rosenbrock23 '"rtol": 1e-3, "atol": 1e-6' "$out/ros23.json"
robertson rodas4 '"rtol": 1e-3, "atol": 1e-6' "$out/rodas4.json"
robertson rodas4 '"rtol": 1e-3, "atol": {"y1": 1e-8, "y2": 1e-8, "*": 1e-6}' "$out/rodas4_y12.json"
for study in ros23 rodas4 rodas4_y12; do
  timeout 300 "$cli" run "$out/$study.json" --backend cuda --out "$out/$study.csv" >"$out/$study.log" 2>&1
  echo "$study: exit $? $(tail -1 "$out/$study.log")"
  grep "# systems" "$out/$study.csv"
  grep -v '^#' "$out/$study.csv" | grep -v ',ok,' | head -20 # the header, then failed systems' rows
  rm -f "$out/$study.csv" # 2^23 rows
done
for t in test_cuda_gpu test_cuda_gpu_models; do
  timeout 300 "$build/tests/cuda/$t" >"$out/$t.log" 2>&1
  echo "$t exit $? $(tail -2 "$out/$t.log" | tr '\n' ' ')"
done
