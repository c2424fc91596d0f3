"""Issue 20: the numeric check decides the difference itself, by an absolute bound.

A large term common to both sides must not hide a wrong step: 10**400 added to both sides of
x*acosh(1 + 10**-20) = 0 once made the old relative test (2**-160 of max(|lhs|, |rhs|, 1))
blind to the 1.4e-10 difference. Now the terms common to both sides cancel exactly, and agreement
at p bits means the ball of lhs - rhs lies within 2**-(p/2 + 32) of 0, whatever the size of the
sides. Every scale from 10**-400 to 10**400, added to either side, written as one number or
hidden in C*sin(x)**2 + C*cos(x)**2: false claims are refuted, true ones stay proved.
"""

from __future__ import annotations

import pytest
import sympy as sp
from flint import arb

from proofs.engine.balls import agreement_bound, agreement_exponent
from proofs.engine.certified import certify_difference
from proofs.engine.derivation import check_link, prove_identity
from proofs.engine.pointwise import MAX_BITS, START_BITS, check_numeric
from proofs.engine.unevaluated import carried_out, difference

x = sp.Symbol("x", real=True)
y = sp.Symbol("y", real=True)
z = sp.Symbol("z")
n = sp.Symbol("n", integer=True, positive=True)
j = sp.Symbol("j", integer=True)
Q = 1 + sp.Rational(1, 10**20)  # acosh(Q) is about 1.4e-10; SymPy's is_zero says it is 0
U = {"evaluate": False}

FALSE = {
    "acosh-times-x": (x * sp.acosh(Q), sp.Integer(0)),
    "exp-of-acosh": (sp.Mul(x, sp.exp(sp.acosh(Q), **U), **U), x),
    # SymPy 1.14's Sum.doit answers E*n!; the sum is n!*(1 + 1/1! + ... + 1/n!) < e*n!
    "binomial-sum": (
        sp.Sum(sp.binomial(n, j) * sp.factorial(n - j), (j, 0, n)),
        sp.E * sp.factorial(n),
    ),
    "tiny-slope": (x * (1 + sp.Rational(1, 10**60)), x),
}
TRUE = {
    "pythagoras": (sp.sin(x) ** 2 + sp.cos(x) ** 2, sp.Integer(1)),
    "acosh-log-form": (x * sp.acosh(Q), x * sp.log(Q + sp.sqrt(Q**2 - 1))),
    "gauss-sum": (sp.Sum(j, (j, 0, n)), n * (n + 1) / 2),
    "angle-addition": (sp.sin(x + y), sp.sin(x) * sp.cos(y) + sp.cos(x) * sp.sin(y)),
}
SCALES = [-400, -100, 0, 100, 400]


def _common(scale: int, hidden: bool) -> sp.Expr:
    c = sp.Rational(10) ** scale
    if not hidden:
        return c
    # The same value, but no term of it is common to both sides: only precision can cancel it.
    return sp.Add(c * sp.sin(x) ** 2, c * sp.cos(x) ** 2, **U)


def _claims(family: dict) -> list:
    # The fast suite keeps the extreme scales on the left; every other case runs with -m slow.
    return [
        pytest.param(
            lhs,
            rhs,
            scale,
            hidden,
            swap,
            id=f"{name}-1e{scale}-{how}-{side}",
            marks=() if abs(scale) == 400 and not swap else pytest.mark.slow,
        )
        for name, (lhs, rhs) in family.items()
        for scale in SCALES
        for hidden, how in ((False, "plain"), (True, "hidden"))
        for swap, side in ((False, "left"), (True, "right"))
    ]


def _with_common(lhs, rhs, scale, hidden, swap):
    c = _common(scale, hidden)
    a, b = sp.Add(lhs, c, **U), sp.Add(c, rhs, **U)
    return (b, a) if swap else (a, b)


@pytest.mark.parametrize(("lhs", "rhs", "scale", "hidden", "swap"), _claims(FALSE))
def test_a_common_term_at_any_scale_never_hides_a_wrong_claim(lhs, rhs, scale, hidden, swap):
    a, b = _with_common(lhs, rhs, scale, hidden, swap)
    verdict = prove_identity(a, b, timeout=60)
    assert verdict.status == "refuted", verdict.reason
    # The numeric half alone refutes it, at the claim as given.
    assert check_numeric(a, b).passed is False


