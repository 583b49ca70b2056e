#!/usr/bin/env bash
# Installs the Debian packages, configures and builds fem in build/ (Release). Safe to rerun.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >build-configure.log 2>&1 || { cat build-configure.log; exit 1; }
grep "fem: Gmsh" build-configure.log || true
cmake --build build --parallel "$(nproc)"
