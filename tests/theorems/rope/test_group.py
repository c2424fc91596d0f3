"""The rope_group theorem: rotations add, so re-rotating cached keys is exact."""

import pytest

from proofs.engine.derivation import Derivation, Step
from proofs.theorems.rope import group as rg
from proofs.theorems.rope.layouts import THETA, rope_rotation


def test_theorem_is_proved_at_a_small_head() -> None:
    result = rg.build(d_model=4).verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


@pytest.mark.slow
def test_theorem_is_proved_at_a_real_head() -> None:
    result = rg.build(d_model=128).verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


def test_composition_with_the_wrong_sign_is_refuted() -> None:
    import sympy as sp

    claim = Derivation(
        "claim",
        "n − Δ",
        (
            Step(
                sp.MatMul(
                    rope_rotation(rg.N * THETA), rope_rotation(rg.DELTA * THETA), evaluate=False
                )
            ),
            Step(rope_rotation((rg.N - rg.DELTA) * THETA)),
        ),
    )
    assert claim.verify().status == "refuted"


def test_the_shift_holds_for_every_real_delta() -> None:
    assert not rg.DELTA.is_integer and rg.DELTA.is_real
    assert {rg.N, rg.DELTA, THETA} <= rg.cache_shift_derivation().symbols


@pytest.mark.slow
def test_numeric_twin_passes() -> None:
    assert rg.build().run_twin().passed is True
