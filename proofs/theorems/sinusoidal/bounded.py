"""Theorem (bounded): every entry of PE lies in [−1, 1], and ‖PE(pos)‖² = d_model/2 exactly.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves.

Numeric twin: numeric.checks.bounded.bounds_and_norms_table.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.blocks import BlockEquation, BlockSum, Inner, Label
from proofs.engine.citation import Lemma, Termwise
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import Blockwise, NonNegative
from proofs.engine.rules import COMMON_ANGLE, COUNT_TERMS, MATRIX_PRODUCT, PYTHAGOREAN
from proofs.engine.theorem import Theorem
from proofs.theorems.sinusoidal.definitions import (
    D_MODEL,
    OMEGA_I,
    POS,
    I,
    omega,
    pair_bindings,
    pairs,
    pe_blocks,
    pe_pair,
)

NAME = "bounded"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "Every entry of PE(pos) lies in [−1, 1] for all real pos, and ‖PE(pos)‖² = d_model/2: "
    "each (sin, cos) pair has unit length."
)


def _gram(column: sp.ImmutableMatrix) -> sp.MatMul:
    """columnᵀ·column, kept unevaluated for display."""
    return sp.MatMul(column.T, column, evaluate=False)


def pair_norm_derivation() -> Derivation:
    """sin² + cos² = 1 for pair i, with i and d_model symbolic."""
    w = omega()
    pair = pe_pair(POS, w)
    return Derivation(
        "pair_unit_length",
        "One pair has unit length: sin²(pos·ω_i) + cos²(pos·ω_i) = 1",
        (
            Step(_gram(pair)),
            Step(
                sp.ImmutableMatrix([[sp.sin(POS * w) ** 2 + sp.cos(POS * w) ** 2]]),
                by=MATRIX_PRODUCT,
            ),
            Step(sp.ImmutableMatrix([[1]]), by=PYTHAGOREAN, note="sin²x + cos²x = 1"),
        ),
        display=((w, OMEGA_I),),
    )


# sin x and cos x written over the half angle (sin x = 2 sin(x/2) cos(x/2)), then cos² = 1 − sin².
DOUBLE_ANGLE = (COMMON_ANGLE, PYTHAGOREAN)


def bound_facts() -> tuple[NonNegative, ...]:
    """The four one-sided bounds of sin and cos, each as 'an expression equal to a square'."""
    x = POS * omega()
    half_sin, half_cos = sp.sin(x / 2), sp.cos(x / 2)
    return (
        NonNegative(
            "sin_at_most_1",
            "sin(pos·ω_i) ≤ 1: 1 − sin x = (sin(x/2) − cos(x/2))² ≥ 0",
            1 - sp.sin(x),
            (half_sin - half_cos) ** 2,
            DOUBLE_ANGLE,
        ),
        NonNegative(
            "sin_at_least_minus_1",
            "sin(pos·ω_i) ≥ −1: 1 + sin x = (sin(x/2) + cos(x/2))² ≥ 0",
            1 + sp.sin(x),
            (half_sin + half_cos) ** 2,
            DOUBLE_ANGLE,
        ),
        NonNegative(
            "cos_at_most_1",
            "cos(pos·ω_i) ≤ 1: 1 − cos x = 2·sin²(x/2) ≥ 0",
            1 - sp.cos(x),
            2 * half_sin**2,
            DOUBLE_ANGLE,
        ),
        NonNegative(
            "cos_at_least_minus_1",
            "cos(pos·ω_i) ≥ −1: 1 + cos x = 2·cos²(x/2) ≥ 0",
            1 + sp.cos(x),
            2 * half_cos**2,
            DOUBLE_ANGLE,
        ),
    )


def general_norm_derivation(pair: Derivation) -> Derivation:
    """‖PE(pos)‖² = d_model/2 with d_model symbolic: the pair identity summed over i."""
    w = omega()
    pairs = (I, 0, D_MODEL / 2 - 1)
    return Derivation(
        "norm_any_d",
        "The whole vector, any d_model: ‖PE(pos)‖² = d_model/2",
        (
            Step(sp.Sum(sp.sin(POS * w) ** 2 + sp.cos(POS * w) ** 2, pairs)),
            Step(sp.Sum(sp.Integer(1), pairs), by=Termwise(Lemma(pair))),
            Step(D_MODEL / 2, by=COUNT_TERMS, note="d_model/2 terms"),
        ),
        display=((w, OMEGA_I),),
    )


def vector_norm_fact(d_model: int, lemma: Derivation | None = None) -> Blockwise:
    """‖PE(pos)‖² = d_model/2 for a concrete d_model: one 1 per pair, from the pair identity."""
    pe = pe_blocks(POS, d_model)
    ones = BlockSum(pairs(sp.ImmutableMatrix([[1]]), d_model), Label("1", "1"))
    return Blockwise(
        "norm_concrete",
        f"The whole vector, d_model = {d_model}: ‖PE(pos)‖² = Σ_i 1 = d_model/2 = {d_model // 2}",
        BlockEquation(Inner(pe, pe), ones),
        lemma or pair_norm_derivation(),
        pair_bindings(d_model),
    )


def build(d_model: int = 8) -> Theorem:
    """The boundedness theorem; d_model sets the size of the whole-vector norm."""
    pair = pair_norm_derivation()
    return Theorem(
        name=NAME,
        title="The encoding is bounded and every row has the same length",
        statement=STATEMENT,
        formulas=(
            sp.Eq(sp.sin(POS * OMEGA_I) ** 2 + sp.cos(POS * OMEGA_I) ** 2, 1, evaluate=False),
            sp.Eq(
                sp.Sum(
                    sp.sin(POS * OMEGA_I) ** 2 + sp.cos(POS * OMEGA_I) ** 2, (I, 0, D_MODEL / 2 - 1)
                ),
                D_MODEL / 2,
                evaluate=False,
            ),
        ),
        parts=(
            pair,
            *bound_facts(),
            general_norm_derivation(pair),
            vector_norm_fact(d_model, pair),
        ),
        twin="numeric.checks.bounded.bounds_and_norms_table",
        remarks=(
            "The bounds are inequalities, which the equality engine does not check as such: each is "
            "shown as an equality to a square (checked symbolically and numerically) plus SymPy's "
            "assumption that the square of a real number is ≥ 0 (pos real, ω_i > 0).",
            "Every statement holds with i and d_model symbolic; the numeric check evaluates the "
            "sum over i = 0 .. d_model/2 − 1 at sampled even d_model. For the concrete "
            "d_model the pair identity is instantiated at each of the d_model/2 pairs.",
            "Bounded with equality of norms: no position's encoding can outweigh a token "
            "embedding by growing, unlike the raw index.",
        ),
        brief=True,
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
