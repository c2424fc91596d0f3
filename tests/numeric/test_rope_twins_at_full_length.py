"""The RoPE twins at the lengths real models use: positions up to 131072 (the default run of
each theorem checks positions below 8192)."""

from __future__ import annotations

import pytest

from numeric.checks.rope_decay import rope_decay_table
from numeric.checks.rope_group import rope_group_table
from numeric.checks.rope_layouts import rope_layouts_table
from numeric.checks.rope_precision import rope_precision_table
from numeric.checks.rope_scaling import rope_scaling_table


@pytest.mark.slow
@pytest.mark.parametrize(
    "twin",
    [
        rope_decay_table,
        rope_group_table,
        rope_layouts_table,
        rope_precision_table,
        rope_scaling_table,
    ],
)
def test_each_rope_twin_passes_at_131072_positions(twin) -> None:
    table = twin()
    assert table.passed is True, table.title
    assert "131072" in table.title or any("131072" in str(c) for row in table.rows for c in row)
