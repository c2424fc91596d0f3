"""Theorem (rope_xpos): xPos's scores are exactly relative, and its key scale leaves float16.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves.

Numeric twin: numeric.checks.rope_xpos.rope_xpos_table.

xPos (Sun et al. 2022, arXiv 2212.10554) multiplies pair i of the rotated query at m by
ζ_i^(m/γ) and of the rotated key at n by ζ_i^(−n/γ). rotary-embedding-torch (`use_xpos`) takes
ζ_i = (2i + 0.4·d)/(1.4·d), so ζ_0 = 2/7 for every head width, γ = `xpos_scale_base` = 512, and
measures positions from the middle of the sequence (power (t − L//2)/γ), which changes no
score: only m − n enters.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import FreeOf, Refutation
from proofs.engine.rules import ALGEBRA, ANGLE_SUBTRACTION, MATRIX_PRODUCT, POWER_LAWS
from proofs.engine.theorem import Theorem
from proofs.theorems.rope.definitions import (
    K1,
    K2,
    KEY,
    Q1,
    Q2,
    QUERY,
    THETA,
    M,
    N,
    interval_fact,
    rope_rotation,
)

NAME = "rope_xpos"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "With ξ = ζ^(1/γ): ⟨ξ^m·G(mθ)q, ξ^(−n)·G(nθ)κ⟩ = ξ^(m − n)·⟨q, G((n − m)θ)κ⟩ for all real "
    "m, n and ξ > 0, so xPos is exactly relative (scaling both sides by ξ^pos is not); with "
    "ζ_0 = 2/7 and γ = 512 (rotary-embedding-torch) the key scale (7/2)^(u/512) is below "
    "fp16's largest value 65504 at u = 4532 and rounds to infinity (≥ 65520) from u = 4533."
)

# ξ = ζ^(1/γ): the score's symbols are ξ and the positions (ζ^(m/γ) = ξ^m for ζ, γ > 0).
XI = sp.Symbol("xi", positive=True)
S = sp.Symbol("s", real=True)
DELTA = sp.Symbol("delta", real=True)
# rotary-embedding-torch: scale = (arange(0, d, 2) + 0.4·d)/(1.4·d), pair 0 the smallest ζ.
ZETA_0 = sp.Rational(2, 7)
SCALE_BASE = sp.Integer(512)
# float16: the largest finite value, and the value from which round-to-nearest gives infinity
# (65504 plus half its spacing 32).
FP16_MAX, FP16_OVERFLOW = sp.Integer(65504), sp.Integer(65520)
LAST_FINITE = 4532


def _mul(*factors: sp.Expr) -> sp.Expr:
    return sp.Mul(*factors, evaluate=False)


def scale(position: sp.Expr, sign: int = 1) -> sp.Expr:
    """ξ^(sign·position), unevaluated (−position kept as −1·position, so that a position
    substituted later stays one term, as in the lemma's instance)."""
    exponent = position if sign == 1 else sp.Mul(-1, position, evaluate=False)
    return sp.Pow(XI, exponent, evaluate=False)


def xpos_score(m: sp.Expr, n: sp.Expr, key_sign: int = -1) -> sp.MatMul:
    """(ξ^m·G(mθ)q)ᵀ·(ξ^(key_sign·n)·G(nθ)κ): xPos with key_sign −1; kept as a product."""
    return sp.MatMul(
        sp.Transpose(sp.MatMul(scale(m), rope_rotation(m * THETA), QUERY, evaluate=False)),
        sp.MatMul(scale(n, key_sign), rope_rotation(n * THETA), KEY, evaluate=False),
        evaluate=False,
    )


def xpos_relative_form(m: sp.Expr, n: sp.Expr) -> sp.MatMul:
    """ξ^(m − n)·qᵀ·G((n − m)θ)·κ."""
    return sp.MatMul(
        sp.Pow(XI, m - n, evaluate=False),
        QUERY.T,
        rope_rotation((n - m) * THETA),
        KEY,
        evaluate=False,
    )


def _scalar(expr: sp.Expr) -> sp.ImmutableMatrix:
    return sp.ImmutableMatrix([[expr]])


def xpos_relative_derivation() -> Derivation:
    """⟨ξ^m·G(mθ)q, ξ^(−n)·G(nθ)κ⟩ = ξ^(m − n)·⟨q, G((n − m)θ)κ⟩ for one pair."""
    cm, sm, cn, sn = sp.cos(M * THETA), sp.sin(M * THETA), sp.cos(N * THETA), sp.sin(N * THETA)
    c, s = sp.cos((N - M) * THETA), sp.sin((N - M) * THETA)
    expanded = (Q1 * cm - Q2 * sm) * (K1 * cn - K2 * sn) + (Q1 * sm + Q2 * cm) * (K1 * sn + K2 * cn)
    grouped = sp.Add(
        Q1 * K1 * (cn * cm + sn * sm),
        -Q1 * K2 * (sn * cm - cn * sm),
        Q2 * K1 * (sn * cm - cn * sm),
        Q2 * K2 * (cn * cm + sn * sm),
        evaluate=False,
    )
    subtracted = sp.Add(Q1 * K1 * c, -Q1 * K2 * s, Q2 * K1 * s, Q2 * K2 * c, evaluate=False)
    combined = sp.Pow(XI, M - N, evaluate=False)
    return Derivation(
        "xpos_relative",
        "One pair, ξ = ζ^(1/γ): ⟨ξ^m·G(mθ)q, ξ^(−n)·G(nθ)κ⟩ = ξ^(m − n)·⟨q, G((n − m)θ)κ⟩",
        (
            Step(xpos_score(M, N)),
            Step(
                _scalar(_mul(scale(M), scale(N, -1), expanded)),
                by=MATRIX_PRODUCT,
                note="the scales come out of the product",
            ),
            Step(
                _scalar(_mul(combined, expanded)),
                by=POWER_LAWS,
                note="ξ^m·ξ^(−n) = ξ^(m − n)",
            ),
            Step(_scalar(_mul(combined, grouped)), by=ALGEBRA, note="regroup by q_a·κ_b"),
            Step(
                _scalar(_mul(combined, subtracted)),
                by=ANGLE_SUBTRACTION,
                note="the angles subtract to (n − m)θ",
            ),
            Step(xpos_relative_form(M, N), by=MATRIX_PRODUCT, note="read back as a product"),
        ),
    )


def offset_fact() -> FreeOf:
    """With n = m + δ the xPos score ξ^(−δ)·⟨q, G(δθ)κ⟩ does not contain m (nor n)."""
    return FreeOf(
        "score_free_of_positions",
        "With n = m + δ the score ξ^(−δ)·⟨q, G(δθ)κ⟩ contains neither position: it is a "
        "function of the offset (rotary-embedding-torch's positions, counted from the "
        "sequence's middle, give the same scores)",
        sp.ImmutableMatrix(xpos_relative_form(M, M + DELTA).doit()),
        (M, N),
    )


def same_sign_refuted() -> Refutation:
    """Scaling the key by ξ^(+n), as the query, is not relative."""
    same = xpos_score(M, N, key_sign=1)
    one, zero = sp.Integer(1), sp.Integer(0)
    return Refutation(
        "same_sign_scale_is_relative",
        "Scaling the key by ξ^n, the query's sign, keeps the score relative: score(m + s, "
        "n + s) = score(m, n) (at q = κ = e_1, θ = 1, ξ = 1/2, m = n = 0, s = 1: 1/4 against 1)",
        sp.Eq(
            same.subs({M: M + S, N: N + S}, simultaneous=True),
            same,
            evaluate=False,
        ),
        (
            (Q1, one),
            (Q2, zero),
            (K1, one),
            (K2, zero),
            (THETA, one),
            (XI, sp.Rational(1, 2)),
            (M, zero),
            (N, zero),
            (S, one),
        ),
    )


def key_scale(u: int) -> sp.Expr:
    """ζ_0^(−u/γ) = (7/2)^(u/512): pair 0's key scale at power u = n − L//2."""
    return sp.Pow(1 / ZETA_0, sp.Rational(u, int(SCALE_BASE)), evaluate=False)


def overflow_facts() -> tuple:
    last, first = key_scale(LAST_FINITE), key_scale(LAST_FINITE + 1)
    return (
        interval_fact(
            "key_scale_finite_at_4532",
            "Certified: pair 0's key scale at u = 4532, (7/2)^(4532/512) = 65441.4…, lies in "
            "[65000, 65504]: the largest fp16 value is not passed",
            last,
            sp.Integer(65000),
            FP16_MAX,
        ),
        interval_fact(
            "key_scale_overflows_at_4533",
            "Certified: at u = 4533, (7/2)^(4533/512) = 65601.7… lies in [65520, 66000]: fp16 "
            "rounds it to infinity, and the score of that key is inf or nan",
            first,
            FP16_OVERFLOW,
            sp.Integer(66000),
        ),
    )


def build(d_model: int = 8) -> Theorem:
    """The xPos theorem (d_model is unused: the parts are about one pair and numbers)."""
    del d_model
    relative = xpos_relative_derivation()
    return Theorem(
        name=NAME,
        title="xPos: exactly relative, and where its key scale overflows float16",
        statement=STATEMENT,
        formulas=(sp.Eq(xpos_score(M, N), xpos_relative_form(M, N), evaluate=False),),
        parts=(
            relative,
            offset_fact(),
            same_sign_refuted(),
            *overflow_facts(),
        ),
        twin="numeric.checks.rope_xpos.rope_xpos_table",
        remarks=(
            "The pair identity holds for every ξ > 0, so for every pair's ζ_i and every γ > 0 "
            "(ξ = ζ_i^(1/γ)); the score's factor ξ^(m − n) decays with the distance when ζ < 1, "
            "xPos's point.",
            "u ↦ (7/2)^(u/512) is increasing, so the key scale of pair 0 is finite in fp16 for "
            "every u ≤ 4532 and infinite for every u ≥ 4533; the other pairs have larger ζ_i, "
            "so smaller key scales. rotary-embedding-torch takes u = n − L//2 for a key at n in "
            "a sequence of length L, so its last key (n = L − 1) overflows from L = 9067 on, "
            "and the first query (u = −L//2) gets the same factor.",
            "The library's own path computes ζ^(u/γ) in float32, casts it to float16 (a "
            "subnormal there from u = 3967 on) and inverts it in float16; rounded that way the "
            "key scale is already infinite at u = 4532, which the numeric twin measures.",
        ),
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
