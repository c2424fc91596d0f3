"""The algebra every rule ends with: a ring normal form over opaque atoms, without re-evaluation.

Two expressions are equal *by algebra* when multiplying out both gives the same polynomial (a
Laurent polynomial: atoms may be divided by) in their atoms. An atom is anything that is not a
sum, a product or an integer power: a symbol, a number symbol such as π, a function application
sin(x), a power with a symbolic exponent, a Sum, a matrix expression. Atoms are compared by
structure, with their own arguments in normal form, so sin(pos·ω + k·ω) and sin((pos + k)·ω) are
one atom, but sin(−x) and −sin(x) are two: that is the parity rule's work, not algebra's.

This is what Coq's `ring` (and `field`, for the divisions) proves, and it is why a link's cited
rule is the one that closed it: SymPy evaluates sin(x + 2π) to sin(x) whenever an expression is
rebuilt, so the normal form never rebuilds a function application. Each atom is replaced by a
Dummy, the polynomial in the Dummies is expanded (exact rational arithmetic, nothing to evaluate),
and equal atoms get the same Dummy.
"""

from __future__ import annotations

import sympy as sp

# (x + 1)**500 would expand to 501 terms of 150-digit coefficients; beyond this exponent an
# integer power of a sum is kept as an atom.
MAX_EXPANDED_POWER = 64


class Atoms:
    """A table of the atoms met so far: equal atoms (by structure, their arguments in normal
    form) share one Dummy. One table is used for both sides of a comparison."""

    def __init__(self) -> None:
        self._dummy: dict[tuple, sp.Dummy] = {}
        self.original: dict[sp.Dummy, sp.Basic] = {}

    def polynomial(self, expr: sp.Basic) -> sp.Expr:
        """expr as an expanded polynomial in Dummies standing for its atoms."""
        # strict: text is refused, never parsed (sympify would eval it).
        return sp.expand(self._walk(sp.sympify(expr, strict=True)))

    def _walk(self, e: sp.Basic) -> sp.Expr:
        if isinstance(e, sp.Float) and e.is_finite:
            # A Float is the exact binary number it stands for: 1 + 1e-100 added in the
            # Float's 53 bits would be 1.
            return sp.Rational(e)
        if e.is_Number or isinstance(e, sp.Symbol):
            return e
        if isinstance(e, sp.Add):
            return sp.Add(*(self._walk(a) for a in e.args))
        if isinstance(e, sp.Mul):
            return sp.Mul(*(self._walk(a) for a in e.args))
        if isinstance(e, sp.Pow):
            # An exponent that multiplies out to an integer (10000**(-2·0/d) at i = 0) makes an
            # integer power: arithmetic, not an atom.
            exp = e.exp if e.exp.is_Integer else self.polynomial(e.exp)
            if exp.is_Integer and (
                abs(int(exp)) <= MAX_EXPANDED_POWER or not isinstance(e.base, sp.Add)
            ):
                return sp.Pow(self._walk(e.base), exp)
        return self._atom(e)

    def key(self, e: sp.Basic) -> tuple:
        """The structural key of e: its type and its arguments in normal form."""
        if isinstance(e, sp.MatrixBase):
            return ("matrix", e.shape, tuple(self.polynomial(x) for x in e))
        if isinstance(e, sp.Pow):
            # A power whose exponent is not an integer: 10000**(-2*i/d). Base and exponent are
            # both normalized, so the exponent -2*(i + 1)/d and -2*i/d - 2/d are one atom.
            return (sp.Pow, self.polynomial(e.base), self.polynomial(e.exp))
        if not e.args:
            return (type(e), e)
        return (type(e), *(self._argument(a) for a in e.args))

    def _argument(self, a: sp.Basic) -> object:
        if isinstance(a, sp.Tuple):
            return tuple(self._argument(x) for x in a)
        if isinstance(a, sp.Expr) and not isinstance(a, sp.MatrixExpr):
            return self.polynomial(a)
        if isinstance(a, sp.MatrixBase | sp.MatrixExpr):
            return self.key(a)
        return a

    def _atom(self, e: sp.Basic) -> sp.Expr:
        key = self.key(e)
        dummy = self._dummy.get(key)
        if dummy is None:
            # An atom SymPy cannot call commutative (a limit of a shielded constant) is
            # treated as one that may not commute: that allows fewer rewrites, never a wrong one.
            dummy = self._dummy[key] = sp.Dummy(
                f"a{len(self._dummy)}", commutative=bool(e.is_commutative)
            )
            self.original[dummy] = e
        return dummy

    def expression(self, polynomial: sp.Expr) -> sp.Expr:
        """A polynomial in the Dummies with the atoms put back (for display)."""
        return polynomial.xreplace(self.original)


def algebra_difference(a: sp.Basic, b: sp.Basic, atoms: Atoms | None = None) -> sp.Basic:
    """a − b in normal form: 0 exactly when a = b by algebra alone; for matrices, the matrix of
    entry differences, or the two sides' keys when they are matrix expressions that differ.

    >>> x, y = sp.symbols("x y")
    >>> algebra_difference((x + y)**2, x**2 + 2*x*y + y**2)
    0
    >>> algebra_difference(sp.sin(x*y + y), sp.sin((x + 1)*y))
    0
    >>> algebra_difference(sp.cos(sp.Mul(-1, x, evaluate=False), evaluate=False), sp.cos(x))
    _a0 - _a1
    """
    atoms = atoms or Atoms()
    if isinstance(a, sp.MatrixBase) and isinstance(b, sp.MatrixBase):
        if a.shape != b.shape:
            raise ValueError(f"the two sides have shapes {a.shape} and {b.shape}")
        return sp.ImmutableMatrix(
            a.shape[0], a.shape[1], [atoms.polynomial(x - y) for x, y in zip(a, b, strict=True)]
        )
    if isinstance(a, sp.MatrixBase | sp.MatrixExpr) or isinstance(b, sp.MatrixBase | sp.MatrixExpr):
        return sp.Integer(0) if atoms.key(a) == atoms.key(b) else sp.Integer(1)
    return atoms.polynomial(a) - atoms.polynomial(b)


def equal_by_algebra(a: sp.Basic, b: sp.Basic, atoms: Atoms | None = None) -> bool:
    """Whether a = b follows from ring arithmetic alone, atoms taken as they are written.

    >>> p, k, w = sp.symbols("pos k omega")
    >>> equal_by_algebra(p*w + k*w, (p + k)*w)
    True
    >>> equal_by_algebra(sp.sin(p + 2*sp.pi, evaluate=False), sp.sin(p))
    False
    """
    difference = algebra_difference(a, b, atoms)
    if isinstance(difference, sp.MatrixBase):
        return all(x == 0 for x in difference)
    return difference == 0
