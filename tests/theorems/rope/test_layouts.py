"""The rope_layouts theorem: relative in every layout, the conversion permute, and the two
refutations; wrong versions of its claims must not come back proved."""

import numpy as np
import pytest
import sympy as sp

from numeric.rope.permute import permute_heads, rotate_half_order
from proofs.engine.blocks import BlockEquation, Product
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import Blockwise
from proofs.theorems.rope import layouts as rl


def test_theorem_is_proved_at_a_small_head() -> None:
    result = rl.build(d_model=4).verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


@pytest.mark.slow
def test_theorem_is_proved_at_the_default_and_a_real_head() -> None:
    for d in (8, 128):
        result = rl.build(d_model=d).verify()
        assert result.status == "proved", [str(p.verdict) for p in result.parts]


def test_the_pair_lemma_is_general_in_every_symbol() -> None:
    symbols = rl.pair_relative_derivation().symbols
    assert {rl.M, rl.N, rl.THETA, rl.Q1, rl.Q2, rl.K1, rl.K2} <= symbols


def test_the_wrong_sign_of_the_offset_is_refuted() -> None:
    claim = Derivation(
        "claim", "m − n", (Step(rl.score_form(rl.M, rl.N)), Step(rl.relative_form(rl.M - rl.N)))
    )
    assert claim.verify().status == "refuted"


def test_rotate_half_without_the_permutation_is_not_the_interleaved_head() -> None:
    # The rotate_half rotation applied to x unpermuted: its blocks sit on other components.
    d = 4
    x = rl.vector_blocks(rl.X_VEC, "interleaved", d)
    fact = Blockwise(
        "wrong",
        "no P",
        BlockEquation(
            Product((rl.rope_blocks(rl.M, "rotate_half", d), x)),
            Product((rl.rope_blocks(rl.M, "interleaved", d), x)),
        ),
    )
    assert fact.verify().status == "refuted"


@pytest.mark.parametrize(("rows", "heads"), [(8, 2), (8, 4), (16, 4), (12, 3)])
def test_the_permute_matrix_is_transformers_permute(rows: int, heads: int) -> None:
    w = np.arange(rows * 3.0).reshape(rows, 3)
    pi = np.array(rl.hf_permute_matrix(rows, heads).tolist(), dtype=float)
    assert np.array_equal(pi @ w, permute_heads(w, heads))


def test_p_is_the_gather_the_numeric_side_uses() -> None:
    for d in (2, 4, 8, 128):
        dense = np.array(rl.permutation(d).dense().tolist(), dtype=float)
        x = np.arange(float(d))
        assert np.array_equal(dense @ x, x[rotate_half_order(d)])


def test_the_gqa_counterexample_is_the_twins() -> None:
    th = rl.build(d_model=4)
    before, after = th.part("gqa_score_before"), th.part("gqa_score_after_wrong_count")
    assert sp.simplify(before.rhs[0, 0] - sp.cos(rl.M - rl.N)) == 0
    assert after.rhs[0, 0] == 0


def test_parts_name_every_claim_of_the_issue() -> None:
    names = {p.name for p in rl.build(d_model=4).parts}
    assert {
        "head_relative_interleaved",
        "head_relative_rotate_half",
        "head_relative_complex",
        "rotate_half_of_permuted",
        "converted_scores_equal",
        "gqa_wrong_count_changes_scores",
        "mixed_layout_not_relative",
    } <= names


@pytest.mark.slow
def test_numeric_twin_passes() -> None:
    assert rl.build().run_twin().passed is True
