"""Issue 20: SymPy's constructors evaluate, and a rebuilt copy of a claim inherits what they get
wrong; the numeric check evaluates the tree as given, and the algebra is held against it.

SymPy judges a constant near a branch point in floating point: acosh(1 + 10**-20).is_zero is
True, so exp(acosh(1 + 10**-20)) built normally is 1. A claim built unevaluated reaches the
engine intact; every copy SymPy rebuilds (subs, xreplace, expand, func(*args)) may evaluate it
away. Each claim below is false (checked by mpmath at 1500 digits on the tree as printed, never
rebuilt), and must never come back proved; the exhaustive sweep is marked slow.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from proofs.engine import derivation
from proofs.engine.certified import to_arb
from proofs.engine.derivation import Derivation, Step, _confirm_nonzero, check_link, prove_identity
from proofs.engine.pointwise import check_numeric
from proofs.engine.symbolic import SymbolicResult
from proofs.engine.zero_test import shield_misjudged

x = sp.Symbol("x", real=True)
U = {"evaluate": False}
E20, E400 = sp.Rational(1, 10**20), sp.Rational(1, 10**400)


def _constants(t: sp.Rational) -> dict[str, sp.Expr]:
    """Constants within about t of a point where SymPy's floating-point judgement rounds them."""
    q = sp.Add(1, t, **U)
    return {
        "acosh(1+t)": sp.acosh(q, **U),
        "asech(1/(1+t))": sp.asech(sp.Pow(q, -1, **U), **U),
        "acos(1-t)": sp.acos(sp.Add(1, -t, **U), **U),
        "asec(1+t)": sp.asec(q, **U),
        "loggamma(1+t)": sp.loggamma(q, **U),
        "sinh(acosh(1+t))": sp.sinh(sp.acosh(q, **U), **U),
        "cos(acosh(1+t))-1": sp.Add(sp.cos(sp.acosh(q, **U), **U), -1, **U),
    }


# Each head h and the value h takes where SymPy thinks the constant is 0.
HEADS = {
    "exp": (lambda c: sp.exp(c, **U), 1),
    "sin": (lambda c: sp.sin(c, **U), 0),
    "cos": (lambda c: sp.cos(c, **U), 1),
    "2**c": (lambda c: sp.Pow(2, c, **U), 1),
    "sign": (lambda c: sp.sign(c, **U), 0),
    "Abs": (lambda c: sp.Abs(c, **U), 0),
    "floor(1-c)": (lambda c: sp.floor(sp.Add(1, sp.Mul(-1, c, **U), **U), **U), 1),
    "Piecewise(c>0)": (
        lambda c: sp.Piecewise((1, sp.StrictGreaterThan(c, 0, **U)), (0, True), **U),
        0,
    ),
    "Max(c,0)": (lambda c: sp.Max(c, 0, **U), 0),
    "sqrt(c)": (lambda c: sp.sqrt(c, **U), 0),
    "log(1+c)": (lambda c: sp.log(sp.Add(1, c, **U), **U), 0),
    "c**2": (lambda c: sp.Pow(c, 2, **U), 0),
}


def _truth(expr: sp.Expr) -> mpmath.mpf:
    f = sp.lambdify([x], expr, modules="mpmath")  # printed as code: nothing is rebuilt
    with mpmath.workdps(1500):
        return f(mpmath.mpf(1) / 3)


def _claims(scales, heads, forms) -> list:
    """(lhs, rhs, naive) for each constant, head and form; rhs is the head at c = 0."""
    out = []
    for t_name, t in scales:
        for c_name, c in _constants(t).items():
            for h_name in heads:
                head, naive = HEADS[h_name]
                f = head(c)
                for form in forms:
                    if form == "f":
                        claim = (f, sp.Integer(naive))
                    elif form == "x*f":
                        claim = (sp.Mul(x, f, **U), x * naive)
                    else:
                        claim = (sp.Add(sp.Mul(x, f, **U), 10**400, **U), x * naive + 10**400)
                    out.append(
                        pytest.param(*claim, f, naive, id=f"{h_name}-{c_name}-{t_name}-{form}")
                    )
    return out


FAST = _claims(
    [("1e-20", E20), ("1e-400", E400)],
    ["exp", "sin", "cos", "Piecewise(c>0)"],
    ["x*f", "x*f+1e400"],
)
ALL = _claims([("1e-20", E20), ("1e-400", E400)], list(HEADS), ["f", "x*f", "x*f+1e400"])
# The slow sweep runs the claims the fast suite does not (CI runs both suites).
REST = [p for p in ALL if p.id not in {f.id for f in FAST}]


def _check(lhs, rhs, f, naive) -> None:
    verdict = prove_identity(lhs, rhs, timeout=30)
    with mpmath.workdps(1500):
        false = abs(_truth(f) - naive) > mpmath.mpf(10) ** -1400
    if false:
        assert verdict.status == "refuted", verdict.reason
    else:  # the head is right at this constant (sign(c) = 0 only if c = 0): never refuted
        assert verdict.status != "refuted", verdict.reason


