"""The algebraic rules: algebra itself (ring arithmetic, what every rule ends with), cancelling
common factors (field arithmetic), the exponent laws, and the logarithmic definitions of the
inverse hyperbolic functions.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.rules.normal_form import Atoms
from proofs.engine.rules.rule import CoqPlan, Diagnosis, Round, Rule, bottom_up


def unchanged(expr: sp.Basic) -> sp.Basic:
    """Nothing rewritten: the two sides are compared as written, by ring arithmetic (algebra) or
    by field arithmetic, denominators cleared (cancel).

    >>> unchanged(sp.Symbol("x") + 1)
    x + 1
    """
    return expr


def exponent_laws(expr: sp.Basic) -> sp.Basic:
    """b^x · b^y = b^(x + y) and (b^x)^n = b^(n·x), for powers of one base in a product.

    >>> b, x, y = sp.Symbol("b", positive=True), sp.Symbol("x"), sp.Symbol("y")
    >>> exponent_laws(sp.Mul(b**x, b**y, evaluate=False))
    b**(x + y)
    """

    def at(e: sp.Basic) -> sp.Basic:
        if isinstance(e, sp.Pow) and isinstance(e.base, sp.Pow) and e.exp.is_Integer:
            return sp.Pow(e.base.base, e.base.exp * e.exp, evaluate=False)
        if not isinstance(e, sp.Mul):
            return e
        exponents: dict[sp.Expr, list[sp.Expr]] = {}
        rest = []
        for factor in e.args:
            base, exp = factor.as_base_exp()
            if exp.is_Integer and not isinstance(factor, sp.Pow):
                rest.append(factor)
            else:
                exponents.setdefault(base, []).append(exp)
        if all(len(v) == 1 for v in exponents.values()):
            return e
        atoms = Atoms()
        powers = [
            sp.Pow(base, atoms.expression(atoms.polynomial(sp.Add(*exps))), evaluate=False)
            for base, exps in exponents.items()
        ]
        return sp.Mul(*rest, *powers, evaluate=False)

    return bottom_up(expr, at)


_INVERSE_HYPERBOLIC = (sp.asinh, sp.acosh, sp.atanh, sp.acoth, sp.asech, sp.acsch)


def logarithmic_form(expr: sp.Basic) -> sp.Basic:
    """The inverse hyperbolic functions by SymPy's own logarithmic definitions on their principal
    branches (asinh z = log(z + √(z² + 1)), …), then log(a·b) = log a + log b where a and b are
    positive (where that is exact).

    >>> x = sp.Symbol("x", positive=True)
    >>> logarithmic_form(sp.log(2*x))
    log(x) + log(2)
    """
    if expr.has(*_INVERSE_HYPERBOLIC):
        expr = expr.rewrite(sp.log)
    return sp.expand_log(expr) if expr.has(sp.log) else expr


ALGEBRA = Rule(
    "algebra",
    "algebra",
    unchanged,
    search=Round(0, 0),
    coq="ring",
    coq_plan=CoqPlan.CLOSE,
)
CANCEL = Rule(
    "cancel",
    "cancel common factors",
    unchanged,
    field=True,
    search=Round(3, 120),
    diagnosis=Diagnosis(alone=120),
    coq="field; side",
    coq_plan=CoqPlan.CLOSE,
)
EXPONENT_LAWS = Rule(
    "exponent_laws",
    "exponent laws",
    exponent_laws,
    search=Round(1, 30),
    diagnosis=Diagnosis(alone=30),
    coq="unfold omega, Rdiv; rewrite <- ?Rpower_Ropp, <- ?Rpower_plus; f_equal",
    coq_plan=CoqPlan.EXPONENT_LAWS,
)
# expand_log splits log(a·b) where SymPy's assumptions call a and b positive, and for a number
# that judgement may come from a low-precision evaluation: an answer that can be wrong.
LOGARITHMIC_FORM = Rule(
    "logarithmic_form",
    "logarithmic form",
    logarithmic_form,
    exact=False,
    search=Round(4, 0),
)
