"""Solve a linear system without dropping a single equation.

`sympy.solve([a - 1, -k], a)` answers {a: 1}: it silently drops -k = 0 because that equation
does not involve a. Impossibility results cannot rest on that, so this module row-reduces the
augmented matrix of *every* equation and reports any row that reduces to 0 = c with c != 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import sympy as sp
from sympy.solvers.solveset import NonlinearError

from proofs.engine.zero_test import is_zero as _zero


@dataclass(frozen=True)
class LinearSolution:
    """What a linear system says.

    status: "solved" (consistent), "inconsistent" (certificate set), or "undecided".
    solution: unknown -> value, with free unknowns (if any) left as themselves.
    free: unknowns the system leaves free. certificate: (combination of the original
    equations, the nonzero constant it reduces to) when inconsistent. reason: one line.
    """

    status: Literal["solved", "inconsistent", "undecided"]
    reason: str
    solution: dict[sp.Symbol, sp.Expr] = field(default_factory=dict)
    free: tuple[sp.Symbol, ...] = ()
    certificate: tuple[sp.Expr, sp.Expr] | None = None


def solve_linear(equations: Sequence[sp.Expr], unknowns: Sequence[sp.Symbol]) -> LinearSolution:
    """Row-reduce the system {e = 0 for e in equations} in the given unknowns.

    Raises ValueError if some equation is not linear in the unknowns.
    """
    equations = [sp.sympify(e) for e in equations]
    unknowns = list(unknowns)
    try:
        a, b = sp.linear_eq_to_matrix(equations, unknowns)
    except NonlinearError as exc:
        raise ValueError(f"the system is not linear in {unknowns}: {exc}") from None
    rows = len(equations)
    # The augmented matrix [A | b | T]: T records which combination of the original
    # equations each row now is, so an inconsistency can be shown in the user's terms.
    m = a.row_join(b).row_join(sp.eye(rows)).as_mutable()
    n = len(unknowns)
    pivots: list[int] = []
    r = 0
    for c in range(n):
        pivot = None
        unknown_entry = False
        for rr in range(r, rows):
            z = _zero(m[rr, c])
            if z is False:
                pivot = rr
                break
            if z is None:
                unknown_entry = True
            else:
                m[rr, c] = 0
        if pivot is None:
            if unknown_entry:
                return LinearSolution(
                    "undecided", f"cannot tell whether the coefficients of {unknowns[c]} vanish"
                )
            continue
        m.row_swap(r, pivot)
        m[r, :] = m[r, :] / m[r, c]
        for rr in range(rows):
            if rr != r and m[rr, c] != 0:
                m[rr, :] = (m[rr, :] - m[rr, c] * m[r, :]).applyfunc(sp.cancel)
        pivots.append(c)
        r += 1
    # Rows below the pivots have no unknowns left: each says 0 = rhs.
    conditions = []
    for rr in range(r, rows):
        z = _zero(m[rr, n])
        if z is not True:
            # Only for the message (rows that vanish are the norm); never a decision.
            rhs = sp.simplify(m[rr, n])
        if z is False:
            combo = sum(m[rr, n + 1 + j] * equations[j] for j in range(rows))
            return LinearSolution(
                "inconsistent",
                f"the equations force 0 = {rhs}, which is false",
                certificate=(sp.expand(combo), rhs),
            )
        if z is None:
            conditions.append(rhs)
    if conditions:
        return LinearSolution(
            "undecided", f"consistent only if {', '.join(f'{c} = 0' for c in conditions)}"
        )
    free = tuple(u for j, u in enumerate(unknowns) if j not in pivots)
    solution = {}
    for row, c in enumerate(pivots):
        value = m[row, n] - sum(m[row, j] * unknowns[j] for j in range(n) if j not in pivots)
        solution[unknowns[c]] = sp.cancel(value)
    for u in free:
        solution[u] = u
    return LinearSolution("solved", "consistent", solution, free)