@pytest.mark.parametrize(("lhs", "rhs", "f", "naive"), FAST)
def test_an_evaluation_sympy_gets_wrong_never_proves_a_false_claim(lhs, rhs, f, naive) -> None:
    _check(lhs, rhs, f, naive)


@pytest.mark.slow
@pytest.mark.parametrize(("lhs", "rhs", "f", "naive"), REST)
def test_every_evaluation_sympy_gets_wrong_never_proves_a_false_claim(lhs, rhs, f, naive) -> None:
    _check(lhs, rhs, f, naive)


def test_the_suite_holds_hundreds_of_claims_and_most_are_false() -> None:
    assert len(FAST) >= 100 and len(ALL) >= 500 and len(REST) == len(ALL) - len(FAST)
    with mpmath.workdps(1500):
        false = [p for p in FAST if abs(_truth(p.values[2]) - p.values[3]) > 1e-1400]
    assert len(false) >= 100


def test_the_issue_example_reaches_the_engine_only_when_built_unevaluated() -> None:
    q = 1 + E20
    e = sp.exp(sp.acosh(q), evaluate=False)
    assert prove_identity(e, 1).status == "refuted"
    # x * e with Python's * is SymPy's Mul(x, e), evaluated: the user's own claim is x = x.
    assert x * e == x
    assert prove_identity(sp.Mul(x, e, **U), x).status == "refuted"
    assert prove_identity(sp.Mul(e, x, **U), sp.Mul(x, e, **U)).status == "proved"


# ---- the algebra is held against the given tree -----------------------------------------------


def test_misjudged_constants_are_shielded_from_the_algebra() -> None:
    c = sp.loggamma(1 + E400, **U)
    assert c.is_zero is True  # SymPy's judgement; the constant is about -5.8e-401
    lhs = sp.Mul(x, sp.exp(c, **U), **U)
    (shielded, rhs), changed = shield_misjudged(lhs, x)
    assert changed and not shielded.has(sp.loggamma) and rhs == x
    (dummy,) = shielded.atoms(sp.Dummy)
    assert dummy.is_negative  # what a ball certifies about it
    # The same constant gets the same stand-in everywhere, and a matrix is shielded entrywise.
    (m, again), _ = shield_misjudged(sp.ImmutableMatrix([[lhs, c]]), c)
    assert m[0, 1] == again and m.shape == (1, 2)
    # Constants SymPy judges rightly are left alone.
    plain = sp.sin(1) ** 2 + sp.cos(1) ** 2
    assert shield_misjudged(plain, sp.Integer(1)) == ((plain, sp.Integer(1)), False)


def test_the_algebra_never_reaches_zero_on_a_misjudged_constant() -> None:
    # Well conditioned: the difference is about 5.8e-401*x, far below 2**-160. The numeric check
    # starts at a precision that holds 1 + 10**-400, and the algebra works on a shielded copy.
    lhs = sp.Mul(x, sp.exp(sp.loggamma(1 + E400, **U), **U), **U)
    link = check_link(lhs, x)
    assert link.status == "refuted" and link.numeric.passed is False
    assert check_numeric(lhs, x).passed is False


def test_a_true_claim_about_a_misjudged_constant_is_still_proved() -> None:
    q = 1 + E20
    assert prove_identity(sp.acosh(q), sp.log(q + sp.sqrt(q**2 - 1))).status == "proved"
    e = sp.exp(sp.acosh(q), **U)
    assert prove_identity(sp.Mul(2, e, **U), sp.Add(e, e, **U)).status == "proved"
    assert prove_identity(sp.Mul(x, e, **U) + 10**400, sp.Mul(e, x, **U) + 10**400).proved


def test_a_nonzero_constant_from_the_algebra_refutes_only_where_the_tree_confirms_it() -> None:
    e = sp.exp(sp.acosh(1 + E20), **U)
    a, b = sp.Mul(2, e, **U), sp.Mul(e, 2, **U)  # equal trees, read two ways
    wrong = SymbolicResult(False, "", sp.Rational(1, 10**12))  # as if the algebra said so
    withdrawn, confirmed = _confirm_nonzero(wrong, a, b, seed=0)
    assert confirmed.passed is True and withdrawn.passed is None
    truly = SymbolicResult(False, "", sp.Rational(1, 10**12))
    kept, confirmed = _confirm_nonzero(truly, a + sp.Rational(1, 10**12), b, seed=0)
    assert confirmed.passed is False and kept.passed is False
    # A constant too small for any precision: the exact algebra's certificate stands.
    tiny = SymbolicResult(False, "", sp.Rational(1, 10**20000))
    assert _confirm_nonzero(tiny, a, b, seed=0) == (tiny, None)


def _pretend(monkeypatch, *answers: SymbolicResult) -> None:
    """The algebra answers these, in turn (the last one from then on), whatever the claim."""
    queue = list(answers)
    monkeypatch.setattr(
        derivation,
        "check_uncited",
        lambda a, b, thorough=True: queue.pop(0) if len(queue) > 1 else queue[0],
    )


