"""Certified evaluation of SymPy expressions in ball arithmetic (python-flint's arb and acb).

Every value computed here is a ball that provably contains the exact value of the expression at
an exact point. Branches follow SymPy's (= mpmath's) principal conventions; a ball that straddles
a branch cut or a discontinuity raises IndeterminateError instead of picking a side, and a
function without a certified translation raises UntranslatableError. Nothing here guesses.

to_arb(expr, point, prec): the ball (or ball matrix) of expr at the point.
certify_difference(lhs, rhs, point): 'differs' (certified), 'agrees' (|lhs - rhs| certified
below an absolute bound that shrinks as the precision rises: evidence of equality, never proof)
or 'unknown', doubling the precision as needed.
is_zero_certified(constant): True only by exact rational arithmetic, False by a ball, else None.

The pieces: proofs.engine.balls (exact values, errors, precision), ball_functions and
ball_operations (what each SymPy head does to a ball), ball_programs (compiled expressions).
Under a time budget, an evaluation that holds a function flint may sit in for minutes (zeta,
gamma, …) runs in a child process killed when the budget ends (proofs.engine.budget).

One module over 400 lines because it is one decision: how a ball of an expression is produced
(within its budget) and what it certifies.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

import sympy as sp
from flint import acb, acb_mat, arb, arb_mat, fmpq

from proofs.engine import budget
from proofs.engine.ball_programs import (
    compiled,
    evaluate,
    expression_symbols,
    inputs,
    matrix_entries,
)
from proofs.engine.balls import (
    PRECISION_CAP,
    PRECISIONS_START,
    Ball,
    CertifiedError,
    IndeterminateError,
    OutOfTimeError,
    UndefinedError,
    UntranslatableError,
    agreement_bound,
    agreement_exponent,
    as_acb,
    precision,
    show,
)
from proofs.engine.unevaluated import differences


def to_arb(
    expr: sp.Basic, point: Mapping[sp.Symbol, object], prec: int
) -> Ball | arb_mat | acb_mat:
    """expr at the exact point (symbol -> Integer, Rational, Float or a + I*b) as a ball.

    prec: working precision in bits. A matrix gives an arb_mat (all entries real) or acb_mat.
    Raises UntranslatableError, IndeterminateError (more bits may help), UndefinedError or OutOfTimeError.
    """
    if isinstance(prec, bool) or not isinstance(prec, int) or prec < 2:
        raise ValueError(f"prec must be an int >= 2 (bits), got {prec!r}")
    entries, shape = matrix_entries(expr)
    try:
        program = compiled(tuple(entries))
        parts = inputs(program.inputs, point)
        if shape is None:
            return _stoppable(entries, prec, lambda: evaluate(program, parts, prec, None)[0])
        values = evaluate(program, parts, prec, None)
    except RecursionError:
        raise UntranslatableError("an expression nested too deeply for SymPy") from None
    rows = [values[r * shape[1] : (r + 1) * shape[1]] for r in range(shape[0])]
    if all(type(v) is arb for v in values):
        return arb_mat(rows)
    return acb_mat([[as_acb(v) for v in row] for row in rows])


Status = Literal["differs", "agrees", "unknown"]


@dataclass(frozen=True)
class Decision:
    """What ball arithmetic says about lhs - rhs at one exact point.

    status 'differs': certified lhs != rhs there (the ball of lhs - rhs excludes 0).
    status 'agrees': the ball of lhs - rhs contains 0 and lies within 2**-(bits/2 + 32) of it,
    so |lhs - rhs| <= 2**-(bits/2 + 32) there: evidence, never proof, of equality, since a
    difference smaller than that looks the same.
    status 'unknown': neither within the precision and time budget; reason says why.
    lhs, rhs: midpoints (decimal); difference: the ball of lhs - rhs; absolute: an upper bound
    of |lhs - rhs|; relative: an upper bound of |lhs - rhs| / max(|lhs|, |rhs|, 1) (for
    reports); bits: the last precision used; entry: the (row, column) of the deciding matrix
    entry. cause (for 'unknown'): "undefined" when a side has no value at the point,
    "untranslatable" when a function has no ball translation, "" otherwise.
    """

    status: Status
    reason: str
    bits: int = 0
    lhs: str = ""
    rhs: str = ""
    difference: str = ""
    relative: float = math.nan
    entry: tuple[int, int] | None = None
    cause: str = ""
    absolute: float = math.nan


def _text(z: Ball, digits: int = 20) -> str:
    if type(z) is arb:
        return z.mid().str(digits, radius=False)
    return f"{_text(z.real, digits)} + {_text(z.imag, digits)}*I"


def _to_float(x: arb) -> float:
    try:
        return float(x.mid())
    except OverflowError:
        return math.inf


def certify_difference(
    lhs: sp.Basic,
    rhs: sp.Basic,
    point: Mapping[sp.Basic, object],
    *,
    start_bits: int = PRECISIONS_START,
    budget_bits: int = PRECISION_CAP,
    deadline: float | None = None,
) -> Decision:
    """Decide lhs - rhs at the exact point by ball arithmetic, doubling the precision as needed.

    The difference is one tree (proofs.engine.unevaluated.difference: the terms common to both
    sides cancelled exactly, nothing re-evaluated), and its ball decides: 'differs' when the ball
    excludes 0, a certificate that lhs != rhs at the point; 'agrees' when the ball lies within
    2**-(bits/2 + 32) of 0 (see Decision), which bounds |lhs - rhs| but never proves it 0. The
    bound is absolute: adding 10**400 to both sides cannot hide a difference. Both sides are
    evaluated as well, so a point where either has no value is 'unknown', cause "undefined".

    lhs, rhs: SymPy scalars or same-shape matrices (compared entrywise). point: each symbol
    (or matrix entry A[i, j]) -> an exact value. start_bits/budget_bits: the first and the
    largest precision in bits. deadline: a time.monotonic() instant to stop at, or None.
    """
    left, shape = matrix_entries(lhs)
    right, other = matrix_entries(rhs)
    if shape != other:
        raise ValueError(f"lhs and rhs must have the same shape, got {shape} and {other}")
    if not left:
        raise ValueError(
            f"lhs and rhs have no entries (shape {shape}): there is nothing to compare"
        )
    if not 2 <= start_bits <= budget_bits:
        raise ValueError(
            f"need 2 <= start_bits <= budget_bits, got start_bits={start_bits}, "
            f"budget_bits={budget_bits}"
        )
    cols = shape[1] if shape else 0
    try:
        program = compiled((*left, *right, *differences(left, right)))
        parts = inputs(program.inputs, point)
    except UntranslatableError as exc:
        return Decision("unknown", str(exc), cause="untranslatable")
    except RecursionError:
        return Decision(
            "unknown", "the expression is nested too deeply to translate", cause="untranslatable"
        )
    bits = start_bits
    reason = ""
    stoppable = deadline is not None and any(side.has(*_SLOW_FUNCTIONS) for side in (*left, *right))
    while bits <= budget_bits:
        if deadline is not None and time.monotonic() > deadline:
            return Decision("unknown", f"the time budget ran out before {bits} bits", bits // 2)

        def attempt(bits: int = bits) -> tuple[Decision | None, str]:
            return _attempt(program, parts, bits, deadline, len(left), cols)

        if stoppable:
            # One call of these can sit in flint for minutes, where no alarm reaches it: it runs
            # in a child process that is killed when the budget ends.
            finished, outcome = budget.run_stoppable(attempt, deadline)
            if not finished:
                return Decision("unknown", f"the time budget ran out at {bits} bits", bits // 2)
            decision, reason = outcome
        else:
            decision, reason = attempt()
        if decision is not None:
            return decision
        bits *= 2
    return Decision("unknown", f"not decided within {budget_bits} bits ({reason})", bits // 2)


# Functions whose cost in flint grows fast with the precision or the argument (zeta at
# 1/2 + 10^8 i: 1.6 s at 2048 bits, minutes at 16384; at 1/2 + 10^14 i, 3.5 s at 64 bits).
_SLOW_FUNCTIONS = (
    sp.zeta,
    sp.gamma,
    sp.loggamma,
    sp.factorial,
    sp.binomial,
    sp.RisingFactorial,
    sp.FallingFactorial,
    sp.Ei,
    sp.li,
    sp.erf,
    sp.erfc,
    sp.erfi,
    sp.erfinv,
    sp.erfcinv,
    sp.elliptic_k,
    sp.elliptic_e,
    sp.elliptic_f,
    sp.elliptic_pi,
)


def _attempt(
    program, parts: list[tuple], bits: int, deadline: float | None, n: int, cols: int
) -> tuple[Decision | None, str]:
    """One evaluation at bits: a Decision that ends the search, or (None, why more bits may
    help)."""
    try:
        values = evaluate(program, parts, bits, deadline)
    except IndeterminateError as exc:
        return None, f"at {bits} bits: {exc}"
    except UndefinedError as exc:
        return Decision("unknown", str(exc), bits, cause="undefined"), ""
    except UntranslatableError as exc:
        return Decision("unknown", str(exc), bits, cause="untranslatable"), ""
    except OutOfTimeError as exc:
        return Decision("unknown", str(exc), bits), ""
    except RecursionError:
        return Decision("unknown", "the expression is nested too deeply to evaluate", bits), ""
    with precision(bits):
        return _decide(values, n, cols, bits)


def _decide(values: list, n: int, cols: int, bits: int) -> tuple[Decision | None, str]:
    """A Decision when every entry is decided at this precision, else (None, why not).

    values: the n lhs entries, the n rhs entries, then the n differences; cols: the matrix
    width, 0 for a scalar.
    """
    bound = agreement_bound(bits)
    worst = worst_relative = 0.0
    undecided = ""
    for k in range(n):
        a, b, d = values[k], values[n + k], values[2 * n + k]
        entry = divmod(k, cols) if cols else None
        size = d.abs_upper()
        scale = arb.max(arb.max(a.abs_lower(), b.abs_lower()), arb(1))
        relative = _to_float(size / scale)
        if not d.contains(0):
            return Decision(
                "differs",
                f"lhs - rhs = {show(d)} excludes 0 at {bits} bits",
                bits,
                _text(a),
                _text(b),
                show(d),
                relative,
                entry,
                absolute=_to_float(size),
            ), ""
        if size <= bound:
            worst = max(worst, _to_float(size))
            worst_relative = max(worst_relative, relative)
        elif not undecided:
            where = f" (entry {entry[0]},{entry[1]})" if entry else ""
            undecided = (
                f"lhs - rhs = {show(d)}{where} contains 0 but is not yet within "
                f"2^-{agreement_exponent(bits)} of it"
            )
    if undecided:
        return None, undecided
    where = f"all {n} entries" if n > 1 else "lhs - rhs"
    return Decision(
        "agrees",
        f"{where} certified within 2^-{agreement_exponent(bits)} of 0 at {bits} bits",
        bits,
        _text(values[0]),
        _text(values[n]),
        show(values[2 * n]),
        worst_relative,
        absolute=worst,
    ), ""


def is_zero_certified(expr: sp.Expr, *, budget_bits: int = 2048) -> bool | None:
    """The certified zero test for a constant: True, False, or None (undecided).

    True only when expr is 0 by exact rational arithmetic (its leaves are Integers, Rationals or
    Floats, combined by +, * and integer powers); a ball can never prove that a non-rational
    constant is exactly 0. False when a ball of expr excludes 0 (at up to budget_bits bits).
    None otherwise: sqrt(3 + 2*sqrt(2)) - 1 - sqrt(2) is 0 but comes back None.
    """
    if isinstance(expr, bool) or not isinstance(expr, sp.Expr | int):
        raise TypeError(f"expected a SymPy expression, got {type(expr).__name__}")
    expr = sp.Integer(expr) if isinstance(expr, int) else expr
    try:
        symbols = expression_symbols([expr])
    except RecursionError:
        return None
    if symbols:
        names = ", ".join(str(s) for s in symbols)
        raise ValueError(f"is_zero_certified takes a constant; this one has symbols {names}")
    try:
        exact = _exact_rational(expr)
    except RecursionError:
        exact = None
    if exact is not None:
        return exact == 0
    bits = 128
    while bits <= budget_bits:
        try:
            program = compiled((expr,))
            value = _stoppable([expr], bits, lambda p=program, b=bits: evaluate(p, [], b, None)[0])
        except IndeterminateError:
            bits *= 2
            continue
        except (CertifiedError, RecursionError):
            return None
        with precision(bits):
            if not value.contains(0):
                return False
        bits *= 2
    return None


def _stoppable(exprs: list[sp.Basic], bits: int, work: Callable[[], Ball]) -> Ball:
    """work(), a ball of exprs: inline, or, when they hold a slow function and a budget is in
    force, in a child process killed at the budget's end (OutOfTimeError then). The ball comes
    back through its decimal text, which arb prints as an interval containing it and parses as
    a ball containing that: wider, never wrong."""
    end = budget.deadline()
    if end is None or not any(e.has(*_SLOW_FUNCTIONS) for e in exprs):
        return work()
    finished, outcome = budget.run_stoppable(lambda: _as_text(work, bits), end)
    if not finished:
        raise OutOfTimeError("the time budget ran out during an evaluation")
    kind, *found = outcome
    if kind == "ball":
        with precision(bits):
            return _from_text(*found)
    error = {cls.__name__: cls for cls in _ERRORS}[found[0]]
    raise error.__new__(error, found[1]) from None


_ERRORS = (IndeterminateError, UndefinedError, UntranslatableError, OutOfTimeError, CertifiedError)


def _as_text(work: Callable[[], Ball], bits: int) -> tuple:
    """("ball", real text, imaginary text or None), or ("error", kind, message): picklable."""
    try:
        value = work()
    except CertifiedError as exc:
        return "error", type(exc).__name__, str(exc)
    digits = int(bits * 0.302) + 10
    if type(value) is arb:
        return "ball", value.str(digits, radius=True, more=True), None
    re, im = (part.str(digits, radius=True, more=True) for part in (value.real, value.imag))
    return "ball", re, im


def _from_text(re: str, im: str | None) -> Ball:
    return arb(re) if im is None else acb(arb(re), arb(im))


# Exact rational evaluation stops at powers this large (2**(10**9) must not be computed).
_MAX_EXACT_EXPONENT = 10**4


def _exact_rational(expr: sp.Expr) -> fmpq | None:
    """expr by exact rational arithmetic, or None if it is not a rational expression."""
    done: dict[sp.Basic, fmpq] = {}
    stack: list[tuple[sp.Basic, bool]] = [(expr, False)]
    while stack:
        node, ready = stack.pop()
        if node in done:
            continue
        if node.is_Rational:
            done[node] = fmpq(int(node.p), int(node.q))
            continue
        if node.is_Float:
            sign, man, exp, _ = node._mpf_
            if not man and node._mpf_ != (0, 0, 0, 0):
                return None
            m = fmpq(-int(man) if sign else int(man))
            done[node] = m * fmpq(2) ** int(exp) if exp >= 0 else m / fmpq(2) ** int(-exp)
            continue
        if node.is_Pow:
            if not node.exp.is_Integer or abs(int(node.exp)) > _MAX_EXACT_EXPONENT:
                return None
            kids = (node.base,)
        elif node.is_Add or node.is_Mul:
            kids = node.args
        else:
            return None
        if not ready:
            stack.append((node, True))
            stack.extend((k, False) for k in kids)
            continue
        if node.is_Pow:
            base, n = done[node.base], int(node.exp)
            if n < 0 and base == 0:
                return None  # 0**-n is zoo, not a number
            done[node] = base**n
        elif node.is_Add:
            done[node] = sum((done[k] for k in kids), fmpq(0))
        else:
            out = fmpq(1)
            for k in kids:
                out *= done[k]
            done[node] = out
    return done[expr]
