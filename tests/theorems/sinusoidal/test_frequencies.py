"""The frequencies theorem: ω_0 = 1, each pair slower than the one before, period 2π/ω_i."""

import sympy as sp

from numeric.checks.frequencies import frequency_table
from proofs.engine.derivation import Derivation, Step
from proofs.theorems.sinusoidal import frequencies
from proofs.theorems.sinusoidal.definitions import OMEGA_I, POS


def test_frequencies_theorem_is_proved():
    result = frequencies.build().verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


def test_a_wrong_period_is_refuted():
    wrong = Derivation(
        "claim",
        "wrong",
        (
            Step(sp.sin(sp.Mul(POS + sp.pi / OMEGA_I, OMEGA_I, evaluate=False))),
            Step(sp.sin(POS * OMEGA_I)),
        ),
    )
    assert wrong.verify().status == "refuted"


def test_the_twin_reads_falling_frequencies_and_growing_periods():
    table = frequency_table(d_model=8)
    assert table.passed is True
    assert [r[2] for r in table.rows] == sorted((r[2] for r in table.rows), reverse=True)
    assert table.rows[0][2] == 1.0
