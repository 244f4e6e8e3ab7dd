# round.sh gui: the Qt app and the OpenGL code on the GPU server (issue 11), from the programs that
# prep-gui.sh packed into .device-gui/gui.tar.xz on a Debian 12 machine (the server has no Qt). The
# package is unpacked under /tmp (never into /). Then
#   on EGL's device platform, no display: test_gl_interop (the CUDA path's framebuffers against the
#     host path's, each compared pair saved as PNG into gl-interop.tar.gz), test_gl_renderer,
#     test_plot_egl_canvas (the plot view's own EGL context, the CUDA path for a diagram),
#     bench_map_drawn (the 10^8-system map kept on the GPU and drawn; MAP_DRAWN_ARGS);
#   under Xvfb (1920x1080x24) with the server's glvnd and NVIDIA GLX (--skip xvfb leaves it out):
#     gl_info (which OpenGL Qt gets), the other test_gl_* and test_app_* programs, the app on a
#     study (--gui-study; default the Duffing period map) with --run and a screenshot
#     (bifscope-run.png), and the app benchmarks.
# Without an NVIDIA driver it runs the same steps on the machine's own OpenGL (Mesa), to check it.
mode_gui() {
  local tarball=$root/.device-gui/gui.tar.xz work=/tmp/bifscope-gui g bin
  [[ -f $tarball ]] || { row gui "no package" 0 "run tests/device/prep-gui.sh first"; return; }
  rm -rf "$work"
  mkdir -p "$work"/{run,config,cache,fontcache,glvnd}
  chmod 700 "$work/run"
  tar -C "$work" -xJf "$tarball"
  g=$work/gui
  bin=$g/bin
  (
    gui_environment "$work" "$g"
    gui_egl_steps "$bin"
    skipped xvfb || gui_xvfb_steps "$work" "$g" "$bin"
  )
  [[ -d $out/gl-interop ]] && tar -C "$out" -czf "$out/gl-interop.tar.gz" gl-interop && rm -rf "$out/gl-interop"
}

# Whether the system's loader knows a library (ldconfig may be outside a user's PATH).
system_has() { { ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } | awk '{print $1}' | grep -qx "$1"; }

# gui_environment WORK G: the packed libraries, glvnd's dispatchers only where the server has none,
# NVIDIA's GLX and EGL vendors, fonts, Qt's plugins, and the links that the packed programs expect:
# /tmp/bifscope-src (the source paths compiled into the test programs) and /tmp/bxk (the folder the
# patched Xvfb runs xkbcomp from).
gui_environment() {
  local work=$1 g=$2 lib f
  ln -sfn "$root" /tmp/bifscope-src
  ln -sfn "$g/bin" /tmp/bxk
  for lib in "$g"/glvnd/*; do
    system_has "$(basename "$lib")" || ln -s "$lib" "$work/glvnd/$(basename "$lib")"
  done
  export LD_LIBRARY_PATH=$g/lib:$work/glvnd${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  system_has libGLX_nvidia.so.0 && export __GLX_VENDOR_LIBRARY_NAME=nvidia
  # glvnd's EGL finds vendors through JSON files; the server may not have NVIDIA's.
  if system_has libEGL_nvidia.so.0 && [[ ! -e /usr/share/glvnd/egl_vendor.d/10_nvidia.json ]]; then
    printf '{"file_format_version":"1.0.0","ICD":{"library_path":"libEGL_nvidia.so.0"}}\n' >"$work/10_nvidia.json"
    export __EGL_VENDOR_LIBRARY_FILENAMES=$work/10_nvidia.json
  fi
  cat >"$work/fonts.conf" <<XML
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>$g/fonts</dir><cachedir>$work/fontcache</cachedir></fontconfig>
XML
  export FONTCONFIG_FILE=$work/fonts.conf
  export QT_PLUGIN_PATH=$g/plugins QT_QPA_PLATFORM=xcb
  export XDG_RUNTIME_DIR=$work/run XDG_CONFIG_HOME=$work/config XDG_CACHE_HOME=$work/cache
  export BIFSCOPE_CUDA_CACHE_DIR=$work/module-cache
  [[ -z ${CUDA_HOME:-} && -d /usr/local/cuda ]] && export CUDA_HOME=/usr/local/cuda
  # every library the packed programs need must resolve: from the package or the server
  for f in "$g"/bin/* "$g"/plugins/*/*.so; do
    ldd "$f" 2>/dev/null | grep 'not found' | sed "s|^|$(basename "$f"): |"
  done | sort -u >"$logs/missing-libraries.log"
  row "libraries not found" "$(wc -l <"$logs/missing-libraries.log")" 0 "$(head -1 "$logs/missing-libraries.log")"
}

