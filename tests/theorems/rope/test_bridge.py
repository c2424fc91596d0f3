"""The RoPE theorem, the wrong sign convention that must be refuted, and its numeric twin."""

import numpy as np
import pytest

from numeric.checks.rope import rope_table, scores
from proofs.engine.derivation import Derivation, Step
from proofs.theorems.rope import bridge as rope


def test_rope_theorem_is_proved_at_the_smallest_d_model():
    result = rope.build(d_model=2).verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


@pytest.mark.slow
def test_rope_theorem_is_proved_at_the_default_d_model():
    result = rope.build().verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


def test_pair_statement_is_general_in_every_symbol():
    derivation = rope.pair_derivation()
    assert {rope.P, rope.M, rope.THETA, rope.Q1, rope.Q2, rope.KV1, rope.KV2} <= derivation.symbols


def test_wrong_sign_of_the_offset_is_refuted():
    claim = Derivation(
        "claim",
        "p − m instead of m − p",
        (
            Step(rope.score_form(rope.P, rope.M)),
            Step(rope.relative_form(rope.P - rope.M)),
        ),
    )
    assert claim.verify().status == "refuted"


def test_offset_fact_would_fail_for_an_absolute_score():
    th = rope.build(d_model=2)
    fact = next(p for p in th.parts if type(p).__name__ == "FreeOf")
    assert fact.verify().proved
    # The score itself, before writing m = p + δ, does contain p.
    assert rope.P in rope.score_form(rope.P, rope.M).free_symbols


def test_numeric_twin_passes():
    table = rope_table()
    assert table.passed is True
    assert {row[0] for row in table.rows} == {"θ_i = ω_i", "random θ_i"}


def test_numeric_scores_do_depend_on_absolute_position_when_only_one_moves():
    rng = np.random.default_rng(1)
    q, k = rng.standard_normal(8), rng.standard_normal(8)
    thetas = np.array([1.0, 0.1, 0.01, 0.001])
    grid = np.arange(16.0)
    moved_both = scores(q, k, grid + 3, grid + 3, thetas)
    moved_query = scores(q, k, grid + 3, grid, thetas)
    base = scores(q, k, grid, grid, thetas)
    assert np.abs(moved_both - base).max() < 1e-12
    assert np.abs(moved_query - base).max() > 1e-2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"positions": 0}, "positions"),
        ({"d_model": 7}, "d_model"),
        ({"shifts": (float("inf"),)}, "shifts"),
    ],
)
def test_numeric_twin_rejects_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        rope_table(**kwargs)
