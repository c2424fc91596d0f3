"""The rope_precision theorem: exact floating-point facts, the fp16 refutation, and the corrected
bf16 phase bound (2^-8, not issue 24's 2^-9)."""

import numpy as np
import pytest
import sympy as sp

from numeric.rope.claims import round_integer
from numeric.rope.floats import round_to
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import NonNegative
from proofs.engine.rules import ALGEBRA, INTEGER_PARTS
from proofs.engine.rules.integer_parts import integer_parts
from proofs.engine.rules.normal_form import Atoms
from proofs.theorems.rope import precision as rp


def test_theorem_is_proved() -> None:
    result = rp.build().verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


@pytest.mark.parametrize(
    ("x", "bits"),
    [
        (257, 8),
        (255, 8),
        (259, 8),
        (2049, 11),
        (2051, 11),
        (10002, 11),
        (10004, 11),
        (2**24 + 1, 24),
        (2**24 + 3, 24),
        (1001, 8),
    ],
)
def test_the_rounding_formula_is_round_to_nearest_even(x: int, bits: int) -> None:
    value = Atoms().polynomial(integer_parts(rp.rounded_at(x, bits)))
    assert value == round_integer(x, bits)


def test_the_formula_rounds_pair_24_as_numpy_does() -> None:
    theta = float(sp.N(rp.theta_24(), 30))
    assert float(round_to(np.float64(theta), "bfloat16")) == 65 / 2048


def test_a_wrong_rounding_is_refuted() -> None:
    claim = Derivation(
        "claim", "c", (Step(rp.rounded_at(257, 8)), Step(sp.Integer(258), by=INTEGER_PARTS))
    )
    assert claim.verify().status == "refuted"


def test_issue_24s_bound_is_not_proved_at_pair_24() -> None:
    theta = rp.theta_24()
    # 2^-9·θ_24 − (fl(θ_24) − θ_24) ≥ 0 would be the issue's bound at pair 24.
    slack = sp.Add(
        sp.Mul(sp.Rational(1, 2**9), theta, evaluate=False),
        -(sp.Rational(65, 2048) - theta),
        evaluate=False,
    )
    witness = sp.Add(
        sp.Mul(theta, sp.Rational(1, 2**9) + 1, evaluate=False),
        sp.Rational(-65, 2048),
        evaluate=False,
    )
    verdict = NonNegative("claim", "2^-9", slack, witness, ALGEBRA).verify()
    assert verdict.status == "refuted" and "negative" in verdict.reason


@pytest.mark.slow
def test_numeric_twin_passes() -> None:
    assert rp.build().run_twin().passed is True
