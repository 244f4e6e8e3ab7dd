#!/usr/bin/env bash
# Adds Eigen (header-only; engine/continuation needs it) to .device/ for the GPU server, which has
# none: Debian 12's libeigen3-dev laid out under .device/prefix/usr like device-prep.sh's packages,
# so that find_package(Eigen3) resolves through the CMAKE_PREFIX_PATH that .device/env.sh sets.
# Run after ../shared/tools/device-prep.sh, from the project root.
set -euo pipefail
dpkg -s libeigen3-dev >/dev/null 2>&1 || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libeigen3-dev >/dev/null
dest=.device/prefix
dpkg -L libeigen3-dev | while read -r f; do
  [[ -f $f ]] || continue
  case "$f" in /usr/share/doc/*) continue ;; esac
  mkdir -p "$dest$(dirname "$f")" && cp -P "$f" "$dest$f"
done
du -sh "$dest/usr/include/eigen3" | cut -f1 | sed 's/^/.device eigen3: /'
