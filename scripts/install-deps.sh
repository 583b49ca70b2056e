#!/usr/bin/env bash
# Installs the Debian 12 packages fem builds and tests with. Safe to run again.
set -euo pipefail
packages=(
  build-essential cmake ninja-build pkg-config
  libyaml-cpp-dev doctest-dev nlohmann-json3-dev
  libgmsh-dev gmsh
  libvtk9-dev
  libopenblas-dev liblapacke-dev
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd
  libsuitesparse-dev
  python3-scipy python3-matplotlib
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