# The steps on EGL's device platform (no display): the GPU where NVIDIA's EGL runs.
gui_egl_steps() {
  local bin=$1
  [[ -x $bin/test_gl_interop ]] && BIFSCOPE_TEST_IMAGES=$out/gl-interop QT_QPA_PLATFORM=offscreen \
    run_step "test_gl_interop (EGL)" 120 "$bin/test_gl_interop"
  [[ -x $bin/test_gl_renderer ]] && BIFSCOPE_GL_TARGET=egl QT_QPA_PLATFORM=offscreen \
    run_step "test_gl_renderer (EGL)" 120 "$bin/test_gl_renderer"
  [[ -x $bin/test_plot_egl_canvas ]] && QT_QPA_PLATFORM=offscreen \
    run_step "test_plot_egl_canvas" 120 "$bin/test_plot_egl_canvas"
  [[ -x $bin/bench_map_drawn ]] && BENCH_IMAGE=$out/map-drawn.png \
    run_step "bench_map_drawn (EGL)" 300 "$bin/bench_map_drawn" ${MAP_DRAWN_ARGS:-}
  return 0
}

# The steps under Xvfb, with the server's glvnd and NVIDIA GLX.
gui_xvfb_steps() {
  local work=$1 g=$2 bin=$3 display=99 xvfb t name platform study small=() b args
  while [[ -e /tmp/.X$display-lock || -e /tmp/.X11-unix/X$display ]]; do display=$((display + 1)); done
  export DISPLAY=:$display
  "$bin/Xvfb" ":$display" -screen 0 1920x1080x24 -xkbdir "$g/xkb" -nolisten tcp +extension GLX \
    >"$logs/xvfb.log" 2>&1 &
  xvfb=$!
  for _ in $(seq 50); do
    [[ -e /tmp/.X11-unix/X$display ]] && break
    sleep 0.1
  done
  trap 'kill "$xvfb" 2>/dev/null' EXIT
  row "display :$display" "$(kill -0 "$xvfb" 2>/dev/null && echo "Xvfb up" || echo "Xvfb FAILED")" 0 ""
  # what the server offers for OpenGL on X (why a context fails there)
  {
    ls -l /usr/share/glvnd/egl_vendor.d /usr/share/egl/egl_external_platform.d /usr/share/glvnd/glx_vendor.d
    { ldconfig -p 2>/dev/null || /sbin/ldconfig -p; } | grep -Ei 'nvidia|libGL|libEGL|libOpenGL'
    ls -l /dev/dri /dev/nvidia*
  } >"$logs/gl-environment.log" 2>&1
  # which OpenGL Qt gets: GLX first, then EGL on X11 when GLX gives no context
  if ! QT_LOGGING_RULES='qt.qpa.gl*=true;qt.glx*=true' run_step "gl_info xcb_glx" 30 "$bin/gl_info"; then
    export QT_XCB_GL_INTEGRATION=xcb_egl
    run_step "gl_info xcb_egl" 30 "$bin/gl_info" || unset QT_XCB_GL_INTEGRATION
  fi
  # the OpenGL test programs on xcb, the app's on the offscreen platform as ctest runs them (on xcb
  # test_app_window crashes at exit, in a glyph cache freed after its GL context)
  for t in "$bin"/test_gl_* "$bin"/test_app_*; do
    [[ -x $t ]] || continue
    name=$(basename "$t")
    [[ $name == test_gl_interop ]] && continue # on EGL above, whatever the platform
    platform=xcb
    [[ $name == test_app_* ]] && platform=offscreen
    QT_QPA_PLATFORM=$platform run_step "$name" 120 "$t"
  done
  study=${opt_gui_study:-$g/resources/studies/duffing_period_map.json}
  run_step "bifscope --run $(basename "$study")" 180 "$bin/bifscope" "$study" --run \
    --screenshot "$out/bifscope-run.png" --quit-after-run
  # the app-level benchmarks; without an NVIDIA driver, the app benchmark's small CPU sizes
  system_has libcuda.so.1 || small=(--small)
  for b in bench_app_zoom bench_gl_interop bench_gl_render; do
    [[ -x $bin/$b ]] || continue
    args=()
    [[ $b == bench_app_zoom ]] && args=("${small[@]}")
    run_step "$b" 150 "$bin/$b" "${args[@]}"
  done
  kill "$xvfb" 2>/dev/null
  trap - EXIT
}
