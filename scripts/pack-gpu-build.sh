#!/usr/bin/env bash
# Builds fem's GPU-only configuration here (as bench/gpu.sh configures it on the GPU machine: no
# Gmsh, no VTK, no PETSc, CUDA for sm_90) and packs the chosen programs with every library they
# load except glibc's and CUDA's (the GPU machine has newer ones of both), so that a device call
# runs them at once instead of spending minutes of device time building. The device tool carries
# at most 64 MiB: the pack is xz-compressed (about 12 MB for fem and one test).
#
#   scripts/pack-gpu-build.sh [program ...]   # default: fem and the GPU tests below; build in
#                                             # build-gpu-pack/, pack in gpu-build/
# There: tar -xJf gpu-build/fem-gpu.tar.xz -C /tmp && source /tmp/fem-gpu/env.sh, then
#        FEM_GPU_PREBUILT=1 FEM_GPU_BUILD=/tmp/fem-gpu bench/gpu.sh    (the packed tests)
#        FEM_GPU_FEM=$(command -v fem) bench/modal_gpu.sh              (the modal target)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FEM_PACK_BUILD:-$root/build-gpu-pack}
target=$root/gpu-build
programs=("${@:-fem test_lobpcg_cuda test_device_assembly test_iterative_cuda test_amg test_dense_kernels}")
read -r -a programs <<< "${programs[*]}"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFEM_WITH_GMSH=OFF -DFEM_WITH_VTK=OFF \
  -DFEM_WITH_PETSC=OFF -DFEM_WITH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 > "$build.configure.log" 2>&1 ||
  { echo "pack-gpu-build: configure failed (see $build.configure.log)"; exit 1; }
ninja -C "$build" "${programs[@]}"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
pack=$stage/fem-gpu
mkdir -p "$pack/bin" "$pack/lib"
source "$root/scripts/library_closure.sh"
for program in "${programs[@]}"; do
  path=$(find "$build" -type f -name "$program" -perm -u+x | head -1)
  [ -n "$path" ] || { echo "pack-gpu-build: $program was not built"; exit 1; }
  cp "$path" "$pack/bin/"
  copy_closure "$path" "$pack/lib" '^(libcuda|libcudart|libcublas|libcublasLt|libcusparse|libnvJitLink|libnvidia-ml)\.so'
done
cat > "$pack/env.sh" <<'ENV'
# Source after unpacking: the packed programs on PATH, their libraries first, CUDA's from the machine.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH=$here/bin:$PATH
export LD_LIBRARY_PATH=$here/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ENV
mkdir -p "$target"
tar -C "$stage" -cJf "$target/fem-gpu.tar.xz" fem-gpu
echo "pack-gpu-build: ${programs[*]}: $(du -sh "$pack" | cut -f1) unpacked, $(du -h "$target/fem-gpu.tar.xz" | cut -f1) as $target/fem-gpu.tar.xz"
