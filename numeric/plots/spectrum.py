"""Exercise 3 as a PNG: PE(pos, dim) against pos for dims from low to high i (needs matplotlib)."""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path

import numpy as np

MISSING = "--plot needs matplotlib, which is not installed; install the extra: pip install 'pe-proofs[plot]'"


def plotting_available() -> bool:
    """Whether matplotlib can be imported, checked without importing it."""
    return importlib.util.find_spec("matplotlib") is not None


def plot_spectrum(table: np.ndarray, dims: Sequence[int], path: str | Path) -> Path:
    """Draw one line per dim of PE(pos, dim) over the table's positions and save it.

    table: a (positions, d_model) encoding table; dims: its columns to draw; path: the file,
    PNG, SVG or PDF by its suffix.
    Raises ImportError with an install hint when matplotlib is missing.
    """
    if not plotting_available():
        raise ImportError(MISSING)
    # Imported here so the rest of the package never needs matplotlib.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    path = Path(path)
    figure = Figure(figsize=(8, 1.2 + 1.1 * len(dims)), layout="constrained")
    FigureCanvasAgg(figure)
    axes = figure.subplots(len(dims), 1, sharex=True, squeeze=False)[:, 0]
    positions = np.arange(table.shape[0])
    for ax, dim in zip(axes, dims, strict=True):
        ax.plot(positions, table[:, dim], linewidth=1)
        ax.set_ylim(-1.1, 1.1)
        ax.set_ylabel(f"dim {dim}")
    axes[-1].set_xlabel("pos")
    figure.suptitle("PE(pos, dim): lower dims oscillate faster")
    # The file's suffix picks the format (png, svg or pdf); none means PNG.
    figure.savefig(path, format=path.suffix.lstrip(".").lower() or "png", dpi=100)
    return path
