#!/usr/bin/env bash
# The host side of the 10^8-system Lorenz map on a GPU server (issue 14: under 2 s, under 1 GB),
# from the repository root with .device/ carried (after ../shared/tools/device-prep.sh and
# tests/device/prep-hdf5.sh):
#   bash tests/device/hostside-round.sh [SOURCE_DIR]
# Builds the runner's GPU tests, the streamed-block test, bench_host_side and bifscope-cli, then
#   1. runs test_cuda_gpu, test_cuda_chunks, test_cuda_multi_gpu (recycled batches in the runner)
#      and test_streamed_blocks;
#   2. checks that a streamed CUDA map in many small blocks gives the same CSV rows with blocks run
#      two at a time as one at a time, and as the CPU backend (bit for bit), with a period column
#      (scalars come back) and without (statuses alone come back);
#   3. bench_host_side for 10^8 systems (the host stages without kernels, on this machine's cores):
#      twice as the runner now works, then as it did (--fresh batches, block memory freed);
#   4. the 10^8-system map streamed to HDF5 under /usr/bin/time -v, as shipped (two blocks at once,
#      block memory kept) and with each change undone (BIF_STREAM_BLOCKS_AT_ONCE=1,
#      BIF_KEEP_BLOCK_MEMORY=0).
# Logs to $OUT; a table last. SKIP="tests same bench big" leaves parts out; where one call may run
# 10 minutes at most, run it twice: SKIP="big" first, then SKIP="tests same bench" (same build).
set -uo pipefail
root=$(pwd)
src=${1:-$root}
out=${OUT:-$root/build-hostside-logs}
mkdir -p "$out"
source "$root/tests/device/round_support.sh"
use_device_libraries "$root"
build=/tmp/bifscope-hostside
export BIFSCOPE_CUDA_CACHE_DIR=$build/module-cache
skip=" ${SKIP:-} "
start=$SECONDS
tests="test_cuda_gpu test_cuda_chunks test_cuda_multi_gpu"
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  echo "$(nproc) cores"
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBIFSCOPE_GUI=OFF -DBIFSCOPE_SANITIZE=OFF \
    -DBIFSCOPE_FUZZ=OFF -DBIFSCOPE_BENCH=ON 2>&1 | grep -E "HDF5|Error"
  cmake --build "$build" -j "$(nproc)" --target $tests test_streamed_blocks bench_host_side bifscope-cli 2>&1 |
    tail -2
  echo "build took $((SECONDS - start)) s"
} >"$out/build.log" 2>&1
cli=$build/app/bifscope-cli

if [[ $skip != *" tests "* ]]; then
  for t in $tests; do
    s=$SECONDS
    timeout 300 "$build/tests/cuda/$t" >"$out/$t.log" 2>&1
    echo "$t exit $? in $((SECONDS - s)) s" >>"$out/tests.log"
  done
  timeout 120 "$build/tests/jobs/test_streamed_blocks" >"$out/test_streamed_blocks.log" 2>&1
  echo "test_streamed_blocks exit $?" >>"$out/tests.log"
fi

# The rows of a CSV result without its comment block (which holds timings and the backend).
rows() { grep -v "^#" "$1"; }

# same PERIOD: a 2 x 10^6-system map (detect_period PERIOD) in blocks of 100000 (20 blocks, so that
# two run at once many times over): the CUDA rows with two blocks at once, one at a time, and the
# CPU backend's rows, compared bit for bit. Without a period column only statuses come back.
same() {
  write_lorenz_map "$build/lorenz_2e6.json" "$src" 2000 1000 "$1"
  echo "-- detect_period $1"
  BIF_STREAM_BLOCKS_AT_ONCE=1 timeout 300 "$cli" run "$build/lorenz_2e6.json" --backend cuda \
    --block-systems 100000 --out "$build/one.csv" --quiet
  echo "cuda one block at a time exit $?"
  timeout 300 "$cli" run "$build/lorenz_2e6.json" --backend cuda --block-systems 100000 \
    --out "$build/two.csv" --quiet
  echo "cuda as shipped (two at once) exit $?"
  timeout 300 "$cli" run "$build/lorenz_2e6.json" --backend cpu --block-systems 100000 \
    --out "$build/cpu.csv" --quiet
  echo "cpu exit $?"
  if [[ ! -s $build/one.csv || ! -s $build/two.csv || ! -s $build/cpu.csv ]]; then
    echo "A RUN WROTE NO OUTPUT"
    rm -f "$build/one.csv" "$build/two.csv" "$build/cpu.csv"
    return
  fi
  if cmp -s <(rows "$build/one.csv") <(rows "$build/two.csv"); then
    echo "cuda two blocks at once: rows identical to one at a time"
  else
    echo "cuda two blocks at once: ROWS DIFFER from one at a time"
  fi
  if cmp -s <(rows "$build/two.csv") <(rows "$build/cpu.csv"); then
    echo "cuda rows identical to cpu rows"
  else
    echo "cuda rows DIFFER from cpu rows ($(diff <(rows "$build/two.csv") <(rows "$build/cpu.csv") | grep -c '^<') lines)"
  fi
  echo "$(rows "$build/two.csv" | wc -l) rows; $(rows "$build/two.csv" | head -2 | tail -1)"
  rm -f "$build/one.csv" "$build/two.csv" "$build/cpu.csv"
}

