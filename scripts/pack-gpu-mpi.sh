#!/usr/bin/env bash
# Packs a CPU build of fem with PETSc, SLEPc and MUMPS, its shared libraries and Debian's OpenMPI
# runtime into one folder for the GPU machine's host, which has no MPI, PETSc or package registry:
# the scaling runs of issue #39 and the SLEPc reference rows run there on its 16+ cores. The
# libraries are the ones this Debian machine loads for that build (glibc's own stay behind: the
# GPU machine's are newer), so the folder runs what was tested here. The device tool carries at
# most 64 MiB, hence xz.
#
#   scripts/pack-gpu-mpi.sh BUILD [folder]   # BUILD: a build tree configured with FEM_WITH_PETSC
#                                            # (VTK, Gmsh, CUDA and OpenCL off keep it small)
# There: tar -xJf FOLDER/fem-mpi.tar.xz -C /tmp && source /tmp/fem-mpi/env.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:?"usage: $0 BUILD [folder]"}
target=${2:-$root/gpu-mpi}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
pack=$stage/fem-mpi
mkdir -p "$pack/bin" "$pack/lib"
cp "$build/fem/app/fem" "$pack/bin/"

# Every library the binary and OpenMPI's launcher load, under the name the loader asks for.
source "$root/scripts/library_closure.sh"
copy_closure "$build/fem/app/fem" "$pack/lib"
launcher=$(readlink -f "$(command -v mpirun)")
cp "$launcher" "$pack/bin/mpirun"
copy_closure "$launcher" "$pack/lib"

# OpenMPI finds its components and help texts relative to OPAL_PREFIX; PMIx likewise.
ompi_libdir=/usr/lib/x86_64-linux-gnu/openmpi/lib
mkdir -p "$pack/usr/lib/x86_64-linux-gnu/openmpi/lib" "$pack/usr/share" "$pack/usr/lib/x86_64-linux-gnu/pmix2"
cp -a "$ompi_libdir/openmpi3" "$pack/usr/lib/x86_64-linux-gnu/openmpi/lib/"
cp -a /usr/share/openmpi "$pack/usr/share/"
cp -a /usr/lib/x86_64-linux-gnu/pmix2/lib /usr/lib/x86_64-linux-gnu/pmix2/share "$pack/usr/lib/x86_64-linux-gnu/pmix2/"
find "$pack/usr" -name "*.a" -delete
for component in "$pack"/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/*.so; do copy_closure "$component" "$pack/lib" 2>/dev/null || true; done

cat > "$pack/env.sh" <<'EOF'
# Source after unpacking: fem and mpirun from this folder, shared memory between the ranks of one host.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export PATH=$here/bin:$PATH
export LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OPAL_PREFIX=$here/usr PMIX_INSTALL_PREFIX=$here/usr/lib/x86_64-linux-gnu/pmix2
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_mca_base_component_show_load_errors=0
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
EOF
mkdir -p "$target"
tar -C "$stage" -cJf "$target/fem-mpi.tar.xz" fem-mpi
echo "pack-gpu-mpi: $(du -sh "$pack" | cut -f1) unpacked, $(du -h "$target/fem-mpi.tar.xz" | cut -f1) as $target/fem-mpi.tar.xz"
