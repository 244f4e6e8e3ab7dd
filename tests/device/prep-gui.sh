#!/usr/bin/env bash
# Packs the Qt app for the GPU server (issue 11), on a Debian 12 machine with Qt 6 and Xvfb, from the
# repository root:
#   bash tests/device/prep-gui.sh
# Builds bifscope, the GUI test programs test_gl_* and test_app_* and the app benchmarks here (the
# CUDA backend loads the driver and NVRTC at run time, so these binaries use the server's), then
# writes .device-gui/gui.tar.xz: the binaries, resources/, the Qt runtime and Xvfb with every library
# they load that the server may lack, Qt's xcb plugins, xkb data and xkbcomp, and one font family.
# `tests/device/round.sh gui` unpacks and runs it there.
#
# Never packed: the C and C++ runtimes (the server's g++ 13 runtime is newer) and every OpenGL
# library: GL must come from the server's glvnd and NVIDIA's driver, never from Mesa. glvnd's
# vendor-neutral dispatch libraries go into glvnd/, which the gui round uses only for those the
# server lacks: among them libEGL.so.1, which ui/render/egl_device_context.cpp opens at run time for
# the headless EGL context of test_gl_interop (NVIDIA's libEGL_nvidia behind it).
#
# The build reads its sources through the link /tmp/bifscope-src, so the source paths compiled into
# the test programs (their data) resolve on the server once the gui round points that link there.
# GUI_BUILD=DIR: another build folder under the source root (default build-gui-device).
# GUI_TARGETS="a b ...": pack only these programs (a quick round on a machine without a warm build).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
src=/tmp/bifscope-src
ln -sfn "$root" "$src"
build=$src/${GUI_BUILD:-build-gui-device}
export CCACHE_BASEDIR=$src
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" -DBIFSCOPE_GUI=ON \
  -DBIFSCOPE_BENCH=ON -DBIFSCOPE_SANITIZE=OFF -DBIFSCOPE_FUZZ=OFF >/dev/null

# The targets: every test_gl_* and test_app_* program, the EGL canvas's test, and the app benchmarks
# that exist in this tree.
targets=(bifscope)
for f in tests/ui/test_gl_*.cpp tests/ui/test_app_*.cpp tests/ui/test_plot_egl_canvas.cpp; do
  [[ -f $f ]] && targets+=("$(basename "$f" .cpp)")
done
available=$(cmake --build "$build" --target help | awk -F: '{print $1}')
for b in gl_info bench_app_zoom bench_gl_interop bench_gl_render bench_map_drawn; do
  grep -qx "$b" <<<"$available" && targets+=("$b")
done
[[ -n ${GUI_TARGETS:-} ]] && read -r -a targets <<<"$GUI_TARGETS"
echo "building: ${targets[*]}"
cmake --build "$build" -j "${GUI_JOBS:-2}" --target "${targets[@]}" | tail -2

stage=$(mktemp -d /tmp/gui-pack.XXXXXX)
trap 'rm -rf "$stage"' EXIT
pack=$stage/gui
mkdir -p "$pack"/{bin,lib,glvnd,plugins,xkb,fonts}
binaries=()
for t in "${targets[@]}"; do
  exe=$(find "$build" -name "$t" -type f -perm -u+x | head -1)
  [[ -n $exe ]] && cp "$exe" "$pack/bin/" && binaries+=("$pack/bin/$t")
done
strip --strip-unneeded "${binaries[@]}"
cp /usr/bin/Xvfb /usr/bin/xkbcomp "$pack/bin/"
# Xvfb runs "<XkbBinDirectory>/xkbcomp" with that folder compiled in as /usr/bin, where the server has
# no xkbcomp: the copy looks in /tmp/bxk (as long, so the string is replaced in place), which
# the gui round links to bin/.
[[ $(grep -c -a -o '/usr/bin' "$pack/bin/Xvfb") == 1 ]] || { echo "Xvfb: /usr/bin not found once" >&2; exit 1; }
sed -i 's|/usr/bin|/tmp/bxk|' "$pack/bin/Xvfb"

