"""Figure: the heat map of PE(pos, dim), the picture everyone knows (needs matplotlib)."""

from __future__ import annotations

import os

from numeric import validate
from numeric.plots.style import STYLE, save
from numeric.tables import sinusoidal_pe


def heatmap_figure(path: str | os.PathLike[str], *, max_len: int = 50, d_model: int = 64) -> None:
    """Save PE(pos, dim) for pos < max_len and dim < d_model as a colour map to path."""
    max_len = validate.max_len(max_len)
    d_model = validate.d_model(d_model)
    from matplotlib import rc_context
    from matplotlib.figure import Figure

    with rc_context(STYLE):
        fig = Figure(figsize=(6.0, 2.0), layout="constrained")
        ax = fig.add_subplot()
        image = ax.imshow(
            sinusoidal_pe(max_len, d_model).T,
            aspect="auto",
            origin="lower",
            cmap="RdBu_r",
            vmin=-1,
            vmax=1,
            interpolation="nearest",
        )
        ax.set_xlabel("position pos")
        ax.set_ylabel("dimension")
        fig.colorbar(image, ax=ax, label="PE(pos, dim)")
        save(fig, path)
