#!/usr/bin/env bash
# Sets everything up, builds, checks the layering and the functions' length, and runs the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
python3 scripts/check_layering.py
python3 scripts/check_function_length.py
ctest --test-dir build --output-on-failure --timeout 900
