"""The rope_decay theorem: the Abel identity and bound hold; the decay is refuted, certified."""

import mpmath
import pytest
import sympy as sp

from numeric.rope import exact
from proofs.engine.certified import to_arb
from proofs.engine.facts import NonNegative
from proofs.engine.rules import ALGEBRA
from proofs.theorems.rope import decay as rd


def test_theorem_is_proved() -> None:
    result = rd.build(d_model=4).verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


@pytest.mark.slow
def test_theorem_is_proved_at_roformers_head() -> None:
    result = rd.build(d_model=128).verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


def test_sizes_are_capped_for_large_heads() -> None:
    th = rd.build(d_model=65536)
    assert th.part("abel_summation").title.startswith("Summation by parts, 64 pairs")
    assert "4 pairs" in th.part("triangle_inequality").title


@pytest.mark.parametrize("r", [18, 19, 1000, 2000])
def test_the_certified_average_is_roformers(r: int) -> None:
    ball = to_arb(rd.average(r), {}, 128)
    with mpmath.workdps(40):
        want = exact.decay_average(r, 128, 10000)
    assert abs(float(ball.mid()) - float(want)) < 1e-12


def test_a_decay_claim_is_refuted() -> None:
    f = rd.average
    decays = NonNegative(
        "claim",
        "f(1000) ≥ f(2000)",
        sp.Add(f(1000), -f(2000), evaluate=False),
        sp.Add(sp.Mul(-1, f(2000), evaluate=False), f(1000), evaluate=False),
        ALGEBRA,
    )
    verdict = decays.verify()
    assert verdict.status == "refuted" and "negative" in verdict.reason


@pytest.mark.slow
def test_numeric_twin_passes() -> None:
    assert rd.build().run_twin().passed is True
