#!/usr/bin/env bash
# The GPU round of the app's kept maps (issue 11), from the repository root with .device/ and
# .device-gui/ carried: every GPU test and the kernel benchmarks (session8-round.sh, without its
# 10^8-system run), then the GUI round on EGL and under Xvfb with the app running a 2048 x 2048
# Duffing map (4.2 million systems: above the app's kept-map size, so its cells stay on the GPU), whose
# screenshot shows the path in the status bar. A short table last; the logs in $OUT/*.tar.gz.
set -uo pipefail
root=$(pwd)
out=${OUT:-$root/build-kept-map-logs}
mkdir -p "$out"
OUT=$out/gpu SKIP=big bash tests/device/session8-round.sh >"$out/gpu-round.txt" 2>&1
# the bundled map at 2048 x 2048, 64 transient periods: next to the original so that its model path holds
sed -e 's/"count": 256/"count": 2048/g' -e 's/"transient_sections": 512/"transient_sections": 64/' \
  resources/studies/duffing_period_map.json >resources/studies/duffing_period_map_2048.json
GUI_STUDY=$root/resources/studies/duffing_period_map_2048.json OUT=$out/gui bash tests/device/gui-round.sh \
  >"$out/gui-round.txt" 2>&1
tar -C "$out" -czf "$out/gpu-logs.tar.gz" gpu && rm -rf "$out/gpu"
for f in bifscope-run.png gl-interop.tar.gz summary.txt bench_map_drawn.log; do
  [[ -f $out/gui/$f ]] && mv "$out/gui/$f" "$out/"
done
tar -C "$out" -czf "$out/gui-logs.tar.gz" gui && rm -rf "$out/gui"
tail -25 "$out/gpu-round.txt"
cat "$out/summary.txt"
