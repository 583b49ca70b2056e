#!/usr/bin/env python3
"""The cublas chain's streams from an Nsight Systems kernel table (nsys stats -r cuda_gpu_trace -f csv):
the last factorisation of the run (kernels after the last pause of over 2 ms), per stream and kernel
name the count, median duration and median idle time before it on its stream, then the timeline of
a few steps from the factorisation's middle. Usage: chain_steps.py TRACE.csv [window_us]"""
import csv
import statistics
import sys
from collections import defaultdict


def column(header, *words):
    for i, h in enumerate(header):
        if all(w.lower() in h.lower() for w in words):
            return i
    raise SystemExit(f"no column with {words} in {header}")


def short(name):
    name = name.replace('(anonymous namespace)::', '').split('(')[0].split('<')[0]
    return name[-48:]


def main():
    rows = list(csv.reader(open(sys.argv[1])))
    header, rows = rows[0], rows[1:]
    window = float(sys.argv[2]) if len(sys.argv) > 2 else 700.0
    start, dur = column(header, 'start'), column(header, 'duration')
    strm, name = column(header, 'strm'), column(header, 'name')
    ops = sorted((float(r[start]) / 1e3, float(r[dur]) / 1e3, r[strm], r[name]) for r in rows if len(r) > name)
    # The last factorisation: after the last pause of more than 2 ms with nothing running.
    first, end = 0, 0.0
    for i, (s, d, _, _) in enumerate(ops):
        if i > 0 and s - end > 2000:
            first = i
        end = max(end, s + d)
    ops = ops[first:]
    t0, t1 = ops[0][0], max(s + d for s, d, _, _ in ops)
    print(f"last factorisation: {len(ops)} operations over {(t1 - t0) / 1e3:.2f} ms")
    last_end = {}
    stats = defaultdict(lambda: ([], []))
    busy = defaultdict(float)
    for s, d, st, nm in ops:
        idle = s - last_end[st] if st in last_end else 0.0
        last_end[st] = s + d
        stats[(st, short(nm))][0].append(d)
        stats[(st, short(nm))][1].append(idle)
        busy[st] += d
    print("\nstream  busy%   count  median_us  idle_before_us(median)  kernel")
    for (st, nm), (ds, idles) in sorted(stats.items(), key=lambda kv: (kv[0][0], -sum(kv[1][0]))):
        print(f"{st:>6} {100 * busy[st] / (t1 - t0):6.1f} {len(ds):7d} {statistics.median(ds):10.1f} "
              f"{statistics.median(idles):23.1f}  {nm}")
    mid = t0 + (t1 - t0) / 2
    print(f"\ntimeline, {window:.0f} us from the middle (us from there; start end duration stream kernel):")
    for s, d, st, nm in ops:
        if mid <= s < mid + window:
            print(f"{s - mid:8.1f} {s + d - mid:8.1f} {d:7.1f} {st:>6}  {short(nm)}")


if __name__ == '__main__':
    main()