if [[ $skip != *" same "* ]]; then
  { same true; same false; } >"$out/same.log" 2>&1
fi

if [[ $skip != *" bench "* ]]; then
  {
    "$build/tests/bench/bench_host_side" --systems 100000000 --out "$build/bench.h5"
    "$build/tests/bench/bench_host_side" --systems 100000000 --out "$build/bench.h5"
    BIF_KEEP_BLOCK_MEMORY=0 "$build/tests/bench/bench_host_side" --systems 100000000 --fresh \
      --out "$build/bench.h5"
  } >"$out/bench.log" 2>&1
fi

# big LABEL [ENV=VALUE...]: the 10^8 map streamed to HDF5, wall time and peak RSS.
big() {
  local label=$1
  shift
  env "$@" /usr/bin/time -v "$cli" run "$build/lorenz_1e8.json" --backend cuda --out "$build/lorenz_1e8.h5" \
    >"$out/big-$label.log" 2>&1
  local rc=$?
  local wall rss
  wall=$(grep "Elapsed (wall" "$out/big-$label.log" | awk '{print $NF}')
  rss=$(grep "Maximum resident" "$out/big-$label.log" | awk '{print int($NF / 1024)}')
  printf "| %-28s | %4s | %9s | %8s MB |\n" "$label" "$rc" "$wall" "$rss" >>"$out/big.log"
  rm -f "$build/lorenz_1e8.h5"
}

if [[ $skip != *" big "* ]]; then
  write_lorenz_1e8 "$build/lorenz_1e8.json" "$src"
  if [[ -x /usr/bin/time ]]; then
    echo "| 10^8 map to HDF5             | exit | wall      | peak RSS    |" >"$out/big.log"
    big warm-up
    big shipped
    big one-block-at-a-time BIF_STREAM_BLOCKS_AT_ONCE=1
    big memory-freed BIF_KEEP_BLOCK_MEMORY=0
    big both-undone BIF_STREAM_BLOCKS_AT_ONCE=1 BIF_KEEP_BLOCK_MEMORY=0
  else
    # no GNU time on the server: round_support's measure (wall, peak RSS of the children)
    for label in warm-up shipped one-block-at-a-time; do
      echo "== $label"
      if [[ $label == one-block-at-a-time ]]; then export BIF_STREAM_BLOCKS_AT_ONCE=1; fi
      measure "$cli" run "$build/lorenz_1e8.json" --backend cuda --out "$build/lorenz_1e8.h5"
      rm -f "$build/lorenz_1e8.h5"
    done >"$out/big.log" 2>&1
    unset BIF_STREAM_BLOCKS_AT_ONCE
  fi
fi

echo "== build"; cat "$out/build.log"
echo "== tests"; cat "$out/tests.log" 2>/dev/null
grep -h -E "test cases|All tests|FAILED" "$out"/test_*.log 2>/dev/null | head -12
echo "== same rows"; cat "$out/same.log" 2>/dev/null
echo "== bench_host_side, 10^8 systems"; grep -E "host side|seconds per|total" "$out/bench.log" 2>/dev/null
echo "== the 10^8 map (bifscope-cli run --backend cuda --out x.h5)"; cat "$out/big.log" 2>/dev/null
grep -h -E "Command exited|error" "$out"/big-*.log 2>/dev/null | head -4
echo "round took $((SECONDS - start)) s"
