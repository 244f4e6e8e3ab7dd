#!/usr/bin/env bash
# The Qt app on the GPU server (issue 11), from the repository root with .device-gui/ carried (made by
# tests/device/gui-prep.sh):
#   bash tests/device/gui-round.sh
# Unpacks the carried Qt runtime and Xvfb under /tmp (never into /), then (e) with no display, on
# EGL's device platform (NVIDIA's EGL through glvnd): test_gl_interop, the CUDA path's framebuffers
# against the host path's, saving each compared pair as PNG in $OUT/gl-interop/, test_gl_renderer
# on that context, and test_plot_egl_canvas (the plot view drawing through its own EGL context, the
# CUDA path for a diagram). Then it starts Xvfb on a 1920x1080x24 screen, and with the server's glvnd and
# NVIDIA GLX runs (a) gl_info: which OpenGL Qt gets, (b) the other OpenGL test programs, (c) the app
# on a bundled study with --run, saving a screenshot once the run ends, (d) the app benchmarks. Logs
# and the screenshot go to $OUT; a short table is printed last. On a machine without an NVIDIA
# driver it runs the same steps on that machine's OpenGL (Mesa), to check the scripts.
# GUI_STUDY=FILE: the study the app runs (default the Duffing period map). GUI_EGL_ONLY=1: step (e)
# only (no Xvfb, no app), the quick round for the interop test.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
out=${OUT:-$root/build-gui-round-logs}
# Few files come back from a round: the summary, the screenshot, gl_info.log and bench_app_zoom.log
# stay in $OUT, every other log goes into logs.tar.gz.
final=$out
out=$final/logs
mkdir -p "$out"
tarball=.device-gui/gui.tar.xz
[[ -f $tarball ]] || { echo "no $tarball: run tests/device/gui-prep.sh first" >&2; exit 1; }

work=/tmp/bifscope-gui
rm -rf "$work"
mkdir -p "$work"/{run,config,cache,fontcache,glvnd}
chmod 700 "$work/run"
tar -C "$work" -xJf "$tarball"
g=$work/gui
# The source paths compiled into the test programs, and the folder the patched Xvfb runs xkbcomp from.
ln -sfn "$root" /tmp/bifscope-src
ln -sfn "$g/bin" /tmp/bxk

# Whether the system's loader knows a library (ldconfig may be outside a user's PATH).
system_has() { { ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } | awk '{print $1}' | grep -qx "$1"; }
# glvnd's dispatch libraries from the package only where the server has none of its own.
for lib in "$g"/glvnd/*; do
  name=$(basename "$lib")
  system_has "$name" || ln -s "$lib" "$work/glvnd/$name"
done
export LD_LIBRARY_PATH=$g/lib:$work/glvnd${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
system_has libGLX_nvidia.so.0 && export __GLX_VENDOR_LIBRARY_NAME=nvidia
# glvnd's EGL finds vendors through JSON files; the server may not have NVIDIA's.
if system_has libEGL_nvidia.so.0 && [[ ! -e /usr/share/glvnd/egl_vendor.d/10_nvidia.json ]]; then
  printf '{"file_format_version":"1.0.0","ICD":{"library_path":"libEGL_nvidia.so.0"}}\n' >"$work/10_nvidia.json"
  export __EGL_VENDOR_LIBRARY_FILENAMES=$work/10_nvidia.json
fi
cat >"$work/fonts.conf" <<EOF
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>$g/fonts</dir><cachedir>$work/fontcache</cachedir></fontconfig>
EOF
export FONTCONFIG_FILE=$work/fonts.conf
export QT_PLUGIN_PATH=$g/plugins QT_QPA_PLATFORM=xcb
export XDG_RUNTIME_DIR=$work/run XDG_CONFIG_HOME=$work/config XDG_CACHE_HOME=$work/cache
export BIFSCOPE_CUDA_CACHE_DIR=$work/module-cache
[[ -z ${CUDA_HOME:-} && -d /usr/local/cuda ]] && export CUDA_HOME=/usr/local/cuda

# Every library the packed programs need must resolve: from the package or the server.
for f in "$g"/bin/* "$g"/plugins/*/*.so; do
  ldd "$f" 2>/dev/null | grep 'not found' | sed "s|^|$(basename "$f"): |"
done | sort -u >"$out/missing-libraries.log"

