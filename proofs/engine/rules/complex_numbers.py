"""The rule for complex numbers written over real ones: Euler's formula, conjugates, real parts.

e^{ix} = cos x + i·sin x for real x. A conjugate or real part of an expression whose atoms are
all real (real symbols, and functions SymPy's assumptions make real) is taken term by term once
the expression is multiplied out with i² = −1: conj(a + ib) = a − ib and Re(a + ib) = a. That
is how Meta's complex form of RoPE, (q_1 + iq_2)·e^{imθ}, becomes the real rotation.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.rules.normal_form import Atoms
from proofs.engine.rules.rule import CoqPlan, Rule, bottom_up


def _over_reals(e: sp.Expr) -> tuple[sp.Expr, Atoms] | None:
    """e multiplied out as a polynomial in i with real atoms (i² = −1 applied), or None when
    some atom is not known to be real."""
    atoms = Atoms()
    polynomial = atoms.polynomial(e)
    imaginary = {d for d, atom in atoms.original.items() if atom == sp.I}
    for symbol in polynomial.free_symbols - imaginary:
        if atoms.original.get(symbol, symbol).is_real is not True:
            return None
    return sp.expand(polynomial.xreplace({d: sp.I for d in imaginary})), atoms


def _euler(e: sp.exp) -> sp.Basic:
    x = sp.expand(e.args[0] / sp.I)
    if x.is_real is not True or x.has(sp.I):
        return e
    return sp.Add(sp.cos(x, evaluate=False), sp.I * sp.sin(x, evaluate=False), evaluate=False)


def _parts(e: sp.Expr, conjugate: bool) -> sp.Basic | None:
    found = _over_reals(e)
    if found is None:
        return None
    polynomial, atoms = found
    real, imaginary = polynomial.as_independent(sp.I, as_Add=True)
    imaginary = sp.expand(imaginary / sp.I)
    if imaginary.has(sp.I) or real.has(sp.I):
        return None
    if conjugate:
        return atoms.expression(real) - sp.I * atoms.expression(imaginary)
    return atoms.expression(real)


def complex_form(expr: sp.Basic) -> sp.Basic:
    """Euler's formula e^{ix} = cos x + i sin x (x real), then conjugates and real parts of
    expressions over real atoms, term by term.

    >>> x, a, b = sp.symbols("x a b", real=True)
    >>> complex_form(sp.re((a + sp.I * b) * sp.exp(sp.I * x), evaluate=False))
    a*cos(x) - b*sin(x)
    >>> complex_form(sp.conjugate(sp.exp(sp.I * x), evaluate=False))
    -I*sin(x) + cos(x)
    """

    def at(e: sp.Basic) -> sp.Basic:
        if isinstance(e, sp.exp) and e.args[0].has(sp.I):
            return _euler(e)
        if isinstance(e, sp.re | sp.conjugate):
            parts = _parts(e.args[0], isinstance(e, sp.conjugate))
            return e if parts is None else parts
        return e

    return bottom_up(expr, at)


COMPLEX_FORM = Rule(
    "complex_form",
    "Euler's formula, real parts",
    complex_form,
    coq="complex_parts",
    coq_plan=CoqPlan.WHOLE_GOAL,
)
