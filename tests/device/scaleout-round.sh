#!/usr/bin/env bash
# Issue 14's measurements on a server with two GPUs (nvidia-h200-x2), from the repository root with
# .device/ carried (after ../shared/tools/device-prep.sh and tests/device/prep-hdf5.sh):
#   bash tests/device/scaleout-round.sh [SOURCE_DIR]
# Builds bifscope-cli (with Open MPI and HDF5 where found) and bench_cuda_multi_gpu, then
#   multi  bench_cuda_multi_gpu (one GPU against both, end to end), its batches' timeline on stderr;
#   mpi    `mpirun -n 2 bifscope-cli run` on the GPUs (one GPU per rank, as the runner's timeline
#          names them) against one process on one GPU: the same rows; a Duffing diagram at 2^18
#          values in blocks through 2 ranks against one process on both GPUs (per-block cost);
#   big    the 10^8-system Lorenz map to HDF5 on one GPU (streamed blocks of 2^22, 2^21, 2^20) and on
#          both, and the 10^9-system map on both (wall time, peak RSS), the output removed after each.
#   tests  the runner's GPU tests first (test_cuda_backend: about 2 minutes).
# Logs to $OUT; a table last. SKIP="tests multi mpi big" leaves parts out. About 6 minutes.
set -uo pipefail
root=$(pwd)
src=${1:-$root}
out=${OUT:-$root/build-scaleout-logs}
mkdir -p "$out"
source "$root/tests/device/round_support.sh"
use_device_libraries "$root"
build=/tmp/bifscope-scaleout
export BIFSCOPE_CUDA_CACHE_DIR=$build/module-cache
skip=" ${SKIP:-} "
start=$SECONDS
# the runner's GPU tests: batches dealt over lanes and GPUs, bit for bit against one batch and the CPU
tests="test_cuda_multi_gpu test_cuda_chunks test_cuda_gpu test_cuda_backend"
{
  nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader
  echo "$(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GB; $(df -h /tmp | tail -1)"
  command -v mpirun && mpirun --version | head -1
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBIFSCOPE_GUI=OFF -DBIFSCOPE_SANITIZE=OFF \
    -DBIFSCOPE_FUZZ=OFF -DBIFSCOPE_BENCH=ON 2>&1 | grep -E "HDF5|MPI|Error"
  cmake --build "$build" -j "$(nproc)" --target bifscope-cli bench_cuda_multi_gpu $tests 2>&1 | tail -2
  ldd "$build/app/bifscope-cli" | grep -q libmpi && echo "bifscope-cli built with MPI" ||
    echo "bifscope-cli built WITHOUT MPI"
  echo "build took $((SECONDS - start)) s"
} >"$out/build.log" 2>&1
cli=$build/app/bifscope-cli
rows() { grep -v "^#" "$1"; }

if [[ $skip != *" tests "* ]]; then
  for t in $tests; do
    s=$SECONDS
    timeout 300 "$build/tests/cuda/$t" >"$out/$t.log" 2>&1
    echo "$t exit $? in $((SECONDS - s)) s: $(grep -h -E "test cases|All tests" "$out/$t.log" | tail -1)" >>"$out/tests.log"
  done
fi

if [[ $skip != *" multi "* ]]; then
  BIFSCOPE_CUDA_TIMELINE=1 timeout 240 "$build/tests/bench/bench_cuda_multi_gpu" \
    >"$out/bench_cuda_multi_gpu.log" 2>"$out/timeline.log"
  echo "exit $?" >>"$out/bench_cuda_multi_gpu.log"
fi

