#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer build of the core (no CUDA, OpenCL or VTK) in
# build-sanitize/: runs the unit tests, the bad-input catalogue and the fuzzer (its corpus, then
# a short mutation run) with every sanitizer report fatal. .ci/run calls it after scripts/test.sh;
# FEM_SANITIZE_FUZZ_SECONDS sets the mutation run per reader (default 10). -g1: line tables are
# enough for the reports' stack traces and compile faster than full debug information.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
cmake -S . -B build-sanitize -G Ninja "${launcher[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_CXX_FLAGS="$sanitize" \
  -DCMAKE_EXE_LINKER_FLAGS="$sanitize" -DFEM_WITH_CUDA=OFF -DFEM_WITH_OPENCL=OFF -DFEM_WITH_VTK=OFF \
  >build-sanitize-configure.log 2>&1 || { cat build-sanitize-configure.log; exit 1; }
# The unit tests of the core and what runs the fem binary on bad input; not the studies and
# app tests, which the Release build covers and which would double the time here.
tests=(test_elements test_box_part test_renumber test_dense_kernels test_mesh test_verification test_band_cholesky test_band_fe
       test_frontal test_iterative test_bad_inputs)
cmake --build build-sanitize --parallel "$(nproc)" --target fem fuzz_inputs "${tests[@]}"
# Leaks are not checked: Gmsh, OpenMPI and OpenBLAS keep allocations for the process's life.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
regex="^($(IFS='|'; echo "${tests[*]}"))$"
ctest --test-dir build-sanitize --output-on-failure --timeout 900 -R "$regex"
build-sanitize/tests/fuzz/fuzz_inputs tests/fuzz/corpus --corpus-only --crashes build-sanitize/fuzz-crashes
build-sanitize/tests/fuzz/fuzz_inputs tests/fuzz/corpus --seconds "${FEM_SANITIZE_FUZZ_SECONDS:-10}" \
  --crashes build-sanitize/fuzz-crashes
echo "sanitize.sh: $(( $(date +%s) - start )) s"
