"""Each RoPE scaling method's stated properties, numerically: the twin of rope_scaling.

Each method of the registry (numeric.rope.methods) measures its own rows
(ScalingMethod.property_rows), computed as transformers computes it (float64, and float32 where
the row says so) over the grid of numeric.rope.properties: d ∈ {64, 128}, b ∈ {10⁴, 5·10⁵},
s ∈ {2, 4, 8, 16, 40}, L ∈ {2048, 4096, 8192}. A row "holds" when the measured deviation from
the claim is within its rounding bound (u = 2⁻⁵³ in float64, 2⁻²⁴ in float32), and is
"refuted" when it exceeds a million times that bound. Relative deviations are measured
against the exact statement; monotonicity as max_i (θ′_{i+1}/θ′_i − 1), which must be < 0.
Paper-against-code values come with their mpmath values (numeric.rope.claims).
"""

from __future__ import annotations

import numpy as np

from numeric.checks.rope_layouts import sample_pairs
from numeric.result_table import Table
from numeric.rope.methods import scaling_methods
from numeric.rope.properties import Sampling


def rope_scaling_table(*, samples: int = 1024, max_position: int = 131072) -> Table:
    """One row per stated property of each scaling method; see the module docstring.

    samples: (m, n) pairs for the attention-factor rows; max_position: positions below it.
    """
    if not isinstance(samples, int) or samples < 4:
        raise ValueError(f"samples must be an integer of at least 4, got {samples!r}")
    if not isinstance(max_position, int) or not 4 <= max_position <= 2**31:
        raise ValueError(f"max_position must be an integer in [4, 2**31], got {max_position!r}")
    at_m, at_n = sample_pairs(samples, max_position, np.random.default_rng(1))
    at = Sampling(max_position, at_m, at_n)
    rows = [r for method in scaling_methods() for r in method.property_rows(at)]
    checked = []
    for method, claim, cases, measured, bound, expected in rows:
        ok = measured <= bound if expected == "holds" else measured > 1e6 * bound
        checked.append((method, claim, cases, measured, bound, expected, ok))
    return Table(
        title="RoPE scaling methods, their stated properties",
        headline="each scaling method has the properties its source states",
        columns=("method", "claim", "cases", "measured", "bound", "expected", "as expected"),
        rows=tuple(checked),
        formats=("", "", "", ".6g", ".6g", "", ""),
        note=(
            "holds: measured within its rounding bound; refuted: measured above a million times "
            "it; monotone rows report max (next/this − 1), which must not exceed 0"
        ),
        passed=all(r[-1] for r in checked),
    )