@pytest.mark.parametrize(("lhs", "rhs", "scale", "hidden", "swap"), _claims(TRUE))
def test_a_common_term_at_any_scale_keeps_a_true_claim_proved(lhs, rhs, scale, hidden, swap):
    a, b = _with_common(lhs, rhs, scale, hidden, swap)
    verdict = prove_identity(a, b, timeout=60)
    assert verdict.status == "proved", verdict.reason


def test_the_issue_examples_are_refuted() -> None:
    big = sp.Integer(10) ** 400
    assert prove_identity(x * sp.acosh(Q) + big, big).status == "refuted"
    s = sp.Sum(sp.binomial(n, j) * sp.factorial(n - j), (j, 0, n))
    assert prove_identity(s + 10**100, sp.E * sp.factorial(n) + 10**100).status == "refuted"


@pytest.mark.parametrize("scale", [-400, -100, 100, 400], ids=lambda s: f"1e{s}")
def test_a_wrong_claim_times_any_scale_is_refuted(scale: int) -> None:
    c = sp.Rational(10) ** scale
    assert prove_identity(c * x * sp.acosh(Q), 0).status == "refuted"
    assert prove_identity(sp.Mul(c, x, sp.exp(sp.acosh(Q), **U), **U), c * x).status == "refuted"


# ---- the criterion ----------------------------------------------------------------------------


