"""The symbolic half of a link check: reduce lhs - rhs to exactly 0, entry by entry.

The reductions are tried cheapest first, and the first that reaches 0 names the rule.
Reaching 0 is the only way to pass. A difference that reduces to a nonzero *number* is a
certificate that the link is false at every point; anything else is inconclusive.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp

# simplify() can take minutes on large expressions; beyond this many operations it is skipped
# and the entry is reported inconclusive rather than hanging the run.
_SIMPLIFY_MAX_OPS = 400


def _expand(d: sp.Expr) -> sp.Expr:
    return sp.expand(d)


def _angle_addition(d: sp.Expr) -> sp.Expr:
    # expand first so sin((pos + k)*w) becomes sin(pos*w + k*w), which expand_trig can split.
    return sp.expand(sp.expand_trig(sp.expand(d)))


def _cancel(d: sp.Expr) -> sp.Expr:
    return sp.cancel(sp.together(sp.expand(d)))


def _pythagorean(d: sp.Expr) -> sp.Expr:
    return sp.expand(sp.trigsimp(_angle_addition(d)))


def _simplify(d: sp.Expr) -> sp.Expr:
    if sp.count_ops(d) > _SIMPLIFY_MAX_OPS:
        return d
    return sp.simplify(d)


REDUCTIONS: tuple[tuple[str, Callable[[sp.Expr], sp.Expr]], ...] = (
    ("identical", lambda d: d),
    ("expand", _expand),
    ("angle addition", _angle_addition),
    ("rational cancel", _cancel),
    ("trigsimp", _pythagorean),
    ("simplify", _simplify),
)


@dataclass(frozen=True)
class SymbolicResult:
    """Outcome of the symbolic check of one link.

    passed: True if every entry of lhs - rhs reduced to 0; False if some entry reduced to a
    nonzero number (a certificate); None if inconclusive. rule: the reductions that succeeded.
    residue: for a failure, the reduced difference of the first entry that did not vanish.
    """

    passed: bool | None
    rule: str
    residue: sp.Expr | None = None

    def summary(self) -> str:
        """A short human-readable line."""
        if self.passed:
            return f"symbolic ✓ {self.rule}"
        if self.passed is False:
            return f"symbolic ✗ lhs - rhs = {self.residue}, a nonzero constant"
        return f"symbolic ? lhs - rhs did not reduce to 0 (left: {sp.sstr(self.residue)[:80]})"


def reduce_to_zero(difference: sp.Expr) -> tuple[str | None, sp.Expr]:
    """Try each reduction on difference; return (rule, 0) on success or (None, last form)."""
    last = difference
    for name, reduce in REDUCTIONS:
        last = reduce(difference)
        if last == 0:
            return name, last
    return None, last


def _is_nonzero_number(expr: sp.Expr) -> bool:
    return bool(expr.is_number) and expr.is_zero is False


def check_symbolic(lhs: sp.Basic, rhs: sp.Basic) -> SymbolicResult:
    """Reduce lhs - rhs (scalars or same-shape matrices) entry by entry to 0."""
    difference = sp.Matrix(lhs) - sp.Matrix(rhs) if isinstance(lhs, sp.MatrixBase) else lhs - rhs
    entries = list(difference) if isinstance(difference, sp.MatrixBase) else [difference]
    rules: list[str] = []
    for entry in entries:
        rule, reduced = reduce_to_zero(sp.sympify(entry))
        if rule is None:
            verdict = False if _is_nonzero_number(reduced) else None
            return SymbolicResult(verdict, "", reduced)
        if rule not in rules:
            rules.append(rule)
    return SymbolicResult(True, ", ".join(rules))
