#!/usr/bin/env bash
# Sets everything up, builds, and runs the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir build --output-on-failure --timeout 900