declare -a table
row() { table+=("$(printf '%-34s %s' "$1" "$2")"); }
status_of() { case $1 in 0) echo ok ;; 77) echo skipped ;; 124) echo "timed out" ;; *) echo "FAILED ($1)" ;; esac; }
bin=$g/bin
# The table and the few files that come back; every other log into logs.tar.gz.
finish() {
  {
    echo "== GUI round: $(head -1 "$out/gpu.log")"
    printf '%s\n' "${table[@]}"
    [[ -s $out/missing-libraries.log ]] && head -5 "$out/missing-libraries.log"
    [[ -f $out/bench_app_zoom.log ]] && grep -E '^(diagram|map)' "$out/bench_app_zoom.log"
    [[ -f $out/bench_gl_interop.log ]] && tail -5 "$out/bench_gl_interop.log"
    [[ -f $out/bench_map_drawn.log ]] && grep -E '^(GL|path|warm|map)' "$out/bench_map_drawn.log"
  } | tee "$final/summary.txt"
  # the compared framebuffers as one file: few files come back from a round
  [[ -d $final/gl-interop ]] && tar -C "$final" -czf "$final/gl-interop.tar.gz" gl-interop && rm -rf "$final/gl-interop"
  for f in gl_info.log bench_app_zoom.log; do [[ -f $out/$f ]] && cp "$out/$f" "$final/"; done
  tar -C "$final" -czf "$final/logs.tar.gz" logs && rm -rf "$out"
}

{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "no NVIDIA GPU"; } \
  >"$out/gpu.log"
ls /usr/local/cuda*/lib64/libnvrtc.so* >>"$out/gpu.log" 2>&1

# (e) no display: the renderer on EGL's device platform (the GPU where NVIDIA's EGL runs), the CUDA
# path against the host path with every compared framebuffer saved, then the renderer's host path
# against the images computed from the numbers
if [[ -x $bin/test_gl_interop ]]; then
  BIFSCOPE_TEST_IMAGES=$final/gl-interop QT_QPA_PLATFORM=offscreen timeout 120 "$bin/test_gl_interop" \
    >"$out/test_gl_interop.log" 2>&1
  rc=$?
  cp "$out/test_gl_interop.log" "$final/"
  row "test_gl_interop (EGL)" \
    "$(status_of $rc): $(grep -E '^(All tests passed|test cases:|SKIPPED:|SKIP:)' "$out/test_gl_interop.log" | tail -1)"
  row "  context" "$(grep -A3 'context: ' "$out/test_gl_interop.log" | tr -s ' \n' ' ' | cut -c1-200)"
fi
if [[ -x $bin/test_gl_renderer ]]; then
  BIFSCOPE_GL_TARGET=egl QT_QPA_PLATFORM=offscreen timeout 120 "$bin/test_gl_renderer" \
    >"$out/test_gl_renderer-egl.log" 2>&1
  rc=$?
  row "test_gl_renderer (EGL)" \
    "$(status_of $rc): $(grep -E '^(All tests passed|test cases:|SKIP:)' "$out/test_gl_renderer-egl.log" | tail -1)"
fi
# The plot view's EGL canvas on the offscreen platform: on this server its EGL device is the CUDA
# GPU, so the diagram takes the CUDA path through it.
if [[ -x $bin/test_plot_egl_canvas ]]; then
  QT_QPA_PLATFORM=offscreen timeout 120 "$bin/test_plot_egl_canvas" >"$out/test_plot_egl_canvas.log" 2>&1
  rc=$?
  row "test_plot_egl_canvas" \
    "$(status_of $rc): $(grep -E '^(All tests passed|test cases:|SKIP:)' "$out/test_plot_egl_canvas.log" | tail -1)"
fi
# The 10^8-system map kept on the GPU and drawn on EGL (no display), against its integration kernels.
if [[ -x $bin/bench_map_drawn ]]; then
  BENCH_IMAGE=$final/map-drawn.png timeout 300 "$bin/bench_map_drawn" ${MAP_DRAWN_ARGS:-} \
    >"$out/bench_map_drawn.log" 2>&1
  rc=$?
  cp "$out/bench_map_drawn.log" "$final/"
  row "bench_map_drawn (EGL)" "$(status_of $rc) (bench_map_drawn.log)"
fi
if [[ -n ${GUI_EGL_ONLY:-} ]]; then
  finish
  exit 0
fi

