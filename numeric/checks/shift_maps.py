"""Numeric twin of proofs.theorems.sinusoidal.shift_maps: the best least-squares shift map of five encodings.

For each encoding, the matrix M minimising |M·row[pos] − row[pos + k]| over all positions, and
its worst residual. A pos-independent linear map exists exactly when the residual is rounding
noise: the sinusoidal encoding and the ramp with a constant feature fit exactly; the ramp, the
raw index, a lone sine and random vectors (module 09's stand-in) do not.
"""

from __future__ import annotations

import numpy as np

from numeric import validate
from numeric.linear_shift import EXACT_FIT_TOLERANCE, best_linear_shift
from numeric.result_table import Table
from numeric.tables import ramp_encoding, raw_index_encoding, sinusoidal_pe

# A misfit claim needs a residual far above rounding: this is ~10^10 times the noise seen here.
MISFIT_FLOOR = 1e-6
RANDOM_SEED = 9


def _encodings(max_len: int, d_model: int) -> list[tuple[str, np.ndarray, bool]]:
    """(name, table, whether a linear map exists) for each encoding of the theorem."""
    ramp = ramp_encoding(max_len)
    pair = sinusoidal_pe(max_len, 2)
    return [
        (f"sinusoidal, d_model = {d_model}", sinusoidal_pe(max_len, d_model), True),
        ("ramp pos/max_len", ramp, False),
        ("raw index pos", raw_index_encoding(max_len), False),
        ("ramp with a constant 1 appended", np.hstack([ramp, np.ones_like(ramp)]), True),
        ("lone sine sin(pos)", pair[:, :1], False),
        (
            f"random vectors, {d_model} dims",
            np.random.default_rng(RANDOM_SEED).standard_normal((max_len, d_model)),
            False,
        ),
    ]


def shift_fit_table(*, max_len: int = 64, k: int = 3, d_model: int = 8) -> Table:
    """Best linear map from pos to pos + k for each encoding, its residual and the expected outcome.

    max_len: positions in every table; k: the offset (1 <= k < max_len - d_model, so the fit is
    overdetermined); d_model: width of the sinusoidal and random tables.
    """
    max_len = validate.max_len(max_len)
    d_model = validate.d_model(d_model)
    k = validate.integer(k, "k")
    if not 1 <= k < max_len - d_model:
        raise ValueError(
            f"k must satisfy 1 <= k < max_len - d_model = {max_len - d_model}, got {k}"
        )
    rows = []
    for name, table, exists in _encodings(max_len, d_model):
        _, residual = best_linear_shift(table, k)
        ok = residual <= EXACT_FIT_TOLERANCE if exists else residual > MISFIT_FLOOR
        rows.append((name, table.shape[1], "exact fit" if exists else "no fit", residual, ok))
    return Table(
        title=f"best least-squares linear map from row pos to row pos + {k}, {max_len} positions",
        headline="the best linear map from row pos to row pos + k",
        columns=("encoding", "dims", "expected", "max residual", "as claimed"),
        rows=tuple(rows),
        formats=("", "d", "", ".3e", ""),
        note=(
            f"claim: 'exact fit' rows have residual ≤ {EXACT_FIT_TOLERANCE:g} (a map exists), "
            f"'no fit' rows have residual > {MISFIT_FLOOR:g} (no pos-independent linear map)"
        ),
        passed=all(r[-1] for r in rows),
    )
