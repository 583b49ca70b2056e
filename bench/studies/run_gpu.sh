#!/usr/bin/env bash
# The GPU half of the comparison studies (cases/studies/): a GPU-only build of `fem` (no Gmsh,
# no VTK, sm_90; box meshes only), OpenCL through the NVIDIA driver, then each study with
# `fem sweep` into $OUT/<study>/ (or build-gpu/studies/). A sweep leaves compare.csv/json after
# every size, so one cut short by its timeout keeps what it measured; where this machine has no
# matplotlib, draw the report and plots elsewhere with `fem report DIR`.
#
#   bench/studies/run_gpu.sh
#   FEM_GPU_STUDIES="band_cholesky_bandwidth" FEM_STUDY_ARGS="--repeat 2 --time-budget 5" bench/studies/run_gpu.sh
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${FEM_GPU_BUILD:-$root/build-gpu}
results=${OUT:-$build/studies}
mkdir -p "$build" "$results"
log=$results/run_gpu.log
: > "$log"
say() { echo "$*" | tee -a "$log"; }
start=$(date +%s)

cmake_args=(-S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF
            -DFEM_WITH_GMSH=OFF -DFEM_WITH_VTK=OFF -DFEM_WITH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90)
# The CUDA toolkit carries the OpenCL headers and ICD loader when the system has none.
if [ ! -e /usr/include/CL/cl.h ] && [ -e /usr/local/cuda/include/CL/cl.h ]; then
  cl_lib=$(ls /usr/local/cuda/lib64/libOpenCL.so* /usr/lib/x86_64-linux-gnu/libOpenCL.so* 2>/dev/null | head -1)
  [ -n "$cl_lib" ] && cmake_args+=(-DOpenCL_INCLUDE_DIR=/usr/local/cuda/include -DOpenCL_LIBRARY="$cl_lib")
fi
cmake "${cmake_args[@]}" >> "$log" 2>&1 || { say "configure failed"; tail -30 "$log"; exit 1; }
grep -E '^-- fem:' "$log" | tail -1
ninja -C "$build" -j"$(nproc)" fem >> "$log" 2>&1 || { say "build failed"; tail -40 "$log"; exit 1; }
say "built fem in $(( $(date +%s) - start )) s"
fem=$build/fem/app/fem

# OpenCL through the NVIDIA driver.
icd_dir=$build/opencl-vendors
mkdir -p "$icd_dir"
echo "libnvidia-opencl.so.1" > "$icd_dir/nvidia.icd"
export OCL_ICD_VENDORS=$icd_dir
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | tee -a "$log"
"$fem" --version | tee -a "$log"

# Each study in turn. FEM_GPU_DEADLINE (seconds from the start, e.g. the device call's limit)
# shares the time left equally among the studies still to run; else FEM_STUDY_TIMEOUT each.
read -r -a studies <<< "${FEM_GPU_STUDIES:-band_cholesky_bandwidth frontal_devices direct_vs_cg_3d}"
read -r -a study_args <<< "${FEM_STUDY_ARGS:-}"
left=${#studies[@]}
for study in "${studies[@]}"; do
  limit=${FEM_STUDY_TIMEOUT:-100}
  if [ -n "${FEM_GPU_DEADLINE:-}" ]; then
    limit=$(( (FEM_GPU_DEADLINE - ($(date +%s) - start)) / left ))
  fi
  left=$(( left - 1 ))
  say "== $study (at most $limit s)"
  [ "$limit" -gt 5 ] || { say "   no time left"; continue; }
  timeout "$limit" "$fem" sweep "$root/cases/studies/$study.yaml" --output "$results/$study" \
    "${study_args[@]}" > "$results/$study.log" 2>&1
  status=$?
  [ $status -eq 0 ] || say "   ended with status $status (124: timeout; the checkpoint keeps the sizes done)"
  sed -n '/^solver /,$p' "$results/$study.log" | head -40
done
say "done in $(( $(date +%s) - start )) s"