# exp(-1000) is about 5e-435: next to x it is below what 256 bits resolve, above 2**-2048.
TINY = sp.exp(-1000)


def test_a_zero_from_simplify_stands_only_if_the_deeper_look_agrees(monkeypatch) -> None:
    _pretend(monkeypatch, SymbolicResult(True, "simplify", exact=False))
    assert check_numeric(x * (1 + TINY), x).passed is True  # the 24 points agree
    link = check_link(x * (1 + TINY), x)
    assert link.status == "refuted" and link.numeric.passed is False
    assert check_link(x * (1 + TINY), x * (1 + TINY)).status == "proved"


def test_a_zero_from_sympys_plain_copy_of_a_misjudged_constant_is_confirmed(monkeypatch) -> None:
    # The shielded copy does not close; the plain one does: that zero needs the deeper look.
    _pretend(monkeypatch, SymbolicResult(None, "", x), SymbolicResult(True, "expand"))
    e = sp.exp(sp.acosh(1 + E20), **U)
    lhs = sp.Mul(x, sp.Add(1, TINY, **U), sp.Pow(e, 0, **U), **U)  # shielded: e is misjudged
    link = check_link(lhs, x)
    assert link.status == "refuted" and link.numeric.passed is False


def test_a_nonzero_constant_the_tree_contradicts_does_not_refute(monkeypatch) -> None:
    _pretend(monkeypatch, SymbolicResult(False, "", sp.Rational(1, 10**12)))
    link = check_link(x * (x + 1), x**2 + x)  # true: the algebra's constant is wrong
    assert link.status == "undecided" and link.symbolic.passed is None
    link = check_link(x * (x + 1) + sp.Rational(1, 10**12), x**2 + x)
    assert link.status == "refuted" and link.numeric.counterexample is not None


def test_a_nonzero_constant_where_no_ball_can_be_made_still_refutes() -> None:
    # besselj has no ball translation: the exact algebra's constant decides alone.
    b = sp.besselj(1, x)
    link = check_link(b * (x + 1) + sp.Rational(1, 10**30), x * b + b)
    assert link.status == "refuted" and link.symbolic.passed is False
    assert link.numeric.passed is None


# ---- no copy is rebuilt before the numeric check ---------------------------------------------


def test_floats_are_evaluated_at_their_exact_value_without_rebuilding() -> None:
    e = sp.exp(sp.acosh(1 + E20), **U)
    lhs = sp.Mul(sp.Float(0.5), x, e, **U)  # exact_floats would rebuild this Mul into x/2
    assert check_numeric(lhs, x / 2).passed is False
    assert prove_identity(lhs, x / 2).status == "refuted"


def test_matrix_entries_are_inputs_of_their_own_without_rebuilding() -> None:
    a = sp.MatrixSymbol("A", 2, 2)
    e = sp.exp(sp.acosh(1 + E20), **U)
    lhs = sp.ImmutableMatrix([[sp.Mul(a[0, 0], e, **U), a[0, 1]], [a[1, 0], a[1, 1]]])
    assert check_numeric(lhs, a.as_explicit()).passed is False
    assert prove_identity(lhs, a.as_explicit()).status == "refuted"
    assert prove_identity(a * a.T, (a * a.T).T).status == "proved"


def test_a_double_sum_is_run_without_rebuilding_its_inner_sum() -> None:
    i, j, m = sp.symbols("i j m", integer=True, nonnegative=True)
    e = sp.exp(sp.acosh(1 + E20), **U)
    double = sp.Sum(sp.Mul(i, j, e, **U), (i, 0, m), (j, 0, m))
    assert check_numeric(double, (m * (m + 1) / 2) ** 2).passed is False
    assert check_numeric(sp.Sum(i * j, (i, 0, m), (j, 0, m)), (m * (m + 1) / 2) ** 2).passed


def test_a_derivation_step_is_checked_as_given() -> None:
    e = sp.exp(sp.acosh(1 + E20), **U)
    chain = Derivation(
        "rebuilt_step",
        "x e = x, via a step SymPy rebuilds",
        (Step(sp.Mul(x, e, **U)), Step(sp.Mul(x, 1, **U), note="e = 1"), Step(x, note="1 x = x")),
    )
    verdict = chain.verify(timeout=30)
    assert verdict.status == "refuted"
    assert verdict.links[0].status == "refuted" and verdict.links[1].status == "proved"


def test_the_ball_of_a_rebuilt_constant_and_of_the_given_one_differ() -> None:
    # What the engine evaluates is the user's tree: its ball excludes 1.
    ball = to_arb(sp.exp(sp.acosh(1 + E20), **U), {}, 256)
    assert not (ball - 1).contains(0)


def test_a_cited_rule_on_a_misjudged_constant_is_held_to_the_given_tree() -> None:
    from proofs.engine.rules import ALGEBRA

    e = sp.exp(sp.acosh(1 + E20), **U)  # SymPy rebuilds it as 1
    for by in (ALGEBRA, None):
        link = check_link(sp.Mul(x, e, **U), x, by=by)
        assert link.status == "refuted" and link.numeric.passed is False
