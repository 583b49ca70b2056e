#!/usr/bin/env bash
# Strong and weak scaling of `fem run --solver petsc` (CG + GAMG) under mpirun on one host: each
# rank count runs in its own mpirun, one OpenMP thread a rank, and one line of the table comes
# from the run's JSON summary (the phases are rank 0's; peak memory per rank where the summary
# gives it, else the largest rank's). For the GPU machine's host, fem and mpirun come from
# scripts/pack-gpu-mpi.sh's folder (source its env.sh first).
#
#   bench/mpi_scaling.sh strong CASE.yaml "1 2 4 8 16" [--set ...]   # the same case on each count
#   bench/mpi_scaling.sh weak CASE.yaml "1 2 4 8 16" PER_RANK_DOFS    # a cube of n^3 hex8 per count
# The device is set to cpu (PETSc runs there). Writes OUT (default ./mpi-scaling)/scaling.csv and prints a markdown table.
set -u
mode=${1:?strong or weak}; case_file=${2:?case file}; counts=${3:?rank counts}
shift 3
out=${OUT:-$PWD/mpi-scaling}
mkdir -p "$out"
csv=$out/scaling.csv
[ -e "$csv" ] || echo "mode,ranks,dofs,mesh,renumber,assemble,pcsetup,kspsolve,iterations,post,write,wall,peak_rank_bytes,residual" > "$csv"
extra=("$@")
for ranks in $counts; do
  sets=("${extra[@]}")
  if [ "$mode" = weak ]; then
    per_rank=${extra[0]:?dofs per rank}
    # 3 (n+1)^3 dofs of an n^3 hex8 cube: n from the total.
    n=$(python3 -c "print(max(2, round(($per_rank * $ranks / 3) ** (1 / 3)) - 1))")
    sets=(--set "mesh.box.divisions=[$n,$n,$n]")
  fi
  name=$mode-$ranks
  start=$(date +%s.%N)
  bind=core; [ "$ranks" -gt "$(nproc)" ] && bind=none  # more ranks than cores: no pinning
  OMP_NUM_THREADS=1 timeout "${FEM_SCALING_TIMEOUT:-900}" mpirun --oversubscribe --bind-to $bind -n "$ranks" \
    fem run "$case_file" --solver petsc --set solver.device=cpu --quiet --output "$out/$name" "${sets[@]}" > "$out/$name.log" 2>&1
  status=$?
  wall=$(python3 -c "import time; print(f'{time.time() - $start:.2f}')")
  if [ $status -ne 0 ]; then echo "$mode $ranks ranks: exit $status (log: $out/$name.log)"; continue; fi
  python3 - "$out/$name" "$mode" "$ranks" "$wall" >> "$csv" <<'PY'
import glob, json, sys
folder, mode, ranks, wall = sys.argv[1:]
s = json.load(open(glob.glob(folder + "/*.json")[0]))
t = s["time_s"]
per_rank = s.get("peak_memory_bytes_per_rank") or [s["peak_memory_bytes"]]
print(",".join(str(v) for v in [mode, ranks, s["dofs"], t.get("mesh", 0), t.get("renumber", 0), t.get("assemble", 0),
                                s.get("time_pcsetup_s", 0), s.get("time_kspsolve_s", 0), s.get("iterations", 0),
                                t.get("post", 0), t.get("write", 0), wall, max(per_rank), s.get("residual", 0)]))
PY
done
python3 - "$csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("| mode | ranks | dofs | mesh | assemble | GAMG setup | CG solve (its) | post | wall | speed-up | peak MB/rank |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
# Against the fewest ranks of the same mode (and, strong, the same problem).
key = lambda r: (r["mode"], r["dofs"] if r["mode"] == "strong" else "")
fewest = {}
for r in rows:
    if key(r) not in fewest or int(r["ranks"]) < int(fewest[key(r)]["ranks"]):
        fewest[key(r)] = r
for r in rows:
    base = float(fewest[key(r)]["wall"])
    ratio = base / float(r["wall"]) if r["mode"] == "strong" else float(r["wall"]) / base
    print(f"| {r['mode']} | {r['ranks']} | {int(r['dofs']):,} | {float(r['mesh']):.2f} | {float(r['assemble']):.2f} | "
          f"{float(r['pcsetup']):.2f} | {float(r['kspsolve']):.2f} ({r['iterations']}) | {float(r['post']):.2f} | "
          f"{float(r['wall']):.2f} | {ratio:.2f}{'x' if r['mode'] == 'strong' else ' of the fewest'} | "
          f"{int(r['peak_rank_bytes']) / 2**20:.0f} |")
PY
