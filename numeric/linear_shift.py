"""The least-squares linear shift of any table: the best M with M·row[pos] ≈ row[pos + k].

For encodings with no formula (learned vectors, module 09's random ones) this is the numeric
form of the question find_shift_map decides symbolically: does a pos-independent map exist?
"""

from __future__ import annotations

import numpy as np

from numeric import validate

# A least-squares fit that is exact in real arithmetic lands within this of zero residual.
EXACT_FIT_TOLERANCE = 1e-12


def best_linear_shift(table: np.ndarray, k: int) -> tuple[np.ndarray, float]:
    """The least-squares matrix M with M·row[pos] ≈ row[pos + k] over all pos, and its residual.

    table: any (positions, dims) encoding, for instance learned or random vectors; k: an integer
    offset with |k| < positions. The residual is max |M·row[pos] − row[pos + k]| over all pos
    and dims; it is zero (up to rounding) exactly when a pos-independent linear map exists.
    """
    table = np.asarray(table, dtype=np.float64)
    if table.ndim != 2:
        raise ValueError(f"table must be 2-D (positions, dims), got shape {table.shape}")
    k = validate.integer(k, "k")
    n = table.shape[0]
    if abs(k) >= n:
        raise ValueError(f"k must satisfy |k| < {n} (the number of positions), got {k}")
    source, target = (table[: n - k], table[k:]) if k >= 0 else (table[-k:], table[: n + k])
    solution, *_ = np.linalg.lstsq(source, target, rcond=None)
    residual = float(np.abs(source @ solution - target).max())
    return solution.T, residual
