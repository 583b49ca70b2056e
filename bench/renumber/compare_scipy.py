#!/usr/bin/python3
"""Our RCM against SciPy's reverse_cuthill_mckee on the same graphs, as a ratio.

Usage:
  fem-bench-renumber --export DIR        # writes DIR/<graph>.csr.bin and DIR/<graph>.rcm.bin
  /usr/bin/python3 bench/renumber/compare_scipy.py DIR [--csv FILE]

For each exported graph, runs scipy.sparse.csgraph.reverse_cuthill_mckee on the node graph,
measures both numberings here with the same code (node matrix with its diagonal: bandwidth =
max |i - j|, profile = sum over rows of i - first column) and prints ours / SciPy's; a ratio
<= 1 means ours is as good or better. Exits with status 1 if ours loses on any graph.
Needs Debian's python3-scipy (hence /usr/bin/python3 rather than whatever python3 is first).
"""
import argparse
import csv
import pathlib
import sys
import time

import numpy as np

try:
    import scipy.sparse as sp
    from scipy.sparse.csgraph import reverse_cuthill_mckee
except ImportError:
    sys.exit("compare_scipy.py: SciPy is missing (Debian: apt-get install python3-scipy; run with /usr/bin/python3)")


def read_graph(path):
    with open(path, "rb") as f:
        n, nnz = np.fromfile(f, dtype=np.int64, count=2)
        offsets = np.fromfile(f, dtype=np.int64, count=n + 1)
        neighbours = np.fromfile(f, dtype=np.int32, count=nnz)
    if offsets[-1] != nnz or neighbours.size != nnz:
        sys.exit(f"compare_scipy.py: {path} is truncated or malformed")
    return int(n), offsets, neighbours


def bandwidth_and_profile(n, offsets, neighbours, new_of_old):
    """Node-level measures of the numbering, straight from the definitions."""
    rows = np.repeat(new_of_old, np.diff(offsets))
    cols = new_of_old[neighbours]
    first_by_row = np.arange(n, dtype=np.int64)  # the diagonal is always there
    np.minimum.at(first_by_row, rows, cols)
    spans = np.arange(n, dtype=np.int64) - first_by_row
    return int(spans.max(initial=0)), int(spans.sum())


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("export_dir")
    parser.add_argument("--csv", default="compare_scipy.csv")
    args = parser.parse_args()

    graphs = sorted(pathlib.Path(args.export_dir).glob("*.csr.bin"))
    if not graphs:
        sys.exit(f"compare_scipy.py: no *.csr.bin in {args.export_dir} (run fem-bench-renumber --export DIR)")
    header = ["graph", "nodes", "ours_bandwidth", "scipy_bandwidth", "bandwidth_ratio", "ours_profile",
              "scipy_profile", "profile_ratio", "scipy_s"]
    print(f"{'graph':<26} {'nodes':>8} {'bw ours':>8} {'bw scipy':>8} {'ratio':>6} "
          f"{'profile ours':>13} {'profile scipy':>13} {'ratio':>6} {'scipy_s':>8}")
    rows, worse = [], []
    for path in graphs:
        name = path.name[: -len(".csr.bin")]
        n, offsets, neighbours = read_graph(path)
        ours = np.fromfile(path.with_name(name + ".rcm.bin"), dtype=np.int32).astype(np.int64)
        matrix = sp.csr_matrix((np.ones(neighbours.size, dtype=np.int8), neighbours, offsets), shape=(n, n))
        t0 = time.perf_counter()
        old_of_new = reverse_cuthill_mckee(matrix, symmetric_mode=True)
        scipy_s = time.perf_counter() - t0
        theirs = np.empty(n, dtype=np.int64)
        theirs[old_of_new] = np.arange(n)
        ob, op = bandwidth_and_profile(n, offsets, neighbours, ours)
        sb, spf = bandwidth_and_profile(n, offsets, neighbours, theirs)
        row = [name, n, ob, sb, ob / max(sb, 1), op, spf, op / max(spf, 1), scipy_s]
        rows.append(row)
        if ob > sb or op > spf:
            worse.append(name)
        print(f"{name:<26} {n:>8} {ob:>8} {sb:>8} {row[4]:>6.3f} {op:>13} {spf:>13} {row[7]:>6.3f} {scipy_s:>8.3f}")
    with open(args.csv, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)
    print(f"CSV: {args.csv}")
    if worse:
        print("ours is worse than SciPy on: " + ", ".join(worse))
        sys.exit(1)


if __name__ == "__main__":
    main()