@pytest.mark.parametrize("bits", [256, 512, 1024, 2048, 4096, 8192, 16384, 32768])
def test_the_agreement_bound_is_absolute_and_shrinks_with_the_precision(bits: int) -> None:
    assert agreement_exponent(bits) == bits // 2 + 32
    bound = agreement_bound(bits)
    assert bound.is_exact() and bound == arb(2) ** -(bits // 2 + 32)
    assert agreement_bound(2 * bits) < bound
    assert agreement_exponent(START_BITS) == 160 and START_BITS <= bits <= MAX_BITS


def test_agreement_certifies_an_absolute_bound_on_the_difference() -> None:
    d = certify_difference(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1, {x: sp.Rational(7, 3)})
    assert d.status == "agrees"
    assert 0 <= d.absolute <= 2.0**-160
    assert "within 2^-160 of 0 at 256 bits" in d.reason


def test_large_sides_need_precision_not_a_larger_tolerance() -> None:
    c = sp.Integer(10) ** 400
    hidden = sp.Add(c * sp.sin(x) ** 2, c * sp.cos(x) ** 2, **U)
    d = certify_difference(hidden, c, {x: sp.Rational(7, 3)})
    assert d.status == "agrees"
    # 10**400 is 1329 bits: the ball of the difference reaches 2**-(p/2 + 32) only past them.
    assert d.bits >= 4096 and d.absolute <= 2.0 ** -agreement_exponent(d.bits)
    off = sp.Add(hidden, sp.Rational(1, 10**200), **U)
    assert certify_difference(off, c, {x: sp.Rational(7, 3)}).status == "differs"


@pytest.mark.slow
def test_a_difference_below_any_precision_is_unknown_never_agreement() -> None:
    # 10**20000 dwarfs every precision up to MAX_BITS: the difference cannot be told from 0.
    c = sp.Integer(10) ** 20000
    hidden = sp.Add(c * sp.sin(x) ** 2, c * sp.cos(x) ** 2, **U)
    assert certify_difference(hidden, c, {x: sp.Rational(7, 3)}).status == "unknown"
    # (trigsimp then factors 10**20000 until the budget ends: undecided, never proved)
    verdict = prove_identity(hidden + x * sp.acosh(Q), c, timeout=3)
    assert verdict.status != "proved"


def test_the_side_values_are_evaluated_so_a_cancelled_pole_is_no_agreement() -> None:
    pole = 1 / (x - 1)
    d = certify_difference(pole + x, pole + x, {x: 1})
    assert d.status == "unknown" and d.cause == "undefined"
    assert certify_difference(pole + x, pole + x, {x: 2}).status == "agrees"


def test_complex_and_matrix_differences_are_decided_entry_by_entry() -> None:
    big = sp.Integer(10) ** 400
    lhs = sp.ImmutableMatrix([[sp.exp(sp.I * z) + big, z], [z * sp.acosh(Q) + big, 0]])
    rhs = sp.ImmutableMatrix([[sp.cos(z) + sp.I * sp.sin(z) + big, z], [big, 0]])
    d = certify_difference(lhs, rhs, {z: sp.Rational(1, 3) + sp.I / 7})
    assert d.status == "differs" and d.entry == (1, 0)
    fixed = sp.ImmutableMatrix([[rhs[0, 0], z], [z * sp.acosh(Q) + big, 0]])  # put right
    assert certify_difference(lhs, fixed, {z: sp.Rational(1, 3) + sp.I / 7}).status == "agrees"


def test_empty_sides_are_refused_by_the_evaluator() -> None:
    with pytest.raises(ValueError, match="no entries"):
        certify_difference(sp.zeros(0, 3), sp.zeros(0, 3), {})


# ---- the difference tree ----------------------------------------------------------------------


def test_common_terms_cancel_exactly_and_nothing_else_is_touched() -> None:
    e = sp.exp(sp.acosh(Q), **U)
    lhs = sp.Add(sp.Mul(x, e, **U), 10**400, 3 * sp.sin(x), **U)
    rhs = sp.Add(10**400, 2 * sp.sin(x), **U)
    d = difference(lhs, rhs)
    assert d.args and set(d.args) == {sp.Mul(x, e, **U), sp.sin(x)}
    assert sp.Mul(x, e, **U) in d.args  # the user's own subtree, never rebuilt into x
    assert difference(lhs, lhs) == 0
    # Nested unevaluated sums and a rational times a sum are opened up.
    nested = sp.Add(sp.Add(x, 5, **U), sp.Mul(2, sp.Add(x, 1, **U), **U), **U)
    assert difference(nested, sp.Add(3 * x, 7, **U)) == 0


def test_terms_holding_infinities_are_never_cancelled() -> None:
    # oo + x = oo is true; cancelling oo would leave x = 0.
    d = difference(sp.oo + x, sp.oo)
    assert d.has(sp.oo)
    assert prove_identity(sp.oo + x, sp.oo).status != "refuted"


def test_a_matrix_product_is_multiplied_out_without_evaluation() -> None:
    e = sp.exp(sp.acosh(Q), **U)
    a = sp.ImmutableMatrix([[sp.Mul(x, e, **U), 1]])
    b = sp.ImmutableMatrix([[1], [x]])
    product = carried_out(sp.MatMul(a, b))
    assert product.shape == (1, 1) and product[0, 0].has(sp.acosh)
    assert prove_identity(sp.MatMul(a, b), sp.ImmutableMatrix([[2 * x]])).status == "refuted"
    assert prove_identity(sp.MatMul(a, b), sp.MatMul(a, b)).status == "proved"


def test_each_product_of_entries_stays_unevaluated() -> None:
    e = sp.exp(sp.acosh(Q), **U)  # e*x built by SymPy is x
    a, b = sp.ImmutableMatrix([[e, e]]), sp.ImmutableMatrix([[x], [x]])
    assert carried_out(sp.MatMul(a, b))[0, 0].has(sp.acosh)
    assert prove_identity(sp.MatMul(a, b), sp.ImmutableMatrix([[2 * x]])).status == "refuted"
    # An inner dimension of 1: each entry is a single product, never dropped.
    column, row = sp.ImmutableMatrix([[x], [2]]), sp.ImmutableMatrix([[3, x]])
    product = carried_out(sp.MatMul(column, row)).applyfunc(sp.expand)
    assert product == sp.ImmutableMatrix([[3 * x, x**2], [6, 2 * x]])
    assert prove_identity(sp.MatMul(column, row), column * row).status == "proved"


def test_the_numeric_half_of_a_link_sees_the_tree_as_given() -> None:
    lhs = sp.Add(sp.Mul(x, sp.exp(sp.acosh(Q), **U), **U), 10**400, **U)
    link = check_link(lhs, x + 10**400)
    assert link.numeric.passed is False and link.status == "refuted"
