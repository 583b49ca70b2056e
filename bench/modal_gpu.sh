#!/usr/bin/env bash
# Issue 36's GPU target: the 20 lowest modes of the 118^3 hex8 cube (5.06M dofs) by LOBPCG + AMG on
# cuda (bench/cases/modal_cube118.yaml), with the GPU build of bench/gpu.sh (its build directory;
# fem is built there when missing, configured as gpu.sh does when the folder is new; or FEM_GPU_FEM,
# a fem packed by scripts/pack-gpu-build.sh, which saves the device the build). Prints the
# run's phases and mode table, then modes, iterations, V-cycles, solve seconds and the seconds of
# each LOBPCG step.
#
#   bench/modal_gpu.sh                                        # the case as it is
#   bench/modal_gpu.sh --set 'mesh.box.divisions=[40,40,40]'  # any fem run option after it
#
# The JSON goes to $OUT/modal_cube118 (the device tool's output folder) or build-gpu/results/.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FEM_GPU_BUILD:-$root/build-gpu}
results=${OUT:-$build/results}/modal_cube118
mkdir -p "$results"
# FEM_GPU_FEM: a fem built elsewhere (scripts/pack-gpu-build.sh's pack), used as it is.
fem=${FEM_GPU_FEM:-$build/fem/app/fem}
if [ -z "${FEM_GPU_FEM:-}" ]; then
  if [ ! -e "$build/build.ninja" ]; then
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DFEM_WITH_GMSH=OFF -DFEM_WITH_VTK=OFF \
      -DFEM_WITH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 > "$results/build.log" 2>&1 ||
      { echo "configure failed (see $results/build.log)"; tail -20 "$results/build.log"; exit 1; }
  fi
  timeout 1200 ninja -C "$build" fem >> "$results/build.log" 2>&1 ||
    { echo "building fem failed (see $results/build.log)"; tail -20 "$results/build.log"; exit 1; }
fi
export FEM_CACHE_DIR=${FEM_CACHE_DIR:-$build/fem-cache}

timeout "${FEM_MODAL_TIMEOUT:-400}" "$fem" run "$root/bench/cases/modal_cube118.yaml" \
  --output "$results" "$@" 2>&1 | tee "$results/run.txt"
status=${PIPESTATUS[0]}
json=$results/modal_cube118.json
if [ "$status" -eq 0 ] && [ -e "$json" ]; then
  python3 - "$json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
e = s["eigen_solver"]
print(f"modal_cube118: {s['dofs']} dofs, {len(s['frequencies_hz'])} modes "
      f"({s['frequencies_hz'][0]:.6g} .. {s['frequencies_hz'][-1]:.6g} Hz, worst residual {s['residual']:.2e}), "
      f"{e['iterations']} iterations, {e['solves']} V-cycles, solve {s['time_s']['solve']:.2f} s "
      f"(setup {e['time_setup_s']:.2f} s, V-cycles {e['time_solve_s']:.2f} s)")
steps = {k[len("lobpcg_"):-2]: v for k, v in s["solver_figures"].items() if k.startswith("lobpcg_")}
print("  LOBPCG steps (s): " + ", ".join(f"{k} {v:.3f}" for k, v in steps.items()))
PY
fi
exit "$status"
