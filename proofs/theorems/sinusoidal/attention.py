"""Theorem (attention): a learned bilinear score can make a head look exactly k₀ back under the
sinusoidal encoding; under the ramp no bilinear score can single out one offset.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves.

Numeric twin: numeric.checks.attention.attention_table.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.citation import Lemma, Termwise
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import FreeOf, NonNegative, NonZero
from proofs.engine.rules import (
    ALGEBRA,
    ANGLE_SUBTRACTION,
    COMMON_ANGLE,
    COUNT_TERMS,
    MATRIX_PRODUCT,
    PYTHAGOREAN,
)
from proofs.engine.theorem import Theorem
from proofs.theorems.sinusoidal.definitions import (
    D_MODEL,
    OMEGA_I,
    I,
    L,
    omega,
    pe_pair,
    rotation_matrix,
)

NAME = "attention"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "For all real p and q, the score of PE(p) against PE(q) through the shift matrix by k₀ is "
    "Σ_i cos((p − q − k₀)ω_i), which peaks exactly at q = p − k₀, whatever p; under the ramp "
    "every bilinear score is monotone in q and cannot peak inside."
)

P = sp.Symbol("p", real=True)
Q = sp.Symbol("q", real=True)
S = sp.Symbol("s", real=True)
K0 = sp.Symbol("k_0", real=True)
N = sp.Symbol("n", integer=True, nonzero=True)
ALPHA, BETA, GAMMA, DELTA = sp.symbols("alpha beta gamma delta", real=True)
PAIRS = (I, 0, D_MODEL / 2 - 1)


def _score(p: sp.Expr, q: sp.Expr, w: sp.Expr) -> sp.MatMul:
    """PE_i(p)ᵀ·R(k₀w)·PE_i(q), kept unevaluated for display."""
    return sp.MatMul(pe_pair(p, w).T, rotation_matrix(K0 * w), pe_pair(q, w), evaluate=False)


def _entry(product: sp.MatMul) -> sp.Expr:
    """The single entry of a 1×1 product of explicit matrices, multiplied out."""
    row, rotation, column = product.args
    return (row * rotation * column)[0, 0]


def offset(p: sp.Expr, q: sp.Expr) -> sp.Expr:
    """p − q − k₀, the argument's factor, kept as written."""
    return sp.Add(p, sp.Mul(-1, q, evaluate=False), -K0, evaluate=False)


def pair_score_derivation() -> Derivation:
    """PE_i(p)ᵀ·R(k₀ω_i)·PE_i(q) = cos((p − q − k₀)ω_i), with i and d_model symbolic."""
    w = omega()
    product = _score(P, Q, w)
    return Derivation(
        "pair_score",
        "One pair: PE_i(p)ᵀ·R(k₀ω_i)·PE_i(q) = cos((p − q − k₀)ω_i)",
        (
            Step(product),
            Step(sp.ImmutableMatrix([[_entry(product)]]), by=MATRIX_PRODUCT),
            Step(
                sp.ImmutableMatrix([[sp.cos((P - Q - K0) * w)]]),
                by=ANGLE_SUBTRACTION,
                note="cos a cos b + sin a sin b = cos(a − b), with a = pω_i, b = (q + k₀)ω_i",
            ),
        ),
        display=((w, OMEGA_I),),
    )


def score_sum_derivation(pair: Derivation) -> Derivation:
    """PE(p)ᵀ·M_{k₀}·PE(q) = Σ_i cos((p − q − k₀)ω_i), d_model symbolic: the pair identity summed."""
    w = omega()
    return Derivation(
        "score_sum",
        "The whole vector: the score is a sum over the pairs",
        (
            Step(sp.Sum(_entry(_score(P, Q, w)), PAIRS)),
            Step(sp.Sum(sp.cos((P - Q - K0) * w), PAIRS), by=Termwise(Lemma(pair))),
        ),
        display=((w, OMEGA_I),),
    )


def shift_invariance_derivation() -> Derivation:
    """Moving query and key together by s leaves the score unchanged: it depends on p − q."""
    w = omega()
    moved = sp.Mul(offset(P + S, Q + S), w, evaluate=False)
    return Derivation(
        "score_shift_invariant",
        "Moving both positions by s changes nothing: the score depends on p − q alone",
        (
            Step(sp.Sum(sp.cos(moved), PAIRS)),
            Step(sp.Sum(sp.cos((P - Q - K0) * w), PAIRS), by=ALGEBRA, note="s cancels"),
        ),
        display=((w, OMEGA_I),),
    )


def peak_pair_derivation() -> Derivation:
    """At q = p − k₀ each pair contributes 1."""
    w = omega()
    product = _score(P, P - K0, w)
    return Derivation(
        "peak_pair",
        "At q = p − k₀ one pair contributes 1",
        (
            Step(product),
            Step(sp.ImmutableMatrix([[_entry(product)]]), by=MATRIX_PRODUCT),
            Step(
                sp.ImmutableMatrix([[1]]),
                by=(ANGLE_SUBTRACTION, PYTHAGOREAN),
                note="split (p − k₀)ω_i; then sin² + cos² = 1",
            ),
        ),
        display=((w, OMEGA_I),),
    )


