"""Figure: PE(p)·PE(p+k) against k beside r(p)·r(p+k), for several p (needs matplotlib)."""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from numeric import validate
from numeric.plots.style import STYLE, save
from numeric.tables import ramp_encoding, sinusoidal_pe


def similarity_figure(
    path: str | os.PathLike[str],
    *,
    d_model: int = 8,
    max_len: int = 50,
    positions: Sequence[int] = (0, 10, 20, 30),
    max_k: int = 19,
) -> None:
    """Save two panels: the sinusoidal and the ramp similarity of p and p + k, k = 0 .. max_k."""
    d_model = validate.d_model(d_model)
    max_len = validate.max_len(max_len)
    positions = validate.indices(positions, max_len - max_k, "positions")
    from matplotlib import rc_context
    from matplotlib.figure import Figure

    pe = sinusoidal_pe(max_len, d_model)
    ramp = ramp_encoding(max_len)[:, 0]
    ks = np.arange(max_k + 1)
    markers = "os^v"
    with rc_context(STYLE):
        fig = Figure(figsize=(6.0, 2.1), layout="constrained")
        left, right = fig.subplots(1, 2)
        for j, p in enumerate(positions):
            style = {"marker": markers[j % 4], "ms": 3, "lw": 0.9, "label": f"p = {p}"}
            left.plot(ks, pe[p + ks] @ pe[p], **style)
            right.plot(ks, ramp[p] * ramp[p + ks], **style)
        left.set_title("sinusoidal: PE(p)·PE(p+k)")
        right.set_title("ramp: r(p)·r(p+k)")
        for ax in (left, right):
            ax.set_xlabel("offset k")
        right.legend(loc="upper left")
        save(fig, path)