qt_plugins=$(dirname "$(dpkg -S '*/platforms/libqxcb.so' | head -1 | cut -d' ' -f2)")/..
for p in platforms/libqxcb.so platforms/libqoffscreen.so xcbglintegrations imageformats/libqpng.so \
  imageformats/libqjpeg.so imageformats/libqsvg.so iconengines/libqsvgicon.so; do
  [[ -e $qt_plugins/$p ]] || continue
  mkdir -p "$pack/plugins/$(dirname "$p")"
  cp -r "$qt_plugins/$p" "$pack/plugins/$(dirname "$p")/"
done

# Libraries: everything ldd resolves for the binaries and plugins, less the runtimes the server has
# and any OpenGL implementation; glvnd's dispatch libraries apart.
never='^(libc|libm|libdl|libpthread|librt|libutil|ld-linux-x86-64|libstdc\+\+|libgcc_s|libresolv)\.so'
gl_impl='^(libGLX_mesa|libEGL_mesa|libgallium|libglapi|libgbm|libvulkan|libnvidia|libcuda|libGLX_nvidia|libEGL_nvidia)'
glvnd='^(libGL|libGLX|libGLdispatch|libEGL|libOpenGL|libGLESv2)\.so'
objects=("${binaries[@]}" "$pack/bin/Xvfb" "$pack/bin/xkbcomp")
mapfile -t -O "${#objects[@]}" objects < <(find "$pack/plugins" -name '*.so')
ldd "${objects[@]}" 2>/dev/null | awk '/=> \//{print $3}' | sort -u | while read -r lib; do
  name=$(basename "$lib")
  if [[ $name =~ $never || $name =~ $gl_impl ]]; then continue; fi
  if [[ $name =~ $glvnd ]]; then cp -L "$lib" "$pack/glvnd/$name"; else cp -L "$lib" "$pack/lib/$name"; fi
done
# glvnd's EGL and OpenGL dispatchers that Qt loads at run time (not in ldd's list).
for name in libEGL.so.1 libOpenGL.so.0 libGL.so.1 libGLX.so.0 libGLdispatch.so.0; do
  for d in /lib/x86_64-linux-gnu /usr/lib/x86_64-linux-gnu; do
    [[ -e $d/$name && ! -e $pack/glvnd/$name ]] && cp -L "$d/$name" "$pack/glvnd/$name"
  done
done
if ls "$pack/lib" | grep -E "$gl_impl|$glvnd"; then echo "an OpenGL library slipped into lib/" >&2; exit 1; fi
for name in libEGL.so.1 libGLdispatch.so.0; do
  [[ -e $pack/glvnd/$name ]] || { echo "glvnd's $name not found (install libegl1)" >&2; exit 1; }
done

cp -r /usr/share/X11/xkb/. "$pack/xkb/"
cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf \
  /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf "$pack/fonts/"
cp -r resources "$pack/"
{ dpkg -S $(ls "$pack/lib" | sed 's|^|*/|') 2>/dev/null || true; } | cut -d: -f1 | sort -u \
  >"$pack/PACKAGES"
git rev-parse HEAD >"$pack/COMMIT" 2>/dev/null || true

mkdir -p .device-gui
tar -C "$stage" -cf - gui | xz -T2 -6 >.device-gui/gui.tar.xz.part
mv .device-gui/gui.tar.xz.part .device-gui/gui.tar.xz
echo "unpacked $(du -sh "$pack" | cut -f1), $(ls "$pack/lib" | wc -l) libraries from $(wc -l <"$pack/PACKAGES") packages"
echo ".device-gui/gui.tar.xz: $(du -h .device-gui/gui.tar.xz | cut -f1) ($(stat -c %s .device-gui/gui.tar.xz) bytes)"
