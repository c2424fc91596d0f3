"""The least-squares linear shift of any table: the best M with M·row[pos] ≈ row[pos + k].

For encodings with no formula (learned vectors, module 09's random ones) this is the numeric
form of the question find_shift_map decides symbolically: does a pos-independent map exist?
"""

from __future__ import annotations

import numpy as np

from numeric import validate

# A least-squares fit that is exact in real arithmetic lands within this of zero residual.
EXACT_FIT_TOLERANCE = 1e-12
# Below this ratio of R's smallest to largest diagonal entry, the fit goes to lstsq.
_FULL_RANK = 1e-8


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
    solution = _least_squares(source, target)
    residual = float(np.abs(source @ solution - target).max())
    return solution.T, residual


def _least_squares(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """argmin ||a·x − b|| for a tall a: Householder QR when a has full rank (backward stable, and
    about five times faster than the SVD behind lstsq), else lstsq, which handles any rank."""
    if a.shape[0] >= a.shape[1] > 0:
        q, r = np.linalg.qr(a)
        diagonal = np.abs(np.diag(r))
        if diagonal.min() > _FULL_RANK * diagonal.max():
            return np.linalg.solve(r, q.T @ b)
    return np.linalg.lstsq(a, b, rcond=None)[0]
