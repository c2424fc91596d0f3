"""Theorem (rope): rotating query and key by their positions leaves a score that depends only on m − p.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves.

Numeric twin: numeric.checks.rope.rope_table.
"""

from __future__ import annotations

import functools

import sympy as sp

from proofs.engine.blocks import BlockEquation, BlockVector, Inner, Label, Product, consecutive
from proofs.engine.citation import Lemma
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import Blockwise, FreeOf
from proofs.engine.rules import ALGEBRA, ANGLE_SUBTRACTION, MATRIX_PRODUCT
from proofs.engine.theorem import Theorem
from proofs.theorems.sinusoidal.definitions import I, omega, pairs, rotation_matrix, shift_blocks

NAME = "rope"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "For all real q, κ, θ, p, m: ⟨R(pθ)q, R(mθ)κ⟩ = ⟨q, R((m − p)θ)κ⟩, so the score depends on "
    "p and m only through m − p; the same holds blockwise for whole vectors."
)

P = sp.Symbol("p", real=True)
M = sp.Symbol("m", real=True)
S = sp.Symbol("s", real=True)
DELTA = sp.Symbol("delta", real=True)
THETA = sp.Symbol("theta", real=True)
Q1, Q2 = sp.symbols("q_1 q_2", real=True)
# The key vector; named apart from the offset symbol k of proofs.theorems.sinusoidal.definitions.
KV1, KV2 = sp.symbols("kappa_1 kappa_2", real=True)
QUERY = sp.ImmutableMatrix([Q1, Q2])
KEY = sp.ImmutableMatrix([KV1, KV2])


def score_form(p: sp.Expr, m: sp.Expr) -> sp.MatMul:
    """(R(pθ)q)ᵀ·(R(mθ)κ), kept as a product for display."""
    return sp.MatMul(
        sp.Transpose(sp.MatMul(rotation_matrix(p * THETA), QUERY, evaluate=False)),
        sp.MatMul(rotation_matrix(m * THETA), KEY, evaluate=False),
        evaluate=False,
    )


def relative_form(offset: sp.Expr) -> sp.MatMul:
    """qᵀ·R(offset·θ)·k, kept as a product for display."""
    return sp.MatMul(QUERY.T, rotation_matrix(offset * THETA), KEY, evaluate=False)


def pair_derivation() -> Derivation:
    """⟨R(pθ)q, R(mθ)κ⟩ = ⟨q, R((m − p)θ)κ⟩ for one pair."""
    cp, sp_, cm, sm = sp.cos(P * THETA), sp.sin(P * THETA), sp.cos(M * THETA), sp.sin(M * THETA)
    c, s = sp.cos((M - P) * THETA), sp.sin((M - P) * THETA)
    expanded = (Q1 * cp + Q2 * sp_) * (KV1 * cm + KV2 * sm) + (-Q1 * sp_ + Q2 * cp) * (
        -KV1 * sm + KV2 * cm
    )
    grouped = sp.Add(
        Q1 * KV1 * (cp * cm + sp_ * sm),
        Q1 * KV2 * (cp * sm - sp_ * cm),
        Q2 * KV1 * (sp_ * cm - cp * sm),
        Q2 * KV2 * (sp_ * sm + cp * cm),
        evaluate=False,
    )
    subtracted = sp.Add(Q1 * KV1 * c, Q1 * KV2 * s, -Q2 * KV1 * s, Q2 * KV2 * c, evaluate=False)
    return Derivation(
        "pair_relative",
        "One pair: ⟨R(pθ)q, R(mθ)κ⟩ = ⟨q, R((m − p)θ)κ⟩",
        (
            Step(score_form(P, M)),
            Step(
                sp.ImmutableMatrix([[expanded]]),
                by=MATRIX_PRODUCT,
                note="the inner product of the two rotated vectors",
            ),
            Step(sp.ImmutableMatrix([[grouped]]), by=ALGEBRA, note="regroup by q_a·κ_b"),
            Step(
                sp.ImmutableMatrix([[subtracted]]),
                by=ANGLE_SUBTRACTION,
                note="cos a cos b + sin a sin b = cos(b − a), cos a sin b − sin a cos b = sin(b − a)",
            ),
            Step(relative_form(M - P), by=MATRIX_PRODUCT, note="read back as qᵀ·R((m − p)θ)·κ"),
        ),
    )


