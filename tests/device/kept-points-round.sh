#!/usr/bin/env bash
# The GPU round of diagrams whose points stay on the GPU (issue 11), from the repository root with
# .device/ and .device-gui/ carried: every GPU test and the kernel benchmarks (session8-round.sh,
# without its 10^8-system run), then the GUI round on EGL and under Xvfb with the app running the
# quick Duffing diagram at 2^19 values of k (16.8 million points: at the app's kept-points size, so
# they stay on the GPU), whose screenshot shows the path in the status bar. A short table last; the
# logs in $OUT/*.tar.gz.
set -uo pipefail
root=$(pwd)
out=${OUT:-$root/build-kept-points-logs}
mkdir -p "$out"
OUT=$out/gpu SKIP=big bash tests/device/session8-round.sh >"$out/gpu-round.txt" 2>&1
# next to the original so that its model path holds
sed -e 's/"count": 1200/"count": 524288/' resources/studies/duffing_bifurcation_quick.json \
  >resources/studies/duffing_bifurcation_2e19.json
GUI_STUDY=$root/resources/studies/duffing_bifurcation_2e19.json OUT=$out/gui bash tests/device/gui-round.sh \
  >"$out/gui-round.txt" 2>&1
tar -C "$out" -czf "$out/gpu-logs.tar.gz" gpu && rm -rf "$out/gpu"
for f in bifscope-run.png gl-interop.tar.gz summary.txt; do
  [[ -f $out/gui/$f ]] && mv "$out/gui/$f" "$out/"
done
tar -C "$out" -czf "$out/gui-logs.tar.gz" gui && rm -rf "$out/gui"
tail -25 "$out/gpu-round.txt"
cat "$out/summary.txt"
