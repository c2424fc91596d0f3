"""Σ_j |S_j| at a point in Coq (proofs.engine.coq.partial_sums): the Σs it recognises, bounds
that hold the value flint computes on its own, and no proof where the bounds do not decide."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp
from flint import arb, ctx

from proofs.engine.coq.facts import refutation
from proofs.engine.coq.partial_sums import bound, linear_range, partial_abs_sums
from proofs.engine.coq.printer import Printer
from proofs.engine.coq.script import NoProofError
from proofs.engine.facts import Refutation
from proofs.theorems.rope import decay


def _average_by_flint(r: int, d: int = 128, base: int = 10000) -> arb:
    """(2/d)·Σ_j |S_j(r)|, summed here term by term at 200 bits."""
    old, ctx.prec = ctx.prec, 200
    try:
        re = im = total = arb(0)
        for k in range(d // 2):
            angle = r * arb(base) ** (arb(-2 * k) / d)
            re, im = re + angle.cos(), im + angle.sin()
            total += (re * re + im * im).sqrt()
        return 2 * total / d
    finally:
        ctx.prec = old


def test_the_average_is_one_sum_of_lengths_of_partial_sums() -> None:
    (total,) = partial_abs_sums(decay.average(sp.Integer(1000)))
    assert total.limits[0][1:] == (1, 64)
    # A Σ of squares of Σs that are not partial sums up to j is not one.
    k, j = sp.symbols("k j", integer=True, nonnegative=True)
    whole = sp.Sum(sp.sqrt(sp.Sum(sp.cos(k), (k, 0, 63)) ** 2 + 1), (j, 1, 64))
    assert partial_abs_sums(whole) == []


@pytest.mark.parametrize("r", [18, 1000])
def test_the_bound_holds_the_value_and_is_narrow(r: int) -> None:
    (total,) = partial_abs_sums(decay.average(sp.Integer(r)))
    found = bound(total, {}, Printer())
    value = _average_by_flint(r) * 64
    low, high = (arb(x.numerator) / x.denominator for x in (found.low, found.high))
    assert low < value < high
    assert found.high - found.low < Fraction(1, 1000)
    assert found.assertion("B").startswith(f"assert (B : {float(found.low):.3f}"[:16])
    assert "partial_sums_abs_bounds" in found.proof


def test_the_range_of_a_difference_of_bounded_sums() -> None:
    sums = partial_abs_sums(decay.decay_claim())
    point = {decay.DISTANCE: sp.Integer(18), decay.FURTHER: sp.Integer(1)}
    bounds = {s: bound(s, point, Printer()) for s in sums}
    later, now = decay.decay_claim().args
    least, most = linear_range(later - now, bounds, point)
    # f(19) − f(18) ≈ 0.0421 (flint).
    gap = _average_by_flint(19) - _average_by_flint(18)
    assert least < float(gap.mid()) < most and least > 0


def test_a_claim_the_point_does_not_break_gets_no_proof() -> None:
    # f(r + t) >= f(r) holds at r = 18, t = 1: the bounds cannot contradict it there.
    later, now = decay.decay_claim().args
    claim = sp.Ge(later, now, evaluate=False)
    fact = Refutation(
        "decay_falls_at_18",
        "f does not rise",
        claim,
        ((decay.DISTANCE, sp.Integer(18)), (decay.FURTHER, sp.Integer(1))),
    )
    with pytest.raises(NoProofError, match="too wide to contradict"):
        refutation("decay_falls_at_18", fact)
