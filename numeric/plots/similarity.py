"""Figure: PE(p)·PE(p+k) against k beside r(p)·r(p+k), for several p (needs matplotlib)."""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from numeric import validate
from numeric.plots.style import STYLE, save
from numeric.tables import ramp_encoding, sinusoidal_pe

# Four curves that coincide stay visible: each its own dash and its own markers, staggered.
LINES = ("-", "--", "-.", ":")
MARKERS = "os^v"


def similarity_figure(
    path: str | os.PathLike[str],
    *,
    d_model: int = 8,
    max_len: int = 50,
    positions: Sequence[int] = (0, 10, 20, 30),
    max_k: int = 19,
) -> None:
    """Save two panels: the sinusoidal similarity of p and p + k for k = −max_k .. max_k (the
    same curve at every p, symmetric in k), and the ramp's r(p)·r(p + k) for k = 0 .. max_k
    over a table of max_len positions (a different line for every p)."""
    d_model = validate.d_model(d_model)
    max_len = validate.max_len(max_len)
    positions = validate.indices(positions, max_len - max_k, "positions")
    from matplotlib import rc_context
    from matplotlib.figure import Figure

    # Rows −max_k .. max_len − 1, so that p + k is on the table for negative k too.
    pe = sinusoidal_pe(max_len + max_k, d_model, start=-max_k)
    ramp = ramp_encoding(max_len)[:, 0]
    both = np.arange(-max_k, max_k + 1)
    ahead = np.arange(max_k + 1)
    with rc_context(STYLE):
        fig = Figure(figsize=(6.0, 2.5), layout="constrained")
        left, right = fig.subplots(1, 2)
        for j, p in enumerate(positions):
            style = {
                "ls": LINES[j % 4],
                "marker": MARKERS[j % 4],
                "ms": 3,
                "lw": 0.9,
                "label": f"p = {p}",
            }
            row = pe[p + max_k]
            left.plot(both, pe[p + both + max_k] @ row, markevery=(j, 4), **style)
            right.plot(ahead, ramp[p] * ramp[p + ahead], markevery=(j, 4), **style)
        left.set_title(f"sinusoidal, d_model = {d_model}: PE(p)·PE(p+k)")
        right.set_title(f"ramp, L = {max_len}: r(p)·r(p+k)")
        for ax in (left, right):
            ax.set_xlabel("offset k")
        handles, labels = right.get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncols=len(positions), frameon=False)
        save(fig, path)
