#!/usr/bin/env bash
# One GPU round on the device machine, from the repository root, with .device/ carried along
# (prepared here by ../shared/tools/device-prep.sh):
#   bash tests/device/run-round.sh
# Builds without the GUI and without sanitizers, runs the gpu-labelled tests, the engine tests,
# every benchmark build/.../tests/bench/bench_* if any, and compute-sanitizer memcheck and racecheck
# on the gpu test executables when the tool exists. Full logs go to $OUT (at most 8 files come
# back); a short table is printed last. Each phase gets what is left of ROUND_SECONDS (default 500).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if [[ ! -f $root/CMakeLists.txt || ! -f $root/tests/device/run-round.sh ]]; then
  echo "run-round.sh: cannot find the project root (got $root)" >&2
  exit 2
fi
cd "$root"
out=${OUT:-$root/build-gpu-round-logs}
mkdir -p "$out"
build=$root/build-gpu
deadline=$((SECONDS + ${ROUND_SECONDS:-500}))
declare -a table

left() { echo $((deadline - SECONDS)); }
# phase NAME LOG RESERVE COMMAND...: runs COMMAND with a timeout of the time left minus RESERVE
phase() {
  local name=$1 log=$2 reserve=$3
  shift 3
  local budget=$(($(left) - reserve)) start=$SECONDS status
  if ((budget < 10)); then
    table+=("$name|not run (no time left)|0")
    return 1
  fi
  echo "== $name (limit ${budget}s)" | tee -a "$out/$log"
  timeout --kill-after=10 "$budget" "$@" >>"$out/$log" 2>&1
  status=$?
  local result="ok"
  ((status == 124 || status == 137)) && result="timed out"
  ((status != 0 && status != 124 && status != 137)) && result="exit $status"
  table+=("$name|$result|$((SECONDS - start))")
  return $status
}
ctest_summary() { # the pass/fail line of a ctest log section
  grep -E "tests passed|No tests were found" "$out/$1" 2>/dev/null | tail -1
}

{
  echo "== machine"
  nvidia-smi -L 2>&1 || echo "nvidia-smi missing"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1
  command -v nvcc >/dev/null && nvcc --version | tail -2
  nproc
} >"$out/machine.log" 2>&1

if [[ -f .device/env.sh ]]; then
  # shellcheck disable=SC1091
  source .device/env.sh
else
  echo "warning: .device/env.sh missing (prepare it with ../shared/tools/device-prep.sh)" | tee -a "$out/machine.log"
fi

jobs=$(nproc)
configure() {
  phase "configure${2:-}" build.log 300 cmake -S "$1" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DBIFSCOPE_GUI=OFF -DBIFSCOPE_SANITIZE=OFF -DBIFSCOPE_FUZZ=OFF -DBIFSCOPE_BENCH=ON
}
if ! configure "$root"; then
  # Work in progress can leave a test area whose CMakeLists names files not written yet. Rather
  # than no round at all: configure a copy without the test areas that CMake complained about.
  copy=/tmp/bifscope-round-source
  rm -rf "$copy" "$build" && mkdir -p "$copy"
  tar --exclude='./build*' --exclude='./.git' -cf - CMakeLists.txt .device app engine kernels resources tests ui 2>/dev/null |
    tar -C "$copy" -xf -
  for attempt in 1 2 3; do
    mapfile -t broken < <(grep -oE "CMake Error at tests/[^/]+/CMakeLists.txt" "$out/build.log" |
      sed -E 's/CMake Error at (tests\/[^/]+)\/.*/\1/' | sort -u)
    for area in "${broken[@]}"; do
      [[ -f $copy/$area/CMakeLists.txt ]] && rm "$copy/$area/CMakeLists.txt" && table+=("dropped $area|CMake error|0")
    done
    configure "$copy" " (copy, try $attempt)" && break
  done
fi
# -k 0: a target another helper left broken must not stop the rest from building.
phase build build.log 240 cmake --build "$build" -j "$jobs" -- -k 0

export BIFSCOPE_CUDA_CACHE_DIR=$build/module-cache
phase "ctest -L gpu" ctest-gpu.log 200 ctest --test-dir "$build" -L gpu --output-on-failure --timeout 150 -V
phase "ctest -L engine" ctest-engine.log 140 ctest --test-dir "$build" -L engine --output-on-failure --timeout 120 \
  -j "$jobs"

bench_dir=$build/tests/bench
benches=()
if [[ -d $bench_dir ]]; then
  while IFS= read -r b; do benches+=("$b"); done < <(find "$bench_dir" -maxdepth 1 -type f -name 'bench_*' -executable | sort)
fi
for b in "${benches[@]}"; do
  phase "$(basename "$b")" bench.log 100 "$b"
done
((${#benches[@]} == 0)) && table+=("benchmarks|none built|0")

# The executables of the gpu-labelled tests, from ctest's own listing.
gpu_executables=()
while IFS= read -r exe; do gpu_executables+=("$exe"); done < <(
  ctest --test-dir "$build" -L gpu --show-only=json-v1 2>/dev/null | python3 -c '
import json, sys
try:
    tests = json.load(sys.stdin).get("tests", [])
except ValueError:
    tests = []
for test in tests:
    command = test.get("command") or []
    if command:
        print(command[0])')
if command -v compute-sanitizer >/dev/null; then
  export BIFSCOPE_GPU_TEST_SYSTEMS=4096 # the sanitizer slows kernels a hundredfold
  for tool in memcheck racecheck; do
    for exe in "${gpu_executables[@]}"; do
      phase "$tool $(basename "$exe")" sanitizer.log 20 compute-sanitizer --tool "$tool" --report-api-errors no --error-exitcode 99 "$exe"
    done
  done
  unset BIFSCOPE_GPU_TEST_SYSTEMS
else
  table+=("compute-sanitizer|not installed|0")
fi

{
  echo
  echo "== facts"
  sed -E 's/^[0-9]+: //' "$out/ctest-gpu.log" 2>/dev/null |
    grep -E "^NVRTC |^device [0-9]|^driver CUDA|compile cold|generated Lorenz|context creation|^SKIPPED" | sort -u
  echo "gpu tests:    $(ctest_summary ctest-gpu.log)"
  echo "engine tests: $(ctest_summary ctest-engine.log)"
  cat "$out"/ctest-*.log 2>/dev/null | sed -n '/The following tests FAILED/,/^Errors while/p' | grep -E "^\s+[0-9]+ - "
  grep -h -E "ERROR SUMMARY|RACECHECK SUMMARY" "$out/sanitizer.log" 2>/dev/null | sort | uniq -c
  echo
  printf '%-40s %-26s %s\n' phase result seconds
  for row in "${table[@]}"; do
    IFS='|' read -r name result secs <<<"$row"
    printf '%-40s %-26s %s\n' "$name" "$result" "$secs"
  done
} | tee "$out/summary.txt"
