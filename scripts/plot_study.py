#!/usr/bin/env python3
"""Draws the pictures of a `fem compare` / `fem sweep` study from its compare.json.

    plot_study.py compare.json OUTDIR

Writes OUTDIR/time_per_phase.png (bars: setup and solve time per combination, median of the
repeats, whiskers min..max), and for sweeps OUTDIR/sweep_time.png and OUTDIR/sweep_memory.png
(log-log against the number of unknowns, with the fitted power law of each combination, memory
in MiB or GiB by the solver's own count), each a page wide.
OUTDIR/plots.json lists what was drawn with a caption for each, for the report.
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import ticker  # noqa: E402


# Sizes for a page of a paper: figures 7 in wide (a two-column page; 3.5 in is one column),
# drawn at 150 dpi; legends below the axes so that nothing widens the figure.
PAGE_WIDTH = 7.0
DPI = 150


def combination(row):
    """solver:device, with the preconditioner of iterative rows (cg:cpu:amg)."""
    preconditioner = row.get("preconditioner") or ""
    return f'{row["solver"]}:{row["device"]}' + (f":{preconditioner}" if preconditioner else "")


def label(row):
    renumber = row["renumber_used"] or row["renumber"]
    return f"{combination(row)}\n({renumber})"


def series_key(row):
    return f'{combination(row)} ({row["renumber"]})'


# Growth plots: one colour per solver, one line style per renumbering, so that a solver looks
# the same under every ordering and the orderings of one solver are told apart by the dashes.
LINE_STYLES = ["-", "--", ":", "-.", (0, (5, 1, 1, 1, 1, 1))]
MARKERS = ["o", "s", "^", "D", "v"]


def legend_below(ax, entries):
    """The legend under the axes, where it covers no data and keeps the figure a page wide."""
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2 if entries > 3 else 1,
              frameon=False)


def readable_log_axis(axis, values):
    """Ticks people read on a log axis: 1, 2 and 5 per decade when the data span few decades
    (one labelled tick is no scale), engineering notation (10k, 2M) for counts."""
    lo, hi = min(values), max(values)
    subs = (1.0, 2.0, 5.0) if hi / lo < 1e3 else (1.0,)
    axis.set_major_locator(ticker.LogLocator(base=10, subs=subs))
    axis.set_minor_locator(ticker.LogLocator(base=10, subs=[k for k in range(1, 10) if k not in subs]))
    axis.set_minor_formatter(ticker.NullFormatter())


def memory_unit(values):
    """MiB, or GiB where the largest value passes 4 GiB: bytes are unreadable on an axis."""
    return ("GiB", 2.0 ** 30) if max(values) > 4 * 2.0 ** 30 else ("MiB", 2.0 ** 20)


def time_per_phase(study, rows, outdir, size_note):
    """Grouped bars, setup and solve, one group per row; rows without numbers are named in grey."""
    fig, ax = plt.subplots(figsize=(PAGE_WIDTH, 4.2))
    width = 0.38
    measured = [r for r in rows if r["repeats"]]
    values = [v for r in measured for v in (r["time_setup_s"], r["time_solve_s"]) if v and v > 0]
    log_scale = bool(values) and max(values) / min(values) > 50
    for i, r in enumerate(rows):
        if not r["repeats"]:
            # Inside the axes from the bottom up, so that it never runs over the frame.
            ax.text(i, 0.03, r["status"], transform=ax.get_xaxis_transform(), ha="center", va="bottom",
                    rotation=90, color="0.45", fontsize=8, clip_on=True)
            continue
        for offset, phase, colour, name in ((-width / 2, "time_setup", "#4c72b0", "setup (factorisation, conversion, transfers)"),
                                            (width / 2, "time_solve", "#dd8452", "solve (substitution or iterations)")):
            median = r[phase + "_s"]
            low, high = median - r[phase + "_min_s"], r[phase + "_max_s"] - median
            shown = max(median, 1e-6) if log_scale else median
            ax.bar(i + offset, shown, width, color=colour, label=name if i == rows.index(measured[0]) else None,
                   yerr=[[max(low, 0)], [max(high, 0)]] if r["repeats"] > 1 else None, capsize=3)
    ax.set_xticks(range(len(rows)))
    ax.set_xlim(-0.6, len(rows) - 0.4)  # room for the first and last row's bars or status
    ax.set_xticklabels([label(r) for r in rows], fontsize=7, rotation=30 if len(rows) > 5 else 0,
                       ha="right" if len(rows) > 5 else "center")
    if log_scale:
        ax.set_yscale("log")
    ax.set_ylabel("time [s]")
    repeats = max((r["repeats"] for r in rows), default=1)
    whiskers = f", whiskers min–max of {repeats} repeats" if repeats > 1 else ""
    ax.set_title(f'{study["title"]}\ntime per phase{size_note} (median{whiskers})', fontsize=10)
    ax.grid(axis="y", alpha=0.3, which="both")
    if measured:
        ax.legend(fontsize=7, loc="best")
    fig.savefig(os.path.join(outdir, "time_per_phase.png"), dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    return {"file": "time_per_phase.png",
            "caption": f"Setup and solve time per solver{size_note}; median{whiskers}. Rows without bars are "
                       "named by their status (unavailable, failed, skipped, over budget)."}


def fit_for(study, key, what):
    for f in study.get("fits", []):
        if f'{f["solver"]} ({f["renumber"]})' == key and f[what].get("points", 0) >= 2:
            return f[what]
    return None


def growth(study, outdir, what, column, ylabel, filename, caption, memory=False):
    """Log-log: one series per combination and renumbering, markers measured, dashes fitted;
    `memory`: the values are bytes, drawn in MiB or GiB (named in `ylabel`'s {unit})."""
    series = {}
    for r in study["rows"]:
        if r["repeats"] and r[column]:
            series.setdefault(series_key(r), []).append((r["dofs"], r[column]))
    if not series:
        return None
    unit, scale = memory_unit([y for points in series.values() for _, y in points]) if memory else ("", 1.0)
    ylabel = ylabel.format(unit=unit)
    fig, ax = plt.subplots(figsize=(PAGE_WIDTH, 4.6))
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    solvers = sorted({key.split(" (")[0] for key in series})
    renumberings = sorted({key.split(" (")[1].rstrip(")") for key in series})
    for key, points in sorted(series.items()):
        points.sort()
        solver, renumber = key.split(" (")[0], key.split(" (")[1].rstrip(")")
        colour = colours[solvers.index(solver) % len(colours)]
        style = LINE_STYLES[renumberings.index(renumber) % len(LINE_STYLES)]
        marker = MARKERS[renumberings.index(renumber) % len(MARKERS)]
        xs, ys = zip(*points)
        ys = [y / scale for y in ys]
        fit = fit_for(study, key, what)
        name = key + (f": ∝ n^{fit['exponent']:.2f} (R² {fit['r_squared']:.3f})" if fit else "")
        ax.plot(xs, ys, marker=marker, linestyle=style, color=colour, label=name, linewidth=1.4, markersize=5)
        if fit:
            lo, hi = min(xs), max(xs)
            line_x = [lo * (hi / lo) ** (k / 20) for k in range(21)]
            ax.plot(line_x, [fit["coefficient"] * x ** fit["exponent"] / scale for x in line_x], linestyle=style,
                    color=colour, linewidth=0.7, alpha=0.5)
    ax.set_xscale("log")
    ax.set_yscale("log")
    readable_log_axis(ax.xaxis, [x for points in series.values() for x, _ in points])
    ax.xaxis.set_major_formatter(ticker.EngFormatter(sep=""))
    readable_log_axis(ax.yaxis, [y / scale for points in series.values() for _, y in points])
    ax.yaxis.set_major_formatter(ticker.LogFormatterSciNotation(labelOnlyBase=False))
    ax.set_xlabel("unknowns (dofs)")
    ax.set_ylabel(ylabel)
    ax.set_title(f'{study["title"]}\n{ylabel.split(",")[0].split(" [")[0]} against the number of unknowns', fontsize=10)
    ax.grid(alpha=0.3, which="both")
    legend_below(ax, len(series))
    fig.savefig(os.path.join(outdir, filename), dpi=DPI, bbox_inches="tight")
    plt.close(fig)
    return {"file": filename, "caption": caption}


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        study = json.load(f)
    outdir = sys.argv[2]
    rows = study["rows"]
    size_note = ""
    if study["kind"] == "sweep":
        # The bars compare at one size: the largest at which any combination was measured.
        sizes = [r["size"] for r in rows if r["repeats"]] or [r["size"] for r in rows]
        largest = max(sizes, key=lambda s: max(r["dofs"] for r in rows if r["size"] == s)) if sizes else ""
        rows = [r for r in rows if r["size"] == largest]
        dofs = rows[0]["dofs"] if rows else 0
        size_note = f" at {largest} ({dofs:,} dofs)"
    plots = [time_per_phase(study, rows, outdir, size_note)]
    if study["kind"] == "sweep":
        for p in (growth(study, outdir, "time", "time_total_s", "setup + solve time, wall-clock [s]", "sweep_time.png",
                         "Setup and solve time together against problem size (log-log), with the fitted power law "
                         "n^p of each solver (thin line). Wall-clock of the whole solver call (factorisation or "
                         "conversion, then substitution or iterations), median of the repeats; one colour per "
                         "solver, one line style per renumbering."),
                  growth(study, outdir, "memory", "solver_memory_bytes", "solver's own memory count [{unit}]",
                         "sweep_memory.png",
                         "Solver memory against problem size (log-log), with the fitted power law n^q of each solver "
                         "(thin line). What the solver allocates by its own count: factor or front, vectors, device "
                         "arrays; not the process peak of the tables, which adds the mesh, the matrix and the "
                         "libraries. One colour per solver, one line style per renumbering.", memory=True)):
            if p:
                plots.append(p)
    with open(os.path.join(outdir, "plots.json"), "w") as f:
        json.dump({"plots": plots, "matplotlib": matplotlib.__version__}, f, indent=1)


if __name__ == "__main__":
    main()
