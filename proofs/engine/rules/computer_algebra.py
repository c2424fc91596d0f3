"""SymPy's own simplifiers as rules of last resort. They can evaluate numbers in floating point
on the way (simplify(acosh(1 + 10**-20)) is 0), so their zeros are candidates only: a link they
close is proved only after the certified numeric confirmation."""

from __future__ import annotations

import sympy as sp

from proofs.engine.rules.rule import LastResort, Rule

# simplify() can take minutes on large expressions; beyond this many operations it is skipped
# and the entry is reported inconclusive rather than hanging the run.
MAX_SIMPLIFY_OPS = 400


def trigsimp(expr: sp.Basic) -> sp.Basic:
    """SymPy's trigsimp.

    >>> x = sp.Symbol("x")
    >>> trigsimp(sp.sin(x)**4 - sp.cos(x)**4 + sp.cos(2*x))
    0
    """
    return sp.trigsimp(expr)


def simplify(expr: sp.Basic) -> sp.Basic:
    """SymPy's simplify, skipped on expressions of more than MAX_SIMPLIFY_OPS operations.

    >>> x = sp.Symbol("x", positive=True)
    >>> simplify(sp.exp(sp.log(x)) - x)
    0
    """
    if sp.count_ops(expr) > MAX_SIMPLIFY_OPS:
        return expr
    return sp.simplify(expr)


TRIGSIMP = Rule("trigsimp", "trigsimp", trigsimp, exact=False, search=LastResort(20))
SIMPLIFY = Rule("simplify", "simplify", simplify, exact=False, search=LastResort(30))
