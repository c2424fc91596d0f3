"""The rules about sums: count the terms of a constant sum (exact), and SymPy's closed forms
(Sum.doit, which can be wrong: a zero it reaches needs the certified confirmation)."""

from __future__ import annotations

import sympy as sp

from proofs.engine.rules.rule import CoqPlan, Diagnosis, LastResort, Round, Rule, bottom_up

# A Sum with more terms than this is never written out term by term (SymPy would loop over all
# 10**12 terms of Sum(f(i), (i, 1, 10**12)) in Python).
MAX_DIRECT_TERMS = 10_000


def count_terms(expr: sp.Basic) -> sp.Basic:
    """Σ_{i=a}^{b} c = c·(b − a + 1) for a summand c free of i (SymPy's convention for b < a − 1
    is kept: the formula is the one it uses).

    >>> i, n = sp.Symbol("i", integer=True), sp.Symbol("n", integer=True, positive=True)
    >>> count_terms(sp.Sum(3, (i, 0, n - 1)))
    3*n
    """

    def at(e: sp.Basic) -> sp.Basic:
        if isinstance(e, sp.Sum) and len(e.limits) == 1:
            index, low, high = e.limits[0]
            if not e.function.has(index):
                return e.function * (high - low + 1)
        return e

    return bottom_up(expr, at)


def summable(summand: sp.Expr, limits: tuple) -> bool:
    """Whether Sum.doit may finish quickly: at most MAX_DIRECT_TERMS numeric terms, or symbolic
    bounds with a summand polynomial or hypergeometric in each index (Σ 1 = n, Σ i = n(n − 1)/2,
    Σ 2^i = 2^n − 1). Other closed forms are not tried: for Σ cos(k·10000^(−2i/d)) SymPy
    searches for 25 s.
    """
    count = 1
    for _, low, high in limits:
        span = high - low
        if not span.is_Integer:
            return all(
                summand.is_polynomial(index) or summand.is_hypergeometric(index)
                for index, _, _ in limits
            )
        count *= max(int(span) + 1, 0)
    return count <= MAX_DIRECT_TERMS


def closed_form(expr: sp.Basic) -> sp.Basic:
    """Each Sum replaced by the closed form SymPy's Sum.doit finds, where it is quick. doit can
    be wrong (Σ_j binomial(n, j)·(n − j)! = e·n! in SymPy 1.14): an uncertified rule.

    >>> i, n = sp.Symbol("i", integer=True), sp.Symbol("n", integer=True, positive=True)
    >>> closed_form(sp.Sum(i, (i, 0, n - 1)))
    n**2/2 - n/2
    """

    def at(e: sp.Basic) -> sp.Basic:
        if isinstance(e, sp.Sum) and summable(e.function, e.limits):
            return e.doit()
        return e

    return bottom_up(expr, at)


COUNT_TERMS = Rule(
    "count_terms",
    "count the terms",
    count_terms,
    search=Round(1, 40),
    diagnosis=Diagnosis(alone=40),
    coq="rewrite sum_cte, ?mult_INR, ?S_INR; cbn [INR]",
    coq_plan=CoqPlan.SUM_TERMS,
)
CLOSED_FORM = Rule(
    "closed_form",
    "SymPy's closed form of the sum",
    closed_form,
    exact=False,
    search=LastResort(10, then_exact=True),
)