def translation_derivation(pair: Derivation) -> Derivation:
    """Moving query and key by the same s leaves the score unchanged."""
    return Derivation(
        "translation_invariant",
        "Shifting both positions by s changes nothing: score(p + s, m + s) = score(p, m)",
        (
            Step(score_form(P + S, M + S)),
            Step(
                relative_form(M - P),
                by=Lemma(pair, {P: P + S, M: M + S}),
                note="(m + s) − (p + s) = m − p",
            ),
            Step(score_form(P, M), by=Lemma(pair), note="read backwards"),
        ),
    )


def offset_derivation(pair: Derivation) -> Derivation:
    """Writing m = p + δ, the score is a function of δ alone."""
    return Derivation(
        "offset_only",
        "Write m = p + δ: the score becomes ⟨q, R(δθ)κ⟩",
        (
            Step(score_form(P, P + DELTA)),
            Step(relative_form(DELTA), by=Lemma(pair, {M: P + DELTA}), note="(p + δ) − p = δ"),
        ),
    )


# Whole query and key vectors q, k in R^d_model (1-based components, as q_1, q_2 above).
Q_VEC = sp.IndexedBase("q", real=True)
K_VEC = sp.IndexedBase("kappa", real=True)


def _pairs_of(vector: sp.IndexedBase, d_model: int) -> BlockVector:
    """Components 2i+1, 2i+2 of a symbolic vector, as pair i."""
    piece = sp.ImmutableMatrix([vector[2 * I + 1], vector[2 * I + 2]])
    name = vector.label.name
    label = Label(f"{name}_(" + "{i})", f"{name}_{{(" + "{i})}")
    return BlockVector(pairs(piece, d_model), consecutive(d_model), d_model, label)


def vector_fact(d_model: int, lemma: Derivation | None = None) -> Blockwise:
    """⟨M_p q, M_m κ⟩ = ⟨q, M_(m−p) κ⟩ for a concrete d_model: pair i is the pair identity at θ = ω_i."""
    q, kv = _pairs_of(Q_VEC, d_model), _pairs_of(K_VEC, d_model)
    m = functools.partial(shift_blocks, d_model=d_model)
    d = sp.Integer(d_model)

    def bindings(i: sp.Expr) -> dict[sp.Symbol, sp.Expr]:
        return {
            THETA: omega(i, d),
            Q1: Q_VEC[2 * i + 1],
            Q2: Q_VEC[2 * i + 2],
            KV1: K_VEC[2 * i + 1],
            KV2: K_VEC[2 * i + 2],
        }

    return Blockwise(
        "vector_relative",
        f"Whole vectors, d_model = {d_model}, θ_i = ω_i: ⟨M_p q, M_m κ⟩ = ⟨q, M_(m−p) κ⟩, "
        "a sum over the pairs of the pair identity",
        BlockEquation(
            Inner(Product((m(P), q)), Product((m(M), kv))), Inner(q, Product((m(M - P), kv)))
        ),
        lemma or pair_derivation(),
        bindings,
    )


def build(d_model: int = 8) -> Theorem:
    """The RoPE theorem; d_model sets the size of the whole-vector statement."""
    pair = pair_derivation()
    return Theorem(
        name=NAME,
        title="RoPE: rotated query–key scores depend only on the offset",
        statement=STATEMENT,
        formulas=(sp.Eq(score_form(P, M), relative_form(M - P), evaluate=False),),
        parts=(
            pair,
            translation_derivation(pair),
            offset_derivation(pair),
            FreeOf(
                "score_free_of_positions",
                "With m = p + δ the score ⟨q, R(δθ)κ⟩ does not contain p (nor m): it is a function of the offset",
                sp.ImmutableMatrix(relative_form(DELTA).doit()),
                (P, M),
            ),
            vector_fact(d_model, pair),
        ),
        twin="numeric.checks.rope.rope_table",
        twin_kwargs={"d_model": d_model},
        remarks=(
            "With R(θ) = [[cos θ, sin θ], [−sin θ, cos θ]] the relative rotation is R((m − p)θ), key "
            "position minus query position; R(a)ᵀR(b) = R(b − a) holds for either sign convention of R.",
            "Positions need not be integers: the identity holds for all real p, m and θ.",
        ),
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
