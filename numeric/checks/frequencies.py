"""The frequencies twin (proofs/theorems/sinusoidal/frequencies.py): ω_i falls with i, and the period 2π/ω_i grows.

Each pair's ω_i is taken from numeric.tables.frequencies (the table's own schedule) and its
period computed as 2π/ω_i; the check is that ω_0 = 1 and that the ω_i fall strictly.
"""

from __future__ import annotations

import math

import numpy as np

from numeric import validate
from numeric.result_table import Table
from numeric.tables import frequencies


def frequency_table(*, d_model: int = 8) -> Table:
    """ω_i and its period 2π/ω_i, per pair i; passed when ω_0 = 1 and the ω_i fall strictly."""
    d_model = validate.d_model(d_model)
    omegas = frequencies(d_model)
    rows = []
    for i, w in enumerate(omegas):
        rows.append((i, f"{2 * i}, {2 * i + 1}", float(w), 2 * math.pi / float(w)))
    falling = bool(np.all(np.diff(omegas) < 0)) and math.isclose(float(omegas[0]), 1.0)
    return Table(
        title=f"the frequencies of d_model = {d_model}",
        headline="each pair turns at ω_i and repeats after 2π/ω_i",
        columns=("pair i", "dims", "ω_i", "period 2π/ω_i"),
        rows=tuple(rows),
        formats=("d", "", ".6g", ".1f"),
        note="ω_0 = 1 and each ω_i is smaller than the one before",
        passed=falling,
    )
