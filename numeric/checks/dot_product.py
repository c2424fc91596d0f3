"""The dot product PE(p)·PE(p+k) as a function of k: the same at every p, and even in k.

Numeric twin of the theorem proofs.theorems.sinusoidal.dot_product. The dot products are taken from the table
itself at several base positions p; the closed form Σ_i cos(k·ω_i) is computed beside them.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from numeric import validate
from numeric.result_table import Table
from numeric.tables import accuracy_bound, frequencies, sinusoidal_pe

DEFAULT_KS = (0, 1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000, 5000)
DEFAULT_BASES = (0, 1, 17, 1000, 123456)


def dot_products(
    ks: Iterable[int], *, d_model: int = 8, bases: Iterable[int] = DEFAULT_BASES
) -> np.ndarray:
    """PE(p)·PE(p+k) read off the table, shape (len(bases), len(ks)); k may be negative."""
    d_model = validate.d_model(d_model)
    ks = np.array([validate.integer(k, "ks") for k in ks], dtype=np.int64)
    bases = np.array([validate.integer(p, "bases") for p in bases], dtype=np.int64)
    if ks.size == 0 or bases.size == 0:
        raise ValueError("ks and bases must each hold at least one integer")
    # Only the rows used are computed, each with start=: the same values as in a whole table
    # spanning them, in memory that does not grow with the distance between them.
    needed = np.unique(np.concatenate([bases, (bases[:, None] + ks).ravel()]))
    pe = np.stack([sinusoidal_pe(1, d_model, start=int(p))[0] for p in needed])
    here = pe[np.searchsorted(needed, bases)]
    there = pe[np.searchsorted(needed, bases[:, None] + ks)]
    return np.einsum("pd,pkd->pk", here, there)


def closed_form(ks: Iterable[int], *, d_model: int = 8) -> np.ndarray:
    """Σ_i cos(k·ω_i), the theorem's value of the dot product, for each k."""
    k = np.asarray(list(ks), dtype=np.float64)
    return np.cos(np.outer(k, frequencies(d_model))).sum(axis=1)


def dot_product_table(
    *, d_model: int = 8, ks: Iterable[int] = DEFAULT_KS, bases: Iterable[int] = DEFAULT_BASES
) -> Table:
    """For each k: the dot product at k and −k over several p, against Σ_i cos(k·ω_i).

    Passes when, for every k, the values at all p and at ±k agree with the closed form to
    within the rounding the table's entries allow.
    """
    ks = tuple(validate.integer(k, "ks") for k in ks)
    signed = ks + tuple(-k for k in ks)
    values = dot_products(signed, d_model=d_model, bases=bases)
    after, before = values[:, : len(ks)], values[:, len(ks) :]
    exact = closed_form(ks, d_model=d_model)
    eps = float(np.finfo(np.float64).eps)
    # Each product of two entries is off by about 2·bound; d of them are summed.
    tolerance = d_model * (2 * accuracy_bound(np.float64) + 2 * eps) + 4 * d_model * eps
    rows = []
    passed = True
    for n, k in enumerate(ks):
        spread = float(np.ptp(after[:, n]))
        error = float(np.max(np.abs(np.concatenate([after[:, n], before[:, n]]) - exact[n])))
        asym = float(np.max(np.abs(after[:, n] - before[:, n])))
        ok = spread <= tolerance and error <= tolerance and asym <= tolerance
        passed &= ok
        rows.append((k, float(after[0, n]), float(exact[n]), spread, asym, error, ok))
    return Table(
        title=f"PE(p)·PE(p+k) against Σ cos(k·ω_i), d_model = {d_model}, p in {tuple(bases)}",
        headline="PE(p)·PE(p + k) = Σ cos(kω_i) at every p",
        columns=(
            "k",
            "PE(p)·PE(p+k)",
            "Σ cos(k·ω_i)",
            "spread over p",
            "|f(k) − f(−k)|",
            "max error",
            "ok",
        ),
        rows=tuple(rows),
        formats=("", ".15f", ".15f", ".1e", ".1e", ".1e", ""),
        note="The dot product does not depend on p and is even in k: it cannot tell k before from k after.",
        passed=passed,
    )
