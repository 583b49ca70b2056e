#!/usr/bin/env bash
# fem run of one case by two builds side by side on one machine: an older tree (unpacked beside
# this one, e.g. `mkdir -p .ab/old && git archive ebe7c8a | tar -x -C .ab/old`, then carried to the
# GPU machine) against this working tree, both GPU-only Release builds, run alternately.
#
#   bench/ab_run.sh OLD_TREE CASE.yaml [REPEATS]      # prints one line per run: phases, wall, peak RSS
set -u
old_tree=${1:?old tree}; case_file=${2:?case file}; repeats=${3:-2}
root=$(cd "$(dirname "$0")/.." && pwd)
work=${FEM_AB_BUILD:-$root/.ab}
logs=${OUT:-$work/logs}
mkdir -p "$work" "$logs"
flags=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DFEM_WITH_GMSH=OFF -DFEM_WITH_VTK=OFF -DFEM_WITH_PETSC=OFF -DFEM_WITH_METIS=OFF
       -DFEM_WITH_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DBUILD_TESTING=OFF)
jobs=$(( $(nproc) / 2 ))
for v in old new; do
  src=$root; [ "$v" = old ] && src=$old_tree
  (cmake -S "$src" -B "$work/build-$v" "${flags[@]}" > "$logs/$v-configure.log" 2>&1 &&
     ninja -C "$work/build-$v" -j"$jobs" fem > "$logs/$v-build.log" 2>&1; echo "$v build: exit $?") &
done
wait
name=$(basename "$case_file" .yaml)
for rep in $(seq "$repeats"); do
  for v in old new; do
    /usr/bin/time -f "%e s wall, %M KB peak RSS" "$work/build-$v/fem/app/fem" run "$case_file" --quiet --output "$work/out-$v" \
      > "$logs/$v-$rep.log" 2> "$logs/$v-$rep.time"
    python3 - "$work/out-$v/$name.json" "$logs/$v-$rep.time" "$v" "$rep" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); t = s["time_s"]
phases = " ".join(f"{k} {t[k]:.2f}" for k in ["mesh", "renumber", "assemble", "solve", "post", "write"] if k in t)
print(sys.argv[3], sys.argv[4], phases, "setup %.2f" % s["solver_time_s"]["setup"], "its", s["iterations"],
      "res %.2e" % s["residual"], open(sys.argv[2]).read().strip().splitlines()[-1])
PY
  done
done
