#!/usr/bin/env python3
"""Draw the sparsity pattern before and after renumbering, side by side.

Usage: plot_sparsity.py META_JSON OUT_PNG

Called by fem::renumber::write_sparsity_png, which writes META_JSON: {"title", "n",
"dofs_per_node", "panels": [{"label", "file", "kind", "bins", "bandwidth", "profile"}]}.
A "points" panel file holds int32 (row, column) pairs of the node pattern; a "histogram"
panel file holds float32 node-pair counts on a bins x bins grid (row-major), used for big
graphs. Both are drawn as the dof matrix (dofs_per_node equations per node), whose bandwidth
and profile the panel titles give.
"""
import json
import sys

import numpy as np

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import LogNorm
except ImportError:
    sys.exit("plot_sparsity.py: matplotlib is missing (Debian: apt-get install python3-matplotlib)")


def draw_panel(ax, panel, n, dofs_per_node):
    """Draws the dof matrix: each node pair is a dofs_per_node x dofs_per_node block, so the
    axes count equations, as the bandwidth in the title does."""
    d = dofs_per_node
    size = n * d
    if panel["kind"] == "points":
        pairs = np.fromfile(panel["file"], dtype=np.int32).reshape(-1, 2)
        centres = pairs * d + (d - 1) / 2.0
        # Squares one block tall while blocks are a few pixels high; single pixels beyond that.
        if n <= 200:
            ax.plot(centres[:, 1], centres[:, 0], "s", color="k", markersize=300.0 / max(n, 1), markeredgewidth=0)
        else:
            ax.plot(centres[:, 1], centres[:, 0], ",", color="k")
        ax.set_xlim(-0.5, size - 0.5)
        ax.set_ylim(size - 0.5, -0.5)
    else:
        bins = panel["bins"]
        counts = np.fromfile(panel["file"], dtype=np.float32).reshape(bins, bins) * (d * d)
        shown = np.ma.masked_equal(counts, 0)
        colours = matplotlib.colormaps["viridis"].with_extremes(bad="white")
        image = ax.imshow(shown, extent=(0, size, size, 0), cmap=colours, interpolation="antialiased",
                          norm=LogNorm(vmin=1, vmax=max(1.0, float(counts.max()))))
        cell = size / bins
        plt.colorbar(image, ax=ax, fraction=0.046, pad=0.04, label=f"nonzeros per {cell:,.0f} x {cell:,.0f} block")
    ax.set_aspect("equal")
    ax.set_xlabel("column (equation)")
    ax.set_ylabel("row (equation)")
    ax.set_title(f"{panel['label']}\nbandwidth {panel['bandwidth']:,}, profile {panel['profile']:,}", fontsize=10)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        meta = json.load(f)
    panels = meta["panels"]
    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 6.2))
    for ax, panel in zip(np.atleast_1d(axes), panels):
        draw_panel(ax, panel, meta["n"], meta["dofs_per_node"])
    d = meta["dofs_per_node"]
    fig.suptitle(f"{meta['title']} ({meta['n'] * d:,} equations: {meta['n']:,} nodes x {d} dofs)")
    fig.tight_layout()
    # format= because the caller writes to a temporary name without a .png suffix; dpi 150:
    # the axes get more pixels than the histogram has bins.
    fig.savefig(sys.argv[2], dpi=150, format="png")


if __name__ == "__main__":
    main()
