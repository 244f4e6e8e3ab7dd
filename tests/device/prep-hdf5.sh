#!/usr/bin/env bash
# Adds HDF5 (Debian 12's serial libhdf5 1.10 and the compression libraries it loads) to .device/ for
# the GPU server, which has none: headers and shared libraries under .device/hdf5/{include,lib}.
# Run after ../shared/tools/device-prep.sh, from the project root; on the server tests/device/round.sh
# puts it on the paths (round_lib.sh, use_device_libraries).
set -euo pipefail
dest=.device/hdf5
rm -rf "$dest" && mkdir -p "$dest/include" "$dest/lib"
cp -a /usr/include/hdf5/serial/. "$dest/include/"
lib=/usr/lib/x86_64-linux-gnu
cp -L "$lib/libhdf5_serial.so.103" "$dest/lib/"
ln -s libhdf5_serial.so.103 "$dest/lib/libhdf5.so"
for so in libsz.so.2 libaec.so.0; do cp -L "$lib/$so" "$dest/lib/"; done
du -sh "$dest" | cut -f1 | sed 's/^/.device\/hdf5: /'
