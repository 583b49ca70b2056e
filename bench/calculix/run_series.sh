#!/usr/bin/env bash
# CalculiX's *FREQUENCY against fem's eigen methods on clamped_block_modal.yaml at growing sizes,
# each size side by side in one fem-bench-calculix process (ccx, then each fem method), every run
# bounded. Usage: bench/calculix/run_series.sh BUILD_DIR OUT_DIR [N ...] (N: cells across, the
# block has 2N x N x N hex8 and about 6 N^3 dofs). Env: METHODS (fem's rows), MODES (10),
# LIMIT (seconds per code, 3600), THREADS (ccx's, the core count).
set -euo pipefail
build=${1:?build dir}; out=${2:?output dir}; shift 2
sizes=("${@:-10 16 24}")
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
for n in ${sizes[@]}; do
  timeout $(( 4 * ${LIMIT:-3600} )) "$build/bench/calculix/fem-bench-calculix" "$here/clamped_block_modal.yaml" \
    --set "mesh.box.divisions=[$((2 * n)), $n, $n]" --modes "${MODES:-10}" \
    --methods "${METHODS:-multifrontal,band-cholesky,lobpcg}" --threads "${THREADS:-$(nproc)}" \
    --ccx-time-limit "${LIMIT:-3600}" --csv "$out/block-$n.csv" --json "$out/block-$n.json" | tee "$out/block-$n.txt"
done
