"""Figure: exercise 3, PE(pos, dim) against pos for dims from low to high i, free of aliasing.

Each curve is drawn on a fine grid of real positions (many samples per period of the fastest
dim), with the integer positions the table holds marked on top.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from numeric import validate
from numeric.plots.style import STYLE, save
from numeric.tables import frequencies

# Samples per unit of pos: the fastest pair (ω_0 = 1, period 2π) gets about 60 per period.
SAMPLES_PER_POSITION = 10


def frequencies_figure(
    path: str | os.PathLike[str],
    *,
    max_len: int = 50,
    d_model: int = 8,
    dims: Sequence[int] = (0, 2, 4, 6),
) -> None:
    """Save one panel per dim of PE(pos, dim) for 0 <= pos < max_len to path, each labelled with
    how far its pair turns over the table: (max_len − 1)·ω_i/2π turns."""
    max_len = validate.max_len(max_len)
    d_model = validate.d_model(d_model)
    dims = validate.indices(dims, d_model, "dims")
    from matplotlib import rc_context
    from matplotlib.figure import Figure

    omegas = frequencies(d_model)
    fine = np.linspace(0, max_len - 1, SAMPLES_PER_POSITION * (max_len - 1) + 1)
    whole = np.arange(max_len)
    with rc_context(STYLE):
        fig = Figure(figsize=(6.0, 0.5 + 0.6 * len(dims)), layout="constrained")
        axes = fig.subplots(len(dims), 1, sharex=True, squeeze=False)[:, 0]
        for ax, dim in zip(axes, dims, strict=True):
            w = omegas[dim // 2]
            wave = np.sin if dim % 2 == 0 else np.cos
            ax.plot(fine, wave(fine * w), lw=0.9)
            ax.plot(whole, wave(whole * w), ".", ms=2.5, color="0.2")
            ax.set_ylim(-1.15, 1.15)
            ax.set_yticks([-1, 0, 1])
            ax.set_ylabel(f"dim {dim}", rotation=0, ha="right", va="center")
            turns = (max_len - 1) * w / (2 * np.pi)
            ax.text(
                1.01, 0.5, f"{turns:.2g} turns", transform=ax.transAxes, va="center", fontsize=7
            )
        axes[-1].set_xlabel("position pos")
        axes[0].set_title(f"d_model = {d_model}, {max_len} positions", fontsize=8)
        save(fig, path)
