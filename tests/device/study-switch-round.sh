#!/usr/bin/env bash
# A study run on the GPU by bifscope-cli under two settings of one switch, from the repository root
# with .device/ carried, after tests/device/compile-variants-round.sh built bifscope-cli in BUILD:
#   STUDY=FILE SWITCH=BIFSCOPE_CUDA_OUTLINE_MATH A=0 B=1 bash tests/device/study-switch-round.sh
# For each setting: one cold run (its own module cache), then RUNS timed runs with the module cached;
# prints the compile and run times and the largest relative difference between the two results.
set -uo pipefail
root=$(pwd)
out=${OUT:-$root/build-study-switch-logs}
build=${BUILD:-/tmp/bifscope-compile-variants}
runs=${RUNS:-2}
mkdir -p "$out"
source "$root/tests/device/round_support.sh"
use_device_libraries "$root"
export CUDA_CACHE_DISABLE=1
cmake --build "$build" --target bifscope-cli >"$out/build-cli.log" 2>&1 || { tail "$out/build-cli.log"; exit 1; }
for setting in "$A" "$B"; do
  export BIFSCOPE_CUDA_CACHE_DIR=$build/study-cache-$setting
  rm -rf "$BIFSCOPE_CUDA_CACHE_DIR"
  for run in $(seq 0 "$runs"); do
    t=$(date +%s%N)
    env "$SWITCH=$setting" timeout 300 "$build/app/bifscope-cli" run "$STUDY" --backend cuda \
      --out "$out/result-$setting.csv" >"$out/run-$setting-$run.log" 2>&1
    rc=$?
    echo "$SWITCH=$setting run $run exit $rc wall $((($(date +%s%N) - t) / 1000000)) ms: $(grep -o '[0-9]* systems in .*' "$out/run-$setting-$run.log" | tail -1)"
  done
done
python3 - "$out/result-$A.csv" "$out/result-$B.csv" <<'PY'
import csv, math, sys
a = list(csv.reader(open(sys.argv[1])))
b = list(csv.reader(open(sys.argv[2])))
worst, cells = 0.0, 0
for ra, rb in zip(a[1:], b[1:]):
    for x, y in zip(ra, rb):
        try:
            fx, fy = float(x), float(y)
        except ValueError:
            continue
        if math.isnan(fx) and math.isnan(fy):
            continue
        cells += 1
        worst = max(worst, abs(fx - fy) / max(abs(fx), abs(fy), 1e-300))
print(f"rows {len(a) - 1} and {len(b) - 1}; {cells} numbers compared; largest relative difference {worst:.3g}")
PY
