"""Theorem (similarity): what attention compares. PE(p)·PE(p+k) depends on k alone; the ramp's
product r(p)·r(p+k) = p(p+k)/L² depends on p.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves.

Numeric twin: numeric.checks.similarity.similarity_table.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.citation import Lemma, Termwise
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import FreeOf, NonZero
from proofs.engine.rules import ALGEBRA, ANGLE_ADDITION, MATRIX_PRODUCT, PYTHAGOREAN
from proofs.engine.theorem import Theorem
from proofs.theorems.sinusoidal.definitions import D_MODEL, OMEGA_I, I, K, L, omega, pe_pair

NAME = "similarity"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "For all real p and k and every d_model, PE(p)·PE(p + k) = Σ_i cos(kω_i) does not "
    "depend on p, while r(p)·r(p + k) = p(p + k)/L² does: its second difference in p "
    "is 2/L² ≠ 0."
)

P = sp.Symbol("p", real=True)
PAIRS = (I, 0, D_MODEL / 2 - 1)


def ramp(p: sp.Expr) -> sp.Expr:
    """r(p) = p/L."""
    return p / L


def ramp_product(p: sp.Expr) -> sp.Expr:
    """s(p) = r(p)·r(p + k), the ramp's similarity of p and p + k."""
    return ramp(p) * ramp(p + K)


def ramp_product_derivation() -> Derivation:
    """r(p)·r(p + k) = p(p + k)/L²."""
    return Derivation(
        "ramp_similarity",
        "The ramp's similarity of p and p + k",
        (
            Step(sp.Mul(ramp(P), ramp(P + K), evaluate=False)),
            Step(P * (P + K) / L**2, by=ALGEBRA, note="multiply the fractions"),
        ),
    )


def second_difference_derivation() -> Derivation:
    """s(p + 1) − 2s(p) + s(p − 1) = 2/L²."""
    second = sp.Add(
        ramp_product(P + 1), sp.Mul(-2, ramp_product(P)), ramp_product(P - 1), evaluate=False
    )
    return Derivation(
        "ramp_second_difference",
        "Its second difference in p",
        (
            Step(second),
            Step(2 / L**2, by=ALGEBRA, note="multiply out: the terms in p and k cancel"),
        ),
    )


def pair_similarity_derivation() -> Derivation:
    """PE_i(p)·PE_i(p + k) = cos(k·ω_i)."""
    w = omega()
    a, b = pe_pair(P, w), pe_pair(P + K, w)
    return Derivation(
        "pair_similarity",
        "The sinusoidal similarity of p and p + k, one pair",
        (
            Step(sp.MatMul(a.T, b, evaluate=False)),
            Step(sp.ImmutableMatrix([[(a.T * b)[0]]]), by=MATRIX_PRODUCT),
            Step(
                sp.ImmutableMatrix([[sp.cos(K * w)]]),
                by=(ANGLE_ADDITION, PYTHAGOREAN),
                note="split (p + k)ω_i; then sin² + cos² = 1",
            ),
        ),
        display=((w, OMEGA_I),),
    )


def vector_similarity_derivation(pair: Derivation) -> Derivation:
    """PE(p)·PE(p + k) = Σ_i cos(k·ω_i), d_model symbolic: the pair identity, term by term."""
    w = omega()
    a, b = pe_pair(P, w), pe_pair(P + K, w)
    return Derivation(
        "dot_sum",
        "The whole vector: sum over the pairs",
        (
            Step(sp.Sum((a.T * b)[0], PAIRS)),
            Step(sp.Sum(sp.cos(K * w), PAIRS), by=Termwise(Lemma(pair))),
        ),
        display=((w, OMEGA_I),),
    )


def build(d_model: int = 8) -> Theorem:
    """The similarity theorem (d_model is unused: the statement holds for every d_model)."""
    pair = pair_similarity_derivation()
    return Theorem(
        name=NAME,
        title="Similarity sees the offset under the sinusoids, the position under the ramp",
        statement=STATEMENT,
        formulas=(
            sp.Eq(
                sp.MatMul(pe_pair(P, OMEGA_I).T, pe_pair(P + K, OMEGA_I), evaluate=False),
                sp.ImmutableMatrix([[sp.cos(K * OMEGA_I)]]),
                evaluate=False,
            ),
            sp.Eq(sp.Mul(ramp(P), ramp(P + K), evaluate=False), P * (P + K) / L**2, evaluate=False),
        ),
        parts=(
            pair,
            vector_similarity_derivation(pair),
            FreeOf(
                "dot_sum_free_of_p",
                "Σ_i cos(kω_i) does not contain p",
                sp.Sum(sp.cos(K * omega()), PAIRS),
                (P,),
            ),
            ramp_product_derivation(),
            second_difference_derivation(),
            NonZero(
                "second_difference_nonzero",
                "The second difference 2/L² is nonzero, as L > 0",
                2 / L**2,
            ),
        ),
        twin="numeric.checks.similarity.similarity_table",
        twin_kwargs={"d_model": d_model},
        remarks=(
            "A function of k alone has second difference 0 in p; the ramp's product has 2/L² "
            "at every p, so no choice of k makes it independent of p.",
        ),
        brief=True,
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