if [[ $skip != *" mpi "* ]]; then
  mpi="mpirun --allow-run-as-root --oversubscribe -n 2"
  write_duffing_diagram "$build/duffing_262144.json" "$src" 262144 512
  study=$build/duffing_262144.json
  {
    echo "-- one process, --gpus 0"
    measure timeout 120 "$cli" run "$study" --backend cuda --gpus 0 --out "$build/one.csv"
    # the timeline names the GPU (ordinal) of every batch, with the process id: one GPU per rank
    echo "-- mpirun -n 2 (default blocks)"
    BIFSCOPE_CUDA_TIMELINE=1 measure timeout 120 $mpi -x BIFSCOPE_CUDA_TIMELINE "$cli" run "$study" \
      --backend cuda --out "$build/two_ranks.csv"
    echo "-- mpirun -n 2, every rank's GPUs (process id, GPU ordinal: batches)"
    BIFSCOPE_CUDA_TIMELINE=1 timeout 120 $mpi -x BIFSCOPE_CUDA_TIMELINE "$cli" run "$study" --backend cuda \
      --quiet --out "$build/two_ranks_again.csv" 2>&1 | awk '$1 == "timeline" && $5 == "batch" {n[$2 " GPU " $4]++}
        END {for (k in n) print "  pid " k ": " n[k] " batches"}'
    if [[ -s $build/one.csv && -s $build/two_ranks.csv ]] &&
      cmp -s <(rows "$build/one.csv") <(rows "$build/two_ranks.csv"); then
      echo "rows of 2 ranks (a GPU each) and of one process on one GPU: identical ($(rows "$build/one.csv" | wc -l) lines)"
    else echo "rows of 2 ranks and of one process: DIFFER or missing"; fi
    rm -f "$build"/one.csv "$build"/two_ranks*.csv
    # per-block cost: one process on both GPUs against 2 ranks, in 16 blocks of 16384 systems
    echo "-- one process, both GPUs"
    measure timeout 120 "$cli" run "$study" --backend cuda --out "$build/d.h5"
    echo "output $(du -m "$build/d.h5" 2>/dev/null | cut -f1) MB"
    rm -f "$build/d.h5"
    for blocks in 16384 65536; do
      echo "-- 2 ranks, blocks of $blocks"
      measure timeout 120 $mpi "$cli" run "$study" --backend cuda --block-systems $blocks --out "$build/d.h5"
      rm -f "$build/d.h5"
    done
  } >"$out/mpi.log" 2>&1
fi

big() {
  local label=$1 study=$2
  shift 2
  measure "$cli" run "$study" --backend cuda "$@" --out "$build/map.h5" >"$out/big-$label.log" 2>&1
  local size
  size=$(du -m "$build/map.h5" 2>/dev/null | cut -f1)
  printf "| %-30s | %s | %7s MB |\n" "$label" "$(head -1 "$out/big-$label.log" | cut -c1-44)" "$size" >>"$out/big.log"
  rm -f "$build/map.h5"
}

if [[ $skip != *" big "* ]]; then
  write_lorenz_1e8 "$build/lorenz_1e8.json" "$src"
  write_lorenz_map "$build/lorenz_1e9.json" "$src" 31623 31623 false
  echo "| map to HDF5                    | exit, wall, peak RSS                          | file       |" >"$out/big.log"
  big "10^8 warm-up, GPU 0" "$build/lorenz_1e8.json" --gpus 0
  big "10^8 on GPU 0" "$build/lorenz_1e8.json" --gpus 0
  big "10^8 on GPU 0 again" "$build/lorenz_1e8.json" --gpus 0
  big "10^8, GPU 0, blocks of 2^21" "$build/lorenz_1e8.json" --gpus 0 --block-systems 2097152
  big "10^8, GPU 0, blocks of 2^20" "$build/lorenz_1e8.json" --gpus 0 --block-systems 1048576
  big "10^8 on both GPUs" "$build/lorenz_1e8.json"
  big "10^9 (31623^2) on both GPUs" "$build/lorenz_1e9.json"
fi

echo "== build"; cat "$out/build.log"
echo "== tests"; cat "$out/tests.log" 2>/dev/null
echo "== multi-GPU"; grep -A4 -E "^multi-GPU end to end" "$out/bench_cuda_multi_gpu.log" 2>/dev/null ||
  tail -5 "$out/bench_cuda_multi_gpu.log" 2>/dev/null
grep -c "^timeline" "$out/timeline.log" 2>/dev/null | sed 's/^/timeline lines: /'
echo "== mpi"; cat "$out/mpi.log" 2>/dev/null
echo "== big"; cat "$out/big.log" 2>/dev/null
grep -h -i "error\|cannot" "$out"/big-*.log 2>/dev/null | head -4
echo "round took $((SECONDS - start)) s"
