#!/usr/bin/env bash
# Nsight Compute on one launch of the persistent band kernel (the launch after the benchmark's
# warm-up), to see what holds its pivot chain: the kernel's warp states and, per SASS
# instruction, the sampled stall reasons (ncu_stalls.py prints the chain's). Run after
# bench/gpu.sh (its build), on the GPU machine:
#   bench/band/profile_persistent.sh [n] [b]      # default n = 20000, b = 1000
# The report and the full per-instruction table go to $OUT (or the build's results folder).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${FEM_GPU_BUILD:-$root/build-gpu}
out=${OUT:-$build/results}
mkdir -p "$out"
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
bench=$(find "$build" -type f -name fem-bench-band -perm -u+x 2>/dev/null | head -1)
[ -n "$ncu" ] && [ -n "$bench" ] || { echo "profile_persistent: ncu ($ncu) or fem-bench-band ($bench) missing"; exit 1; }
"$ncu" --version | tail -1
timeout 200 "$ncu" --clock-control none --set full -k regex:band_kernel -s 1 -c 1 -f -o "$out/persistent" \
  "$bench" --n "${1:-20000}" --bandwidths "${2:-1000}" --impl cuda-persistent --repeats 1 --dgemm 0 \
  > "$out/ncu_run.txt" 2>&1 || { echo "ncu failed:"; tail -30 "$out/ncu_run.txt"; exit 1; }
report=$out/persistent.ncu-rep
"$ncu" -i "$report" --page details > "$out/ncu_details.txt" 2>&1
"$ncu" -i "$report" --page raw --csv > "$out/ncu_raw.csv" 2>&1
"$ncu" -i "$report" --page source --csv --print-source sass > "$out/ncu_sass.csv" 2>&1
grep -E "cuda-persistent|==PROF==|==ERROR|==WARNING" "$out/ncu_run.txt" | tail -8
cat "$out/ncu_details.txt"
if command -v python3 > /dev/null; then
  python3 "$root/bench/band/ncu_stalls.py" "$out/ncu_raw.csv" "$out/ncu_sass.csv"
else  # no python: the first chain column as it is
  grep -m 2 -B 2 -A 60 "MUFU.RCP64H" "$out/ncu_sass.csv"
fi
