#!/usr/bin/env bash
# Nsight Systems trace of the cublas chain (fem bench band --impl cublas) to see where a step's
# streams wait: chain_steps.py prints, for the timed factorisation, each stream's kernels with the
# idle time before each (the panel stream's waits for the update's cuBLAS calls and the event hops
# between streams) and a few steps of the timeline. Run after bench/gpu.sh (its build), on the GPU
# machine:
#   bench/band/profile_chain.sh [n] [b] [more fem bench band options]   # default n = 100000, b = 4000
# The report and the kernel table go to $OUT (or the build's results folder).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${FEM_GPU_BUILD:-$root/build-gpu}
out=${OUT:-$build/results}
mkdir -p "$out"
nsys=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys /usr/local/cuda/nsight-systems*/bin/nsys 2>/dev/null | head -1)
bench=$(find "$build" -type f -name fem-bench-band -perm -u+x 2>/dev/null | head -1)
[ -n "$nsys" ] && [ -n "$bench" ] || { echo "profile_chain: nsys ($nsys) or fem-bench-band ($bench) missing"; exit 1; }
"$nsys" --version | tail -1
n=${1:-100000} b=${2:-4000}
shift 2 2>/dev/null
timeout 200 "$nsys" profile -t cuda -s none --cpuctxsw=none -f true -o "$out/chain" \
  "$bench" --n "$n" --bandwidths "$b" --impl cublas --repeats 1 --dgemm 0 "$@" \
  > "$out/nsys_run.txt" 2>&1 || { echo "nsys failed:"; tail -30 "$out/nsys_run.txt"; exit 1; }
grep -E "cublas " "$out/nsys_run.txt" | tail -4
"$nsys" stats -q -r cuda_gpu_trace -f csv -o "$out/chain" "$out/chain.nsys-rep" > /dev/null 2>&1
trace=$(ls "$out"/chain_cuda_gpu_trace*.csv 2>/dev/null | head -1)
[ -n "$trace" ] || { echo "profile_chain: no kernel table from nsys stats"; exit 1; }
python3 "$root/bench/band/chain_steps.py" "$trace"