display=99
while [[ -e /tmp/.X$display-lock || -e /tmp/.X11-unix/X$display ]]; do display=$((display + 1)); done
export DISPLAY=:$display
"$g/bin/Xvfb" ":$display" -screen 0 1920x1080x24 -xkbdir "$g/xkb" -nolisten tcp +extension GLX \
  >"$out/xvfb.log" 2>&1 &
xvfb=$!
for _ in $(seq 50); do
  [[ -e /tmp/.X11-unix/X$display ]] && break
  sleep 0.1
done
stop_xvfb() { kill "$xvfb" 2>/dev/null; }
trap stop_xvfb EXIT

row "display :$display" "$(kill -0 "$xvfb" 2>/dev/null && echo "Xvfb running" || echo "Xvfb FAILED (xvfb.log)")"
row "libraries not found" "$(wc -l <"$out/missing-libraries.log")"

# What the server offers for OpenGL on X (why a context fails there)
{
  ls -l /usr/share/glvnd/egl_vendor.d /usr/share/egl/egl_external_platform.d /usr/share/glvnd/glx_vendor.d
  ls /usr/lib/xorg/modules/extensions /usr/lib/xorg/modules/drivers /usr/lib/x86_64-linux-gnu/nvidia/xorg
  { ldconfig -p 2>/dev/null || /sbin/ldconfig -p; } | grep -Ei 'nvidia|libGL|libEGL|libOpenGL'
  ls -l /dev/dri /dev/nvidia*
} >"$out/gl-environment.log" 2>&1

# (a) which OpenGL Qt gets: GLX first, then EGL on X11 when GLX gives no context
QT_LOGGING_RULES='qt.qpa.gl*=true;qt.glx*=true' timeout 30 "$bin/gl_info" >"$out/gl_info.log" 2>&1
rc=$?
if [[ $rc != 0 ]]; then
  export QT_XCB_GL_INTEGRATION=xcb_egl
  { echo "--- with QT_XCB_GL_INTEGRATION=xcb_egl"; EGL_LOG_LEVEL=debug QT_LOGGING_RULES='qt.qpa.*=true' \
    timeout 30 "$bin/gl_info"; } >>"$out/gl_info.log" 2>&1
  rc=$?
  [[ $rc != 0 ]] && unset QT_XCB_GL_INTEGRATION
fi
row "gl_info ${QT_XCB_GL_INTEGRATION:-xcb_glx}" "$(status_of $rc): $(grep -m1 GL_RENDERER "$out/gl_info.log" | cut -c13-)"

# (b) the OpenGL test programs on xcb, the app's on the offscreen platform as ctest runs them (on
# xcb test_app_window crashes at exit, in a glyph cache freed after its GL context)
for t in "$bin"/test_gl_* "$bin"/test_app_*; do
  [[ -x $t ]] || continue
  name=$(basename "$t")
  [[ $name == test_gl_interop ]] && continue # ran in (e): its context is EGL's on any platform
  platform=xcb
  [[ $name == test_app_* ]] && platform=offscreen
  QT_QPA_PLATFORM=$platform timeout 120 "$t" >"$out/$name.log" 2>&1
  rc=$?
  row "$name" "$(status_of $rc): $(grep -E '^(All tests passed|test cases:)' "$out/$name.log" | tail -1)"
done

# (c) the app: open a bundled study, run it, save the window when the run ends
study=${GUI_STUDY:-$g/resources/studies/duffing_period_map.json}
start=$(date +%s%N)
timeout 180 "$bin/bifscope" "$study" --run --screenshot "$final/bifscope-run.png" --quit-after-run \
  >"$out/bifscope.log" 2>&1
rc=$?
row "bifscope --run $(basename "$study")" "$(status_of $rc) in $((($(date +%s%N) - start) / 1000000)) ms; \
$([[ -f $final/bifscope-run.png ]] && echo "bifscope-run.png" || echo "no screenshot")"

# (d) the app-level benchmarks (and the interop one where this tree has it); without an NVIDIA
# driver, the app benchmark's small CPU sizes
small=()
system_has libcuda.so.1 || small=(--small)
for b in bench_app_zoom bench_gl_interop bench_gl_render; do
  [[ -x $bin/$b ]] || continue
  args=()
  [[ $b == bench_app_zoom ]] && args=("${small[@]}")
  timeout 150 "$bin/$b" "${args[@]}" >"$out/$b.log" 2>&1
  row "$b" "$(status_of $?) ($b.log)"
done
stop_xvfb
finish
