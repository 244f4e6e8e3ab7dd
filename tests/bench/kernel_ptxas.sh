#!/usr/bin/env bash
# Fast local loop on the ensemble kernels' resources, no GPU: compiles the program texts that
# kernel_report wrote (DIR/*.cu) with nvcc against the kernels/ headers ON DISK (no rebuild of the
# embedded copies), for sm_90, and prints registers, stack frame, spills of bif_ensemble_advance and
# the local loads/stores left in its PTX (ld.local/st.local: arrays the front end could not keep in
# registers; ptxas' spills come on top). cuobjdump -sass on the cubin shows LDL/STL where installed.
#   tests/bench/kernel_ptxas.sh DIR [CASE...]      CASE: lorenz_double lorenz_float duffing mpgos
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=$1
shift
cases=("$@")
((${#cases[@]})) || cases=(lorenz_double lorenz_float duffing)
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
for c in "${cases[@]}"; do
  "$nvcc" -arch=sm_90 -ptx -std=c++17 -I "$root/kernels" -x cu "$dir/$c.cu" -o "$dir/$c.ptx"
  "$(dirname "$nvcc")/ptxas" -arch=sm_90 -v "$dir/$c.ptx" -o "$dir/$c.nvcc.cubin" 2>"$dir/$c.ptxas.log"
  usage=$(awk '/Compiling entry function .bif_ensemble_advance./{on=1} on&&/stack frame|registers/{print; if(/registers/) exit}' "$dir/$c.ptxas.log" |
    sed -E 's/.*ptxas info *: *//; s/^ *\. *//' | tr '\n' ' ')
  advance=$(awk '/.entry bif_ensemble_advance/{on=1} on' "$dir/$c.ptx")
  printf '%-14s %s| PTX ld.local %s st.local %s\n' "$c" "$usage" \
    "$(grep -c 'ld.local' <<<"$advance")" "$(grep -c 'st.local' <<<"$advance")"
done
