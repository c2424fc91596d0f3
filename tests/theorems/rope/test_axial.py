"""The rope_axial theorem: axial scores are relative in (Δx, Δy); a diagonal is no axis offset."""

import pytest
import sympy as sp

from numeric.checks.rope_axial import rope_axial_table
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import Refutation
from proofs.theorems.rope import axial as ra


def test_theorem_is_proved() -> None:
    result = ra.build().verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


def test_swapping_the_axes_of_the_offset_is_refuted() -> None:
    # The y-pair turns with Δy: reading Δx there is wrong.
    claim = Derivation(
        "claim",
        "axes swapped",
        (
            Step(ra.axial_score(ra.MX, ra.MY, ra.NX, ra.NY)),
            Step(ra.axial_relative_form(ra.NY - ra.MY, ra.NX - ra.MX)),
        ),
    )
    assert claim.verify().status == "refuted"


def test_a_diagonal_equal_to_an_axis_offset_where_it_is_true_is_not_refuted() -> None:
    # At φ = 0 the y-pairs never turn, so (k, k) and (k, 0) agree: no certified difference.
    claim = Refutation(
        "claim",
        "with φ = 0",
        sp.Eq(ra.axial_relative_form(ra.K, ra.K), ra.axial_relative_form(ra.K, 0)),
        (
            *((s, sp.Integer(1)) for s in (*ra.Q, *ra.KAPPA, ra.THETA, ra.K)),
            (ra.PHI, sp.Integer(0)),
        ),
    )
    assert claim.verify().status != "proved"


def test_the_twin_passes() -> None:
    table = ra.build().run_twin()
    assert table.passed is True


def test_the_twin_sees_the_diagonal_gap_shrink_with_the_frequencies() -> None:
    # A tiny base makes every pair fast; a huge one makes the y-pairs nearly still, and then the
    # diagonal gap is small: the row's value follows the frequencies, it is not a constant.
    slow = rope_axial_table(base=1e12).rows[2][2]
    fast = rope_axial_table(base=10.0).rows[2][2]
    assert slow < fast


@pytest.mark.parametrize("grid", [1, 65])
def test_the_twin_rejects_a_grid_out_of_range(grid: int) -> None:
    with pytest.raises(ValueError, match="grid must be in"):
        rope_axial_table(grid=grid)
