"""The rope_mrope theorem: text tokens get 1-D RoPE; the section layouts differ by a permutation."""

import numpy as np
import pytest
import sympy as sp

from numeric.rope import mrope as nm
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import Refutation
from proofs.engine.rules import MATRIX_PRODUCT
from proofs.theorems.rope import mrope as rm
from proofs.theorems.rope.definitions import K1, K2, Q1, Q2, THETA


def test_theorem_is_proved() -> None:
    result = rm.build().verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


def test_the_permutation_without_its_frequencies_is_refuted() -> None:
    order = rm.pair_order()
    p = rm.pair_permutation(order)
    positions = (rm.T, rm.H, rm.W)
    interleaved = rm.mrope_matrix(rm.interleaved_axes(), rm.THETAS, positions)
    claim = Derivation(
        "claim",
        "frequencies left in place",
        (
            Step(sp.MatMul(p, interleaved, p.T, evaluate=False)),
            Step(rm.mrope_matrix(rm.chunked_axes(), rm.THETAS, positions), by=MATRIX_PRODUCT),
        ),
    )
    assert claim.verify().status == "refuted"


def test_unequal_positions_are_not_1d_rope_at_t() -> None:
    # A pair reading h (s_t = 0, s_h = 1) with only h moving: 1-D RoPE at t would not turn it.
    one, zero = sp.Integer(1), sp.Integer(0)
    score = rm.mrope_score((rm.T, rm.H, rm.W), (rm.T2, rm.H2, rm.W2))
    claim = Refutation(
        "claim",
        "t alone",
        sp.Eq(score, rm.score_form(rm.T, rm.T2)),
        (
            (rm.S_T, zero),
            (rm.S_H, one),
            (rm.T, zero),
            (rm.T2, zero),
            (rm.H, zero),
            (rm.H2, one),
            (rm.W, zero),
            (rm.W2, zero),
            (Q1, one),
            (Q2, zero),
            (K1, one),
            (K2, zero),
            (THETA, one),
        ),
    )
    assert claim.verify().status == "proved"


@pytest.mark.parametrize("sections", [(2, 2, 2), (16, 24, 24), (24, 20, 20), (3, 1, 1)])
def test_the_theorem_and_numeric_layouts_agree(sections) -> None:
    assert rm.chunked_axes(sections) == tuple(nm.chunked_axes(sections).tolist())
    assert rm.interleaved_axes(sections) == tuple(nm.interleaved_axes(sections).tolist())
    assert rm.pair_order(sections) == tuple(nm.pair_order(nm.interleaved_axes(sections)).tolist())


def test_interleaving_keeps_each_axis_count() -> None:
    axes = nm.interleaved_axes((24, 20, 20))
    assert np.bincount(axes).tolist() == [24, 20, 20]


@pytest.mark.parametrize(("sections", "error"), [((1, 2), TypeError), ((0, 0, 0), ValueError)])
def test_bad_sections_are_rejected(sections, error) -> None:
    with pytest.raises(error, match="mrope_section"):
        nm.chunked_axes(sections)


def test_the_twin_passes() -> None:
    assert rm.build().run_twin().passed is True


def test_the_twin_fails_when_the_layouts_are_the_same(monkeypatch) -> None:
    from numeric.checks import rope_mrope

    monkeypatch.setattr(rope_mrope, "interleaved_axes", rope_mrope.chunked_axes)
    assert rope_mrope.rope_mrope_table().passed is False
