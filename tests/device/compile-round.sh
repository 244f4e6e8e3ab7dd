#!/usr/bin/env bash
# A GPU round for the compile-speed and backend-choice work, from the repository root with .device/
# carried:  bash tests/device/compile-round.sh [SOURCE_DIR]
# SOURCE_DIR (default: the repository) is the tree to build, e.g. a snapshot unpacked into an ignored
# folder. Measures NVRTC cold/cached compiles under option variants (bench_cuda_compile), the kernel
# speed under the same variants (Lorenz, Duffing), and the CPU-vs-GPU wall time of small studies
# (the `auto` threshold). Logs to $OUT; a short summary last.
set -uo pipefail
root=$(pwd)
src=${1:-$root}
out=${OUT:-$root/build-compile-round-logs}
mkdir -p "$out"
[[ -f $root/.device/env.sh ]] && source "$root/.device/env.sh"
build=/tmp/bifscope-compile-round
export BIFSCOPE_CUDA_CACHE_DIR=$build/module-cache
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
  nproc
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBIFSCOPE_GUI=OFF -DBIFSCOPE_SANITIZE=OFF \
    -DBIFSCOPE_FUZZ=OFF -DBIFSCOPE_BENCH=ON >/dev/null &&
    cmake --build "$build" -j "$(nproc)" --target bench_cuda_compile bench_cuda_lorenz bench_cuda_duffing \
      bench_cuda_mpgos bifscope-cli 2>&1 | tail -3
} >"$out/build.log" 2>&1
bench=$build/tests/bench
small="duffing lorenz hodgkin keller relief"
BENCH_COMPILE_MODELS=$small BENCH_COMPILE_VARIANTS=${COMPILE_VARIANTS:-"bound5:5:;ofc-max::--Ofast-compile=max;ofc-mid::--Ofast-compile=mid;ofc-min::--Ofast-compile=min"} \
  timeout 240 "$bench/bench_cuda_compile" >"$out/compile.log" 2>&1
echo "exit $?" >>"$out/compile.log"
BENCH_COMPILE_MODELS=pleiades BENCH_COMPILE_VARIANTS=${PLEIADES_VARIANTS:-"ofc-max::--Ofast-compile=max;ofc-mid::--Ofast-compile=mid"} \
  timeout ${PLEIADES_SECONDS:-150} "$bench/bench_cuda_compile" >"$out/compile-pleiades.log" 2>&1
echo "exit $?" >>"$out/compile-pleiades.log"
IFS=';' read -ra variants <<<"${KERNEL_VARIANTS:-;--Ofast-compile=min;--Ofast-compile=mid;--Ofast-compile=max}"
for v in "${variants[@]}"; do
  for b in bench_cuda_lorenz bench_cuda_duffing; do
    echo "== variant '$v': $b"
    BENCH_NVRTC_OPTIONS="$v" timeout 100 "$bench/$b" 2>&1 | grep -E "ratio|FAILED|ms"
  done
done >"$out/kernel-variants.log" 2>&1
# auto threshold: a Lorenz spectrum over N values of rho, CPU (all cores) against the GPU, warm caches
cli=$build/app/bifscope-cli
studies=$build/threshold-studies
mkdir -p "$studies"
for n in 1 16 128 512 2048 8192; do
  cat >"$studies/lorenz_$n.json" <<JSON
{"bifscope_study": 1, "model": {"path": "$src/resources/models/lorenz.ode"},
 "parameters": {"sigma": 10, "beta": 2.6666666666666667},
 "sweep": [{"parameter": "rho", "from": 24, "to": 30, "count": $n, "scale": "linear"}],
 "analysis": {"kind": "lyapunov", "exponents": "spectrum", "transient_time": 20, "averaging_time": 200, "renormalization_interval": 1},
 "solver": {"method": "dopri5", "rtol": 1e-8, "atol": 1e-8, "initial_step": 1e-2}, "precision": "double"}
JSON
  cat >"$studies/duffing_$n.json" <<JSON
{"bifscope_study": 1, "model": {"path": "$src/resources/models/duffing.ode"},
 "parameters": {"b": 0.3, "delta": 1, "omega": 1},
 "sweep": [{"parameter": "k", "from": 0.2, "to": 0.3, "count": $n, "scale": "linear"}],
 "analysis": {"kind": "bifurcation", "section": {"kind": "stroboscopic", "period": "2*pi/omega"}, "transient_sections": 256, "recorded_sections": 32},
 "solver": {"method": "rkck45", "rtol": 1e-9, "atol": 1e-9, "initial_step": 1e-2}, "precision": "double"}
JSON
done
{
  for kind in lorenz duffing; do
    for n in 1 16 128 512 2048 8192; do
      for backend in cpu cuda; do
        "$cli" run "$studies/${kind}_$n.json" --backend $backend --quiet --out /dev/null >/dev/null 2>&1 # warm caches
        s=$(date +%s.%N)
        timeout 120 "$cli" run "$studies/${kind}_$n.json" --backend $backend --quiet --out "$build/r.csv" >/dev/null 2>"$build/err.txt"
        rc=$?
        e=$(date +%s.%N)
        printf 'threshold %-8s n=%-6s %-5s %8.3f s rc=%s %s\n' $kind $n $backend "$(awk "BEGIN{print $e - $s}")" $rc "$(head -c 200 "$build/err.txt" | tr '\n' ' ')"
      done
    done
  done
} >"$out/threshold.log" 2>&1
echo "== build"; tail -3 "$out/build.log"
echo "== compile"; cat "$out/compile.log" "$out/compile-pleiades.log"
echo "== kernels"; cat "$out/kernel-variants.log"
echo "== threshold"; cat "$out/threshold.log"
