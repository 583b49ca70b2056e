#!/usr/bin/env bash
# Fetches Debian 12's METIS and CHOLMOD (with the SuiteSparse pieces CHOLMOD loads) and OpenBLAS's
# BLAS and LAPACK into gpu-deps/, unpacked, not installed: the GPU machine has neither METIS nor
# CHOLMOD, its libblas.so.3 is the reference BLAS (one thread: CHOLMOD ran at 10-50 GFLOP/s on 16
# cores), and it has no network, so the folder travels with the tree (the device tool's carry,
# about 50 MB) and bench/gpu.sh points CMake and the loader at it. Run on a Debian 12 machine with
# apt sources; safe to run again.
#
#   scripts/fetch-gpu-deps.sh [folder]      # default: gpu-deps/ at the repository root
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
target=${1:-$root/gpu-deps}
packages=(
  libmetis5 libmetis-dev
  libcholmod3 libamd2 libcamd2 libccolamd2 libcolamd2 libsuitesparseconfig5
  libsuitesparse-dev       # cholmod.h and the libcholmod.so link
  libopenblas0-pthread libgfortran5  # openblas-pthread/libblas.so.3 and liblapack.so.3 for CHOLMOD
)
downloads=$(mktemp -d)
trap 'rm -rf "$downloads"' EXIT
# apt-get download writes into the current folder; _apt may not read a private temporary one.
chmod 755 "$downloads"
(cd "$downloads" && apt-get download "${packages[@]}")
rm -rf "$target"
mkdir -p "$target"
for deb in "$downloads"/*.deb; do dpkg -x "$deb" "$target"; done
rm -rf "$target/usr/share"  # documentation and copyright files: not needed to build or run
find "$target" -name "*.a" -delete  # static archives: the build links the shared libraries
echo "fetch-gpu-deps: ${#packages[@]} packages unpacked into $target ($(du -sh "$target" | cut -f1))"