def peak_sum_derivation(pair: Derivation) -> Derivation:
    """At q = p − k₀ the score is d_model/2."""
    w = omega()
    return Derivation(
        "peak_value",
        "At q = p − k₀ the score is d_model/2",
        (
            Step(sp.Sum(_entry(_score(P, P - K0, w)), PAIRS)),
            Step(sp.Sum(sp.Integer(1), PAIRS), by=Termwise(Lemma(pair))),
            Step(D_MODEL / 2, by=COUNT_TERMS, note="d_model/2 terms"),
        ),
        display=((w, OMEGA_I),),
    )


def term_bound() -> NonNegative:
    """1 − cos((p − q − k₀)ω_i) = 2 sin²((p − q − k₀)ω_i/2) ≥ 0: each term is at most 1."""
    x = (P - Q - K0) * omega()
    return NonNegative(
        "term_at_most_1",
        "Each term is at most 1: 1 − cos x = 2·sin²(x/2) ≥ 0",
        1 - sp.cos(x),
        2 * sp.sin(x / 2) ** 2,
        (COMMON_ANGLE, PYTHAGOREAN),
    )


def ramp(x: sp.Expr) -> sp.Expr:
    """r(x) = x/L."""
    return x / L


def ramp_score(p: sp.Expr, q: sp.Expr) -> sp.Expr:
    """s(p, q) = α·r(p)·r(q) + β·r(p) + γ·r(q) + δ, every bilinear score of (r, 1) and (r, 1)."""
    return ALPHA * ramp(p) * ramp(q) + BETA * ramp(p) + GAMMA * ramp(q) + DELTA


def ramp_difference(q: sp.Expr) -> sp.Expr:
    """s(p, q + 1) − s(p, q), written out and kept as written."""
    return sp.Add(ramp_score(P, q + 1), sp.Mul(-1, ramp_score(P, q)), evaluate=False)


RAMP_STEP = (ALPHA * P + GAMMA * L) / L**2


def ramp_difference_derivation() -> Derivation:
    """s(p, q + 1) − s(p, q) = (αp + γL)/L², the same at every q."""
    return Derivation(
        "ramp_difference",
        "Under the ramp the score's step in q is the same at every q",
        (
            Step(ramp_difference(Q)),
            Step(RAMP_STEP, by=ALGEBRA, note="multiply out: the terms in q cancel"),
        ),
    )


def build(d_model: int = 8) -> Theorem:
    """The attention theorem (d_model is the twin's: the statement holds for every d_model)."""
    pair = pair_score_derivation()
    peak = peak_pair_derivation()
    return Theorem(
        name=NAME,
        title="A learned score can look a fixed distance back under the sinusoids, never under the ramp",
        statement=STATEMENT,
        formulas=(
            sp.Eq(
                _score(P, Q, OMEGA_I),
                sp.ImmutableMatrix([[sp.cos((P - Q - K0) * OMEGA_I)]]),
                evaluate=False,
            ),
            sp.Eq(ramp_difference(Q), RAMP_STEP, evaluate=False),
        ),
        parts=(
            pair,
            score_sum_derivation(pair),
            shift_invariance_derivation(),
            term_bound(),
            peak,
            peak_sum_derivation(peak),
            NonZero(
                "first_term_below_1",
                "At an integer offset n = p − q − k₀ ≠ 0 the first term (ω_0 = 1) is below 1: "
                "cos n − 1 ≠ 0",
                sp.cos(N) - 1,
            ),
            ramp_difference_derivation(),
            FreeOf(
                "ramp_step_free_of_q",
                "The ramp's step (αp + γL)/L² does not contain q",
                RAMP_STEP,
                (Q,),
            ),
            NonNegative(
                "ramp_no_turn",
                "The steps before and after any q have the same sign: their product is a square",
                sp.Mul(ramp_difference(Q - 1), ramp_difference(Q), evaluate=False),
                RAMP_STEP**2,
                ALGEBRA,
            ),
        ),
        twin="numeric.checks.attention.attention_table",
        twin_kwargs={"d_model": d_model},
        remarks=(
            "Attention scores projected vectors, (x + PE)ᵀ·W_Qᵀ·W_K·(x + PE); the theorem is "
            "about the positional part with A = W_Qᵀ·W_K. A general A does not give an "
            "offset-only score: M_{k₀} is one choice a head can learn.",
            "Adding the d_model/2 termwise bounds is the one step left to ordinary arithmetic: the "
            "equality engine checks each term's bound, not the sum of inequalities.",
            "Adding the d_model/2 termwise bounds into a bound on the sum is ordinary "
            "arithmetic of inequalities, which the equality engine does not state as a step.",
        ),
        brief=True,
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
