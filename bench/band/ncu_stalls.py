#!/usr/bin/env python3
"""The stall reasons of the persistent band kernel's pivot chain, from Nsight Compute's tables
(profile_persistent.sh): the kernel's sampled warp states (raw page), then, per SASS
instruction (source page), the samples of the chain's code (the producer's columns, from the
first to the last MUFU.RCP64H), by reason, and one column of the chain instruction by instruction.

    ncu_stalls.py raw.csv sass.csv
"""
import csv
import sys


def number(text):
    try:
        return float(text.replace(",", "").replace("%", ""))
    except ValueError:
        return None


def table(path, must_have):
    with open(path, newline="", errors="replace") as f:
        rows = list(csv.reader(f))
    for i, row in enumerate(rows):
        if all(any(m in cell for cell in row) for m in must_have):
            return row, rows[i + 1:]
    print(f"{path}: no header with {must_have}; first lines:")
    for row in rows[:5]:
        print("  ", row)
    return None, []


def kernel_states(path):
    header, rows = table(path, ["Kernel Name"])
    if not header:
        return
    values = rows[-1]
    stalls = [(number(v), h) for h, v in zip(header, values)
              if "pcsamp_warps_issue_stalled" in h and number(v)]
    total = sum(v for v, _ in stalls) or 1
    print("\n== kernel: sampled warp states (all warps, all blocks) ==")
    for v, h in sorted(stalls, reverse=True)[:20]:
        print(f"  {h:70s} {v:12.0f} {100 * v / total:5.1f} %")
    for h, v in zip(header, values):
        if any(k in h for k in ("warp_latency_per_inst_issued", "inst_executed.sum", "issue_active",
                                "cycles_elapsed.max", "sm__throughput", "gpc__cycles_elapsed.avg.per_second")):
            print(f"  {h:70s} {v}")


def chain(path):
    header, rows = table(path, ["Address", "Source"])
    if not header:
        return
    source = header.index(next(h for h in header if "Source" in h))
    numeric = [i for i, h in enumerate(header) if i != source and "Address" not in h and
               any(number(r[i]) is not None for r in rows[:50] if i < len(r))]
    rows = [r for r in rows if len(r) == len(header)]
    samples = next((i for i in numeric if "Sampling (All" in header[i]), numeric[0] if numeric else None)
    rcp = [i for i, r in enumerate(rows) if "MUFU.RCP64H" in r[source]]
    print(f"\n== per instruction: {len(rows)} SASS instructions, {len(rcp)} MUFU.RCP64H, columns: "
          + "; ".join(header[i] for i in numeric))
    if samples is None:
        return

    def cells(r):  # the instruction's nonzero columns, the first 14
        return ", ".join([f"{header[i]}={r[i]}" for i in numeric if number(r[i])][:14])

    def summary(name, part):
        sums = {i: sum(number(r[i]) or 0 for r in part) for i in numeric}
        print(f"\n-- {name}: {len(part)} instructions, sums of the columns (nonzero)")
        for i in numeric:
            if sums[i]:
                print(f"  {header[i]:60s} {sums[i]:14.0f}")
        print(f"-- {name}: the 25 instructions with most samples (nonzero columns)")
        for r in sorted(part, key=lambda r: -(number(r[samples]) or 0))[:25]:
            print(f"  {r[0]:>8s} {r[source][:48]:48s} {cells(r)}")

    summary("whole kernel", rows)
    if len(rcp) >= 2:
        summary("the pivot chain (first to last MUFU.RCP64H)", rows[rcp[0]:rcp[-1] + 1])
        mid = len(rcp) // 2
        print(f"\n-- one column of the chain (MUFU.RCP64H {mid} to {mid + 1}), instruction by instruction")
        for r in rows[rcp[mid]:rcp[mid + 1] + 1]:
            print(f"  {r[0]:>8s} {r[source][:60]:60s} {cells(r)}")


if __name__ == "__main__":
    kernel_states(sys.argv[1])
    chain(sys.argv[2])
