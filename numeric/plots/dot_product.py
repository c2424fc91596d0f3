"""A figure of the dot product PE(p)·PE(p+k) against k (matplotlib, imported only when plotting).

Companion of numeric.checks.dot_product and of the theorem proofs.dot_product.
"""

from __future__ import annotations

import os

import numpy as np

from numeric import validate
from numeric.checks.dot_product import dot_products


def plot(
    path: str | os.PathLike[str], *, d_model: int = 8, max_k: int = 200, base: int = 1000
) -> None:
    """Save a plot of PE(base)·PE(base+k) for k = −max_k .. max_k to path (format from its suffix)."""
    max_k = validate.integer(max_k, "max_k")
    if max_k < 1:
        raise ValueError(f"max_k must be a positive integer, got {max_k}")
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ValueError("plotting needs matplotlib: pip install 'pe-proofs[plot]'") from None
    ks = np.arange(-max_k, max_k + 1)
    values = dot_products(ks.tolist(), d_model=d_model, bases=(base,))[0]
    fig = Figure(figsize=(7, 3.5))
    ax = fig.add_subplot()
    ax.plot(ks, values, lw=1)
    ax.axvline(0, color="0.7", lw=0.8)
    ax.set_xlabel("offset k")
    ax.set_ylabel(f"PE({base})·PE({base}+k)")
    ax.set_title(
        f"Dot product against offset, d_model = {d_model}: even in k, peak d_model/2 at k = 0"
    )
    fig.tight_layout()
    fig.savefig(path)
