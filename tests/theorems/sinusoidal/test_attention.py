"""The attention theorem: a learned bilinear score looks exactly k₀ back under the sinusoids; no
bilinear score of the ramp peaks inside the sequence."""

import pytest
import sympy as sp

from numeric.checks.attention import attention_table
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import NonNegative
from proofs.engine.rules import ALGEBRA, ANGLE_SUBTRACTION
from proofs.theorems.sinusoidal import attention
from proofs.theorems.sinusoidal.definitions import L, omega


def test_attention_theorem_is_proved_with_every_step_closed_by_its_citation():
    result = attention.build().verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]
    for part in result.parts:
        for link in part.verdict.links:
            assert link.cited == link.closed_by, (part.part.name, link.cited, link.closed_by)


def test_the_wrong_sign_of_k0_is_refuted():
    """With A = M_k0 the head looks k0 back: the score is not Σ cos((p − q + k0)ω_i)."""
    right = attention.pair_score_derivation()
    w = omega()
    wrong = Derivation(
        "claim",
        "wrong",
        (
            Step(right.steps[1].expr),
            Step(
                sp.ImmutableMatrix([[sp.cos((attention.P - attention.Q + attention.K0) * w)]]),
                by=ANGLE_SUBTRACTION,
            ),
        ),
    )
    assert wrong.verify().status == "refuted"


def test_a_ramp_step_that_depends_on_q_is_refuted():
    wrong = Derivation(
        "claim",
        "wrong",
        (
            Step(attention.ramp_difference(attention.Q)),
            Step(attention.RAMP_STEP + attention.Q / L**2, by=ALGEBRA),
        ),
    )
    assert wrong.verify().status == "refuted"


def test_a_negative_square_is_not_accepted_as_a_witness():
    fact = NonNegative(
        "claim",
        "wrong",
        -(attention.RAMP_STEP**2),
        -(attention.RAMP_STEP**2),
        ALGEBRA,
    )
    assert fact.verify().status != "proved"


def test_the_twin_sees_the_peak_k0_back_and_the_ramp_peak_at_an_end():
    table = attention_table(d_model=16, max_len=64, k0=5, queries=(5, 30, 63))
    assert table.passed is True
    for p, best, largest, error, ramp_best in table.rows:
        assert best == p - 5 and largest == pytest.approx(8.0) and error < 1e-12
        assert set(ramp_best.split(", ")) <= {"0", "63"}


def test_the_twin_refuses_a_query_whose_key_is_off_the_table():
    with pytest.raises(ValueError, match="needs its key p − k0"):
        attention_table(k0=3, queries=(2,))
