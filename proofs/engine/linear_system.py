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
from flint import arb
from sympy.polys.constructor import construct_domain
from sympy.polys.domains import EX
from sympy.polys.polyerrors import PolynomialError
from sympy.solvers.solveset import NonlinearError

from proofs.engine import arguments
from proofs.engine.certified import CertifiedError, to_arb
from proofs.engine.floats import exact_floats
from proofs.engine.number_size import largest_number_bits
from proofs.engine.radicals import radicals_as_powers
from proofs.engine.show import show
from proofs.engine.zero_test import is_zero as _zero


@dataclass(frozen=True)
class LinearSolution:
    """What a linear system says.

    status: "solved" (consistent), "inconsistent" (certificate set), or "undecided".
    solution: unknown -> value, with free unknowns (if any) left as themselves.
    free: unknowns the system leaves free. certificate: (c, r) when inconsistent: c is a
    combination of the original equations, equal to -r, and r != 0 (the equations force 0 = r).
    reason: one line.
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
    # A Float is its exact binary value (proofs.engine.floats), never floating-point arithmetic.
    equations = [
        exact_floats(arguments.expression(e, f"equation {j + 1}")) for j, e in enumerate(equations)
    ]
    unknowns = list(unknowns)
    radicals, back = radicals_as_powers(equations)
    try:
        a, b = sp.linear_eq_to_matrix([e.xreplace(radicals) for e in equations], unknowns)
    except NonlinearError as exc:
        raise ValueError(f"the system is not linear in {unknowns}: {exc}") from None
    # Equations that share no unknown, directly or through others, are independent systems:
    # reducing each on its own is exact and far cheaper (the shift-map systems are blocks).
    parts = [
        _eliminate(
            a.extract(rows, cols),
            b.extract(rows, [0]),
            [equations[r] for r in rows],
            [unknowns[c] for c in cols],
            back,
        )
        for rows, cols in _components(a)
    ]
    for part in parts:
        if part.status == "inconsistent":
            return part
    undecided = [part.reason for part in parts if part.status == "undecided"]
    if undecided:
        return LinearSolution("undecided", "; ".join(undecided))
    solution = {u: v for part in parts for u, v in part.solution.items()}
    free = tuple(u for u in unknowns if u in {f for part in parts for f in part.free})
    return LinearSolution("solved", "consistent", {u: solution[u] for u in unknowns}, free)


def _components(a: sp.MatrixBase) -> list[tuple[list[int], list[int]]]:
    """The (rows, columns) of the connected blocks of a's nonzero pattern, in order of first row;
    a column no row uses is a block of its own (a free unknown)."""
    parent = list(range(a.rows + a.cols))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for (r, c), _ in a.todok().items():
        parent[root(r)] = root(a.rows + c)
    blocks: dict[int, tuple[list[int], list[int]]] = {}
    for x in range(a.rows + a.cols):
        rows, cols = blocks.setdefault(root(x), ([], []))
        (rows if x < a.rows else cols).append(x if x < a.rows else x - a.rows)
    return list(blocks.values())


def _field(entries: list[sp.Expr]) -> tuple[object, list]:
    """(K, entries as elements of K): a field of rational functions over QQ (or QQ(i)) in the
    entries' functions and symbols, taken as independent generators; SymPy's EX if there is none.

    Arithmetic in K is exact and far cheaper than cancel() on expressions. A relation between the
    generators (sin² + cos² = 1) is invisible to K, so K's 0 is a certain 0 but K's nonzero is
    not: nonzero entries are still judged by the certified zero test.
    """
    try:
        domain, elements = construct_domain(entries, field=True, composite=True)
    except PolynomialError:
        domain = None
    if domain is None or not domain.is_Exact:
        return EX, [EX.from_sympy(e) for e in entries]
    return domain, elements


def _eliminate(
    a: sp.MatrixBase,
    b: sp.MatrixBase,
    equations: list[sp.Expr],
    unknowns: list[sp.Symbol],
    back: dict[sp.Symbol, sp.Expr],
) -> LinearSolution:
    """solve_linear's row reduction of one block A·x = b (equations: its rows as given; back:
    the radicals that a and b hold as powers of a symbol, see proofs.engine.radicals)."""
    rows, n = len(equations), len(unknowns)
    width = n + 1 + rows
    # The augmented matrix [A | b | T]: T records which combination of the original
    # equations each row now is, so an inconsistency can be shown in the user's terms.
    entries = [
        a[r, j] if j < n else b[r] if j == n else sp.Integer(int(j - n - 1 == r))
        for r in range(rows)
        for j in range(width)
    ]
    field_, flat = _field(entries)
    m = [flat[r * width : (r + 1) * width] for r in range(rows)]

    def expr(x: object) -> sp.Expr:
        return field_.to_sympy(x).xreplace(back)

    def vanishes(x: object) -> bool:
        # Structurally 0 in the field. Not bool(x): EX's bool asks SymPy's is_zero, which
        # evaluates numbers (acosh(1 + 10**-20).is_zero is True).
        return x.ex == 0 if field_ is EX else x == field_.zero

    def zero(x: object) -> bool | None:
        return True if vanishes(x) else _zero(expr(x))

    pivots: list[int] = []
    r = 0
    for c in range(n):
        pivot = None
        unknown_entry = False
        for rr in range(r, rows):
            z = zero(m[rr][c])
            if z is False:
                pivot = rr
                break
            if z is None:
                unknown_entry = True
            else:
                m[rr][c] = field_.zero
        if pivot is None:
            if unknown_entry:
                return LinearSolution(
                    "undecided", f"cannot tell whether the coefficients of {unknowns[c]} vanish"
                )
            continue
        m[r], m[pivot] = m[pivot], m[r]
        inverse = field_.one / m[r][c]
        m[r] = [x * inverse for x in m[r]]
        for rr in range(rows):
            factor = m[rr][c]
            if rr != r and not vanishes(factor):
                m[rr] = [x - factor * y for x, y in zip(m[rr], m[r], strict=True)]
        pivots.append(c)
        r += 1
    # Rows below the pivots have no unknowns left: each says 0 = rhs.
    conditions = []
    for rr in range(r, rows):
        z = zero(m[rr][n])
        if z is not True:
            # Only for the message (rows that vanish are the norm); never a decision.
            rhs = _tidy(field_.to_sympy(m[rr][n]), back)
        if z is False:
            combo = sum(expr(m[rr][n + 1 + j]) * equations[j] for j in range(rows))
            return LinearSolution(
                "inconsistent",
                f"the equations force 0 = {_shown(rhs)}, which is false",
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
        solution[unknowns[c]] = expr(m[row][n]) - sum(
            expr(m[row][j]) * unknowns[j] for j in range(n) if j not in pivots
        )
    for u in free:
        solution[u] = u
    return LinearSolution("solved", "consistent", solution, free)


# factor() reads exp(k) and exp((1 + 10**-30)*k) as powers of exp(k/10**30), a polynomial of
# degree 10**30: a value holding a number wider than this is shown unfactored.
_FACTOR_MAX_NUMBER_BITS = 64


def _tidy(value: sp.Expr, back: dict[sp.Symbol, sp.Expr]) -> sp.Expr:
    """value in a form to show: factored (over its radicals' symbols, put back afterwards)."""
    if largest_number_bits(value) > _FACTOR_MAX_NUMBER_BITS:
        return value.xreplace(back)
    return sp.factor(value).xreplace(back)


# A right side longer than this is shown as its constant factor, rounded, times the rest.
_SHOWN_CHARACTERS = 60


def _shown(value: sp.Expr) -> str:
    """value for a message: as is when short, else as (rounded constant)·(symbolic factor).

    The rounding is only for reading: the verdict rests on the certified zero test.
    """
    text = show(value)
    if len(text) <= _SHOWN_CHARACTERS:
        return text
    constant, rest = value.as_independent(*value.free_symbols, as_Add=False)
    if constant.free_symbols or constant.is_Rational:
        return text
    try:
        ball = to_arb(constant, {}, 128)
    except CertifiedError:
        return text
    if not isinstance(ball, arb) or ball.contains(0):
        return text
    return ball.str(3, radius=False) + ("" if rest == 1 else f"·{show(rest)}") + " (rounded)"
