"""Figure: θ′_i/θ_i against the pair index i for each RoPE scaling method, on one log axis."""

from __future__ import annotations

import os

import numpy as np

from numeric.plots.style import STYLE, save
from numeric.rope.methods import scaling_methods
from numeric.rope.scaling import default_frequencies


def scaling_ratios(
    *, dim: int = 128, base: float = 500000.0, factor: float = 8.0, original: int = 8192
) -> list[tuple[str, np.ndarray]]:
    """(label, θ′_i/θ_i) per curve each method of the registry draws (ScalingMethod
    .figure_curves), as transformers or its paper computes it in float64."""
    theta = default_frequencies(dim, base)
    methods = [
        curve
        for method in scaling_methods()
        for curve in method.figure_curves(dim, base, factor, original)
    ]
    return [(label, values / theta) for label, values in methods]


def scaling_figure(
    path: str | os.PathLike[str],
    *,
    dim: int = 128,
    base: float = 500000.0,
    factor: float = 8.0,
    original: int = 8192,
) -> None:
    """Save θ′_i/θ_i against i for every method of scaling_ratios to path (format by suffix)."""
    from matplotlib import rc_context
    from matplotlib.figure import Figure
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    ratios = scaling_ratios(dim=dim, base=base, factor=factor, original=original)
    lowest = min(float(ratio.min()) for _, ratio in ratios)
    styles = ["-", "--", "-.", "-", "--", "-", ":"]
    markers = ["", "", "", "o", "s", "^", "v"]
    pairs = np.arange(dim // 2)
    with rc_context(STYLE):
        fig = Figure(figsize=(6.0, 3.4), layout="constrained")
        ax = fig.add_subplot()
        for j, (label, ratio) in enumerate(ratios):
            ax.plot(
                pairs,
                ratio,
                styles[j % len(styles)],
                marker=markers[j % len(markers)] or None,
                markevery=4,
                ms=3,
                lw=1.1,
                color=f"C{j}",
                label=label,
            )
        ax.set_yscale("log")
        # Ticks at 1, 1/2, 1/4, …: the ratios are powers of two apart at the ends (1 and 1/s).
        ticks = [2.0**-k for k in range(0, 12) if 2.0**-k >= lowest / 2]
        ax.yaxis.set_major_locator(FixedLocator(ticks))
        ax.yaxis.set_minor_locator(NullLocator())
        ax.yaxis.set_major_formatter(
            FuncFormatter(lambda v, _: "1" if v == 1 else f"1/{round(1 / v)}")
        )
        ax.set_xlabel(r"pair index $i$  ($\theta_i = b^{-2i/d}$)")
        ax.set_ylabel(r"$\theta'_i \,/\, \theta_i$")
        ax.set_xlim(0, dim // 2 - 1)
        ax.set_ylim(lowest / 1.3, 1.3)
        ax.set_title(f"RoPE scaling: d = {dim}, b = {base:g}, L = {original}, s = {factor:g}")
        ax.grid(True, which="both", lw=0.3, color="0.85")
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
        save(fig, path)
