"""The papers twin (proofs/theorems/papers/common/theorem.py): each distance where the ledger
finds Men et al.'s criterion B(m) = Σ_i cos(m·b^(−2i/d)) ≥ 0 broken, recomputed with mpmath.

mpmath at 40 digits is independent of the ledger's float64 sweep and of python-flint's balls;
at these arguments (m·θ_i below 10⁶) 40 digits leave B(m) correct to far more than the margin
of any failure the ledger reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import mpmath

from numeric.result_table import Table

DIGITS = 40


def criterion_value(base: str, m: int, dim: int = 128) -> mpmath.mpf:
    """B(m) = Σ_{i<dim/2} cos(m·b^(−2i/dim)) at 40 digits, b an exact rational given as text.

    >>> float(criterion_value("10000", 0))
    64.0
    """
    b = Fraction(base)
    with mpmath.workdps(DIGITS):
        exact = mpmath.mpf(b.numerator) / b.denominator
        return mpmath.fsum(
            mpmath.cos(m * exact ** (mpmath.mpf(-2 * i) / dim)) for i in range(dim // 2)
        )


def papers_table(*, points: Sequence[tuple[str, int]] = ()) -> Table:
    """B(m) at each (base, m) the ledger refutes the criterion at; passed when every one is < 0."""
    rows = tuple(
        (base, m, float(value)) for base, m in points for value in [criterion_value(base, m)]
    )
    return Table(
        title="Men et al.'s criterion at the distances the ledger says break it (mpmath, 40 digits)",
        headline="B(m) < 0 at every distance where the ledger refutes B(m) ≥ 0",
        columns=("base b", "m", "B(m)"),
        rows=rows,
        formats=("", "d", ".6g"),
        note="recomputed with mpmath, independent of the float64 sweep and of the arb balls",
        passed=all(value < 0 for _, _, value in rows),
    )
