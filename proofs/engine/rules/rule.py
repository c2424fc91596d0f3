"""Rule: one named rewrite that a step cites, and the tree walk every rewrite uses.

A rule rewrites an expression; the link it justifies closes when the two sides, rewritten, are
equal by algebra (proofs.engine.rules.normal_form): ring arithmetic, or field arithmetic for the
rules that say so, over atoms taken as written. That is how a Coq proof of the same step reads:
`rewrite sin_plus, cos_plus; ring`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp


@dataclass(frozen=True)
class Rule:
    """A named rewrite.

    name: an identifier (angle_addition). words: the rule as the printers say it ("angle
    addition"). rewrite: the function that does it. field: close with field arithmetic
    (denominators cleared) rather than ring arithmetic. exact: False for a computer-algebra
    answer that can be wrong (simplify, trigsimp, Sum.doit): a zero it reaches stands only after
    the certified numeric confirmation. coq: the tactic a Coq proof of the step uses. joint: the
    rule rewrites both sides of a link at once, as a Tuple (it needs to see both, as the common
    angle of sin x and sin(x/2) does); any other rule rewrites each side alone.
    """

    name: str
    words: str
    rewrite: Callable[[sp.Basic], sp.Basic]
    field: bool = False
    exact: bool = True
    coq: str = "ring"
    joint: bool = False

    def __call__(self, expr: sp.Basic) -> sp.Basic:
        try:
            return self.rewrite(expr)
        except (ValueError, ArithmeticError):
            # A SymPy constructor refused the rewritten tree (Max of a constant it cannot
            # compare), or SymPy's own evaluation overflowed or divided by zero on the way: the
            # rule does not apply here, which can only lose a proof.
            return expr

    def __str__(self) -> str:
        return self.words


def rebuild(node: sp.Basic, args: tuple) -> sp.Basic:
    """node with new arguments, built without SymPy's evaluation where the type allows it (so
    a rewrite does only its own work: sin(x + 2π) must not become sin(x) on the way)."""
    if args == node.args:
        return node
    try:
        return node.func(*args, evaluate=False)
    except TypeError:
        return node.func(*args)


def bottom_up(expr: sp.Basic, at_node: Callable[[sp.Basic], sp.Basic]) -> sp.Basic:
    """expr with at_node applied to every node, innermost first; explicit matrices entry by entry.

    >>> x = sp.Symbol("x")
    >>> bottom_up(sp.sin(x) * sp.cos(x), lambda e: sp.cos(*e.args) if isinstance(e, sp.sin) else e)
    cos(x)*cos(x)
    """
    if isinstance(expr, sp.MatrixBase):
        rows, cols = expr.shape
        return sp.ImmutableMatrix(rows, cols, [bottom_up(e, at_node) for e in expr])
    if not expr.args:
        return at_node(expr)
    args = tuple(bottom_up(a, at_node) for a in expr.args)
    return at_node(rebuild(expr, args))
