"""Figure functions for the notes: numeric/ plots adapted to f(path, **twin_kwargs).

A theorem names its figure by dotted path (Theorem.figure); most numeric/ plotting functions
already take (path, **options). This module holds the adapters for those that do not.
"""

from __future__ import annotations

import os

from numeric.report import default_dims
from numeric.spectrum_plot import plot_spectrum
from numeric.tables import sinusoidal_pe

# Positions drawn: enough for the slowest default dim (ω = 1/100 at d_model = 8) to turn once.
SPECTRUM_POSITIONS = 700


def spectrum(path: str | os.PathLike[str], *, d_model: int = 8) -> None:
    """The course's exercise 3 as a PNG: PE(pos, dim) against pos for sine dims from fast to
    slow, each within [−1, 1] (matplotlib is imported by plot_spectrum, only when drawing)."""
    table = sinusoidal_pe(SPECTRUM_POSITIONS, d_model)
    plot_spectrum(table, default_dims(d_model), path)
