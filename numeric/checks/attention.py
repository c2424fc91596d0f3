"""The attention twin (proofs/theorems/sinusoidal/attention.py): the score PE(p)ᵀ·M_{k₀}·PE(q), read off the table,
is largest at q = p − k₀ for every query p, while a bilinear score of the ramp steps by the same
amount at every q and so peaks only at an end of the sequence.

The scores are computed from the tables (numeric.tables) and the shift matrix
(numeric.rotations), not from the closed form, which they are compared with.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from numeric import validate
from numeric.result_table import Table
from numeric.rotations import stacked_rotations
from numeric.tables import accuracy_bound, frequencies, ramp_encoding, sinusoidal_pe

DEFAULT_QUERIES = (10, 25, 40, 49)
# The ramp's score coefficients (α, β, γ, δ): a few fixed choices, of both signs.
RAMP_SCORES = ((1.0, 0.5, -2.0, 0.1), (-3.0, 1.0, 1.0, 0.0), (2.0, -1.0, 0.5, 1.0))


def attention_table(
    *,
    d_model: int = 8,
    max_len: int = 50,
    k0: int = 3,
    queries: Iterable[int] = DEFAULT_QUERIES,
) -> Table:
    """For each query p: the key q the sinusoidal score PE(p)ᵀ·M_{k₀}·PE(q) prefers, the most
    it scores and how far the table's scores are from Σ_i cos((p − q − k₀)ω_i); and the key each
    ramp score prefers, with the spread of its steps in q.

    Passes when every sinusoidal score peaks at q = p − k₀ with value d_model/2, matches the
    closed form, and every ramp score peaks at q = 0 or q = max_len − 1 with one step size.
    """
    d_model = validate.d_model(d_model)
    max_len = validate.max_len(max_len)
    k0 = validate.integer(k0, "k0")
    queries = validate.indices(queries, max_len, "queries")
    if not queries:
        raise ValueError("queries must hold at least one position")
    if any(not 0 <= p - k0 < max_len for p in queries):
        raise ValueError(f"every query p needs its key p − k0 in [0, {max_len}), k0 = {k0}")
    pe = sinusoidal_pe(max_len, d_model)
    omegas = frequencies(d_model)
    scores = pe @ stacked_rotations(k0, omegas) @ pe.T  # scores[p, q]
    ramp = ramp_encoding(max_len)[:, 0]
    tolerance = 8 * d_model * accuracy_bound(np.float64)
    positions = np.arange(max_len)
    rows = []
    ok = True
    for p in queries:
        closed = np.cos(np.outer(p - positions - k0, omegas)).sum(axis=1)
        error = float(np.abs(scores[p] - closed).max())
        best = int(np.argmax(scores[p]))
        ramp_best = []
        for alpha, beta, gamma, delta in RAMP_SCORES:
            s = alpha * ramp[p] * ramp + beta * ramp[p] + gamma * ramp + delta
            steps = np.diff(s)
            ok = ok and float(np.ptp(steps)) <= tolerance
            ramp_best.append(int(np.argmax(s)))
        ok = (
            ok
            and best == p - k0
            and abs(scores[p, best] - d_model / 2) <= tolerance
            and error <= tolerance
            and all(q in (0, max_len - 1) for q in ramp_best)
        )
        rows.append((p, best, float(scores[p, best]), error, ", ".join(str(q) for q in ramp_best)))
    return Table(
        title=(
            f"attention scores, d_model = {d_model}, max_len = {max_len}, k0 = {k0}: "
            "sinusoidal PE(p)ᵀ·M_k0·PE(q) against ramp scores"
        ),
        headline="the key each score prefers, sinusoidal against ramp",
        columns=("p", "best q", "largest score", "off the closed form", "ramp: best q"),
        rows=tuple(rows),
        formats=("d", "d", ".6f", ".1e", ""),
        note=(
            f"the sinusoidal score peaks at q = p − {k0} with value d_model/2 = {d_model // 2}; "
            f"each ramp score ({len(RAMP_SCORES)} choices of α, β, γ, δ) peaks at an end"
        ),
        passed=ok,
    )
