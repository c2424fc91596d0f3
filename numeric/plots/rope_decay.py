"""Figure: RoFormer's decay average f(r) = (2/d)·Σ_j |S_j(r)| against the distance r (log x)."""

from __future__ import annotations

import os

import numpy as np

from numeric.plots.style import STYLE, save
from numeric.rope.decay import decay_average


def decay_figure(
    path: str | os.PathLike[str],
    *,
    dim: int = 128,
    base: float = 10000.0,
    max_distance: int = 131072,
) -> None:
    """Save f(r) for every integer 1 <= r < max_distance to path, the first rise and f(1000),
    f(2000) marked."""
    from matplotlib import rc_context
    from matplotlib.figure import Figure

    r = np.arange(1, max_distance)
    f = decay_average(r, dim, base)
    rise = int(np.nonzero(np.diff(f) > 0)[0][0])  # f[rise + 1] > f[rise]: r = rise + 1 → rise + 2
    with rc_context(STYLE):
        fig = Figure(figsize=(6.0, 3.0), layout="constrained")
        ax = fig.add_subplot()
        ax.plot(r, f, lw=0.5, color="C0", label=r"$f(r)$ at every integer $r$")
        ax.plot(
            r[rise : rise + 2],
            f[rise : rise + 2],
            "o",
            ms=4,
            color="C3",
            label=f"first rise: f({r[rise]}) < f({r[rise + 1]})",
        )
        for at, colour in ((1000, "C2"), (2000, "C1")):
            ax.plot([at], [f[at - 1]], "s", ms=4, color=colour, label=f"f({at}) = {f[at - 1]:.3f}")
        ax.set_xscale("log")
        ax.set_xlim(1, max_distance)
        ax.set_ylim(0, None)
        ax.set_xlabel(r"relative distance $r = m - n$")
        ax.set_ylabel(r"$f(r) = (2/d)\,\sum_j\, |S_j(r)|$")
        ax.set_title(f"RoFormer's average f(r) is not monotone: d = {dim}, b = {base:g}")
        ax.grid(True, which="both", lw=0.3, color="0.85")
        ax.legend(loc="lower left", frameon=True, framealpha=0.9)
        # The first rise is one step on a log axis: an inset shows the integers around it.
        inset = ax.inset_axes((0.6, 0.56, 0.38, 0.4))
        near = slice(max(rise - 4, 0), rise + 6)
        inset.plot(r[near], f[near], ".-", ms=3, lw=0.7, color="C0")
        inset.plot(r[rise : rise + 2], f[rise : rise + 2], "o", ms=4, color="C3")
        inset.annotate(
            f"{f[rise]:.3f} → {f[rise + 1]:.3f}",
            (r[rise + 1], f[rise + 1]),
            textcoords="offset points",
            xytext=(6, 6),
            fontsize=7,
            color="C3",
        )
        inset.set_xticks(r[near][::2])
        inset.set_xlabel("r", fontsize=7, labelpad=1)
        inset.tick_params(labelsize=7)
        inset.grid(True, lw=0.3, color="0.85")
        save(fig, path)
