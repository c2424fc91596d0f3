"""Refutation facts: proved only when the counterexample's difference is certified on the side
that breaks the claim; a true claim, a point outside the claim's domain or a difference on the
wrong side never comes back proved."""

from __future__ import annotations

import pytest
import sympy as sp

from proofs.engine.facts import Refutation

X = sp.Symbol("x", real=True)
S = sp.Symbol("s", positive=True)
N = sp.Symbol("n", integer=True, positive=True)


def refute(claim: sp.Rel, *at: tuple[sp.Symbol, int | sp.Rational]) -> str:
    point = tuple((s, sp.Rational(v)) for s, v in at)
    return Refutation("r", "claim", claim, point).verify().status


def test_a_false_equality_is_refuted_as_claimed() -> None:
    assert refute(sp.Eq(sp.sin(2 * X), 2 * sp.sin(X), evaluate=False), (X, 1)) == "proved"


def test_a_difference_of_one_part_in_10_to_12_is_certified() -> None:
    # e^(π√163) misses this integer by 7.5e-13.
    claim = sp.Eq(sp.exp(sp.pi * sp.sqrt(163)), sp.Integer(262537412640768744), evaluate=False)
    assert refute(claim) == "proved"


def test_a_true_claim_is_never_refuted() -> None:
    assert refute(sp.Eq(sp.sin(X) ** 2 + sp.cos(X) ** 2, 1, evaluate=False), (X, 2)) == "undecided"
    assert refute(sp.Le(sp.log(S), S - 1, evaluate=False), (S, 2)) == "undecided"


@pytest.mark.parametrize(
    ("claim", "broken"),
    [
        (sp.Ge(sp.log(S), S - 1, evaluate=False), True),
        (sp.Gt(sp.log(S), S - 1, evaluate=False), True),
        (sp.Le(S - 1, sp.log(S), evaluate=False), True),
        (sp.Lt(S - 1, sp.log(S), evaluate=False), True),
        (sp.Le(sp.log(S), S - 1, evaluate=False), False),
        (sp.Gt(S - 1, sp.log(S), evaluate=False), False),
    ],
)
def test_an_inequality_is_refuted_only_on_the_side_it_forbids(claim, broken) -> None:
    assert (refute(claim, (S, 2)) == "proved") is broken


def test_a_point_outside_the_claims_domain_proves_nothing() -> None:
    fact = Refutation("r", "c", sp.Ge(sp.log(S**2), 1, evaluate=False), ((S, sp.Integer(-1)),))
    verdict = fact.verify()
    assert verdict.status == "undecided" and "positive=True" in verdict.reason
    half = Refutation("r", "c", sp.Eq(sp.cos(N), 1, evaluate=False), ((N, sp.Rational(1, 2)),))
    assert half.verify().status == "undecided"


def test_one_by_one_matrices_are_compared_by_their_entry() -> None:
    q = sp.ImmutableMatrix([X, 1])
    claim = sp.Eq(sp.MatMul(q.T, q, evaluate=False), sp.ImmutableMatrix([[X**2]]), evaluate=False)
    assert refute(claim, (X, 3)) == "proved"


def test_a_malformed_refutation_says_what_is_wrong() -> None:
    claim = sp.Eq(sp.sin(X), 0, evaluate=False)
    with pytest.raises(ValueError, match=r"must give each of \[x\] one value"):
        Refutation("r", "c", claim, ())
    with pytest.raises(TypeError, match="is not an exact Rational"):
        Refutation("r", "c", claim, ((X, sp.pi),))
    with pytest.raises(TypeError, match="must be Eq, Ge, Gt, Le or Lt"):
        Refutation("r", "c", sp.Ne(sp.sin(X), 0), ((X, sp.Integer(1)),))
