#!/usr/bin/env bash
# Sets everything up and runs the default case: results land in cases/results/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
./build/fem/app/fem run cases/box.yaml
echo "Open cases/results/box.vtu in ParaView."
