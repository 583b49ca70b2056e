#!/usr/bin/env bash
# Installs the Debian 12 packages fem builds and tests with. Safe to run again.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config
  libyaml-cpp-dev doctest-dev nlohmann-json3-dev libcli11-dev
  libgmsh-dev gmsh
  libvtk9-dev
  libopenblas-dev liblapacke-dev
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd
  libsuitesparse-dev
  libmetis-dev             # the multifrontal solver's nested dissection (optional: FEM_WITH_METIS)
  petsc-dev openmpi-bin    # the petsc and mumps solvers, and fem under mpirun (FEM_WITH_PETSC)
  slepc-dev                # the slepc eigen solver, Krylov-Schur on MUMPS (FEM_WITH_SLEPC)
  python3-scipy python3-matplotlib
  calculix-ccx             # test_bench_calculix and fem-bench-calculix compare with CalculiX's *FREQUENCY
  paraview xvfb xauth      # fem render: pvbatch, and a virtual display for it (xvfb-run)
)
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
else
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# ParaView's Python modules (for pvbatch): Debian's python3-paraview conflicts with python3-vtk9,
# which libvtk9-dev depends on, so installing it would remove the VTK that fem builds against.
# It is unpacked beside the system instead, where `fem render` looks for it
# (FEM_PARAVIEW_PYTHONPATH overrides the place).
paraview_python=/opt/fem-paraview
if [ ! -d "$paraview_python/usr/lib/python3/dist-packages/paraview" ]; then
  echo "install-deps: unpacking python3-paraview into $paraview_python"
  download=$(mktemp -d)
  (cd "$download" && apt-get download python3-paraview)
  $sudo mkdir -p "$paraview_python"
  $sudo dpkg-deb -x "$download"/python3-paraview_*.deb "$paraview_python"
  rm -rf "$download"
fi
