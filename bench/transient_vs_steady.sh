#!/usr/bin/env bash
# A transient heat case against its steady twin (the same file without its analysis section),
# solved side by side with each solver named: the set-up once and the time per step against one
# steady solve (set-up + solve), as issue 36 asks for on box_large's mesh.
#
#   bench/transient_vs_steady.sh [CASE.yaml] [SOLVER ...]   # default: cases/box_large_transient.yaml cg multifrontal
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
case_file=${1:-$root/cases/box_large_transient.yaml}; shift || true
solvers=("$@"); [ ${#solvers[@]} -gt 0 ] || solvers=(cg multifrontal)
fem=${FEM:-$root/build/fem/app/fem}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
# The steady twin: the analysis section (its line and the indented ones under it) left out.
awk '/^analysis:/ {skip = 1; next} skip && /^[ \t]/ {next} {skip = 0; print}' "$case_file" > "$work/steady.yaml"
cp "$case_file" "$work/transient.yaml"
sed -i "s|\.\./meshes/|$root/meshes/|" "$work/steady.yaml" "$work/transient.yaml"
printf "%-14s %12s %12s %12s %12s %10s\n" solver steady_s setup_s per_step_s iterations ratio
for s in "${solvers[@]}"; do
  "$fem" run "$work/steady.yaml" --solver "$s" --quiet --output "$work/out" > "$work/steady-$s.log"
  "$fem" run "$work/transient.yaml" --solver "$s" --quiet --output "$work/out" > "$work/transient-$s.log"
  python3 - "$work/out/steady.json" "$work/out/transient.json" "$s" <<'PY'
import json, sys
steady, transient = (json.load(open(p)) for p in sys.argv[1:3])
one = steady["solver_time_s"]["setup"] + steady["solver_time_s"]["solve"]
t = transient["solver_time_s"]
print(f"{sys.argv[3]:<14} {one:12.3f} {t['setup']:12.3f} {t['per_step']:12.4f} "
      f"{steady['iterations']:>5} / {transient['iterations']:<4} {t['per_step'] / one:10.4f}")
PY
done
