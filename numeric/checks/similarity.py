"""The similarity twin (proofs/theorems/sinusoidal/similarity.py): PE(p)·PE(p+k) is the same at every p, while the
ramp's r(p)·r(p+k) = p(p+k)/max_len² changes with p.

Both products are read off the tables (numeric.tables), not computed from the closed forms.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from numeric import validate
from numeric.result_table import Table
from numeric.tables import accuracy_bound, frequencies, ramp_encoding, sinusoidal_pe

DEFAULT_POSITIONS = (0, 10, 20, 40)
DEFAULT_KS = (1, 5)


def similarity_table(
    *,
    d_model: int = 8,
    max_len: int = 50,
    positions: Iterable[int] = DEFAULT_POSITIONS,
    ks: Iterable[int] = DEFAULT_KS,
) -> Table:
    """For each k and p: PE(p)·PE(p+k) beside Σ_i cos(kω_i), and r(p)·r(p+k) beside p(p+k)/L².

    Passes when the sinusoidal column equals the closed form at every p and the ramp column
    takes a different value at every p of the same k.
    """
    d_model = validate.d_model(d_model)
    max_len = validate.max_len(max_len)
    positions = validate.indices(positions, max_len, "positions")
    ks = tuple(validate.integer(k, "ks") for k in ks)
    if not positions or not ks:
        raise ValueError("positions and ks must each hold at least one integer")
    bad = [p + k for p in positions for k in ks if not 0 <= p + k < max_len]
    if bad:
        raise ValueError(f"positions + ks must stay in [0, {max_len}), got {bad}")
    pe = sinusoidal_pe(max_len, d_model)
    ramp = ramp_encoding(max_len)[:, 0]
    omegas = frequencies(d_model)
    tolerance = 8 * d_model * accuracy_bound(np.float64)
    rows = []
    ok = True
    for k in ks:
        closed = float(np.cos(k * omegas).sum())
        ramp_values = []
        for p in positions:
            dot = float(pe[p] @ pe[p + k])
            ramp_product = float(ramp[p] * ramp[p + k])
            ok = ok and abs(dot - closed) <= tolerance
            ramp_values.append(ramp_product)
            rows.append((k, p, dot, closed, ramp_product, p * (p + k) / max_len**2))
        ok = ok and len(set(ramp_values)) == len(ramp_values)
    return Table(
        title=f"similarity of p and p+k: d_model = {d_model}, ramp over max_len = {max_len}",
        headline="the similarity of p and p + k, sinusoidal against ramp",
        columns=("k", "p", "PE(p)·PE(p+k)", "Σ cos(kω_i)", "r(p)·r(p+k)", "p(p+k)/L²"),
        rows=tuple(rows),
        formats=("d", "d", ".6f", ".6f", ".4f", ".4f"),
        note=f"sinusoidal column equal to the closed form within {tolerance:.1e}; ramp column different at every p",
        passed=ok,
    )
