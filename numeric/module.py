"""The course module's own sinusoidal_pe, verbatim, and its formula at chosen positions and dtype."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

from numeric import validate


# Copied verbatim from module 10 (only the name differs): the baseline for accuracy and speed.
def module_sinusoidal_pe(max_len, d_model):
    pe = np.zeros((max_len, d_model))
    position = np.arange(max_len)[:, None]
    div_term = 10000 ** (np.arange(0, d_model, 2) / d_model)
    pe[:, 0::2] = np.sin(position / div_term)
    pe[:, 1::2] = np.cos(position / div_term)
    return pe


def module_formula_rows(
    positions: ArrayLike, d_model: int, *, dtype: DTypeLike = np.float64
) -> np.ndarray:
    """The module's formula, every step computed in dtype, at the given integer positions.

    In float64 the rows equal module_sinusoidal_pe's rows bit for bit; in float32 and float16
    they show what the same code does in that precision (float16 positions above 65504 are inf).
    """
    d_model = validate.d_model(d_model)
    dtype = validate.dtype(dtype)
    rows = np.shape(positions)[0] if np.ndim(positions) else 1
    validate.fits_in_memory(3 * rows * d_model * dtype.itemsize, f"a ({rows}, {d_model}) table")
    # float16 positions above 65504 overflow to inf: that failure is what is being measured.
    with np.errstate(invalid="ignore", over="ignore"):
        position = np.asarray(positions).astype(dtype)[:, None]
        div_term = dtype.type(10000) ** (
            np.arange(0, d_model, 2).astype(dtype) / dtype.type(d_model)
        )
        pe = np.zeros((position.shape[0], d_model), dtype=dtype)
        pe[:, 0::2] = np.sin(position / div_term)
        pe[:, 1::2] = np.cos(position / div_term)
    return pe
