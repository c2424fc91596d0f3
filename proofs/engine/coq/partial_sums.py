"""Coq proofs about Σ_j |S_j| at a point, S_j = Σ_{k<=j} z_k: bounds built from one enclosure per term.

RoFormer's average f(r) = (2/d)·Σ_j |S_j(r)| at d = 128 nests a Σ of 64 terms in each of 64
terms: the Interval library, handed f(r) written out, evaluates 2080 cosines and as many sines
(minutes per f). Here each z_k = u_k + i·v_k is enclosed once (interval, 64 + 64 calls), each
|S_j| = sqrt(a² + b²) over the box the summed enclosures give a and b (interval, 64 calls), and
Helpers' partial_sums_abs_bounds adds them up (sum_Rle): about 4 s of coqc per Σ.

The numbers are computed here by flint's ball arithmetic and rounded outward to a grid of 10⁻⁸
(one more grid step on each side, the slack of Interval's own rounding); Coq checks every one.
A Σ is recognised when it reads Σ_{j=a}^{b} sqrt((Σ_{k=0}^{j−a} u_k)² + (Σ_{k=0}^{j−a} v_k)²)
with numeral ends (the printer writes it sum_f_R0 from 0, the inner sums to j).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp
from flint import arb

from proofs.engine.balls import precision
from proofs.engine.certified import to_arb
from proofs.engine.coq.printer import Printer
from proofs.engine.coq.script import NoProofError
from proofs.engine.enclosure import decimal

# The grid the bounds are rounded to, and the precisions: flint's (bits) and Interval's.
GRID = Fraction(1, 10**8)
_BITS = 128
# Interval's precision: 40 bits for the terms (their steps are differences of partial sums up
# to 64, which must come out within a grid step), 30 for the lengths, whose bounds are given a
# slack of _SLACK grid steps (at 30 bits Interval is off by up to 2⁻³⁰·64 ≈ 6·10⁻⁸ there).
_TERMS = "interval with (i_prec 40)"
_LENGTHS = "interval with (i_prec 30)"
_SLACK = 100


@dataclass(frozen=True)
class SumBound:
    """low <= term <= high, where term is the Σ as the goal writes it, closed by `proof`."""

    term: str
    low: Fraction
    high: Fraction
    proof: str

    def assertion(self, name: str) -> str:
        """The Coq sentence that puts the bound in the context as `name`."""
        return (
            f"assert ({name} : {_number(self.low)} <= {self.term} <= {_number(self.high)}) "
            f"by ({self.proof})."
        )


def partial_abs_sums(expr: sp.Basic) -> list[sp.Sum]:
    """The Σs of expr of the form Σ_{j=a}^{b} sqrt((Σ_{k=0}^{j−a} u_k)² + (Σ_{k=0}^{j−a} v_k)²)
    with numeral a and b, in the order the printer meets them, each once."""
    found: list[sp.Sum] = []
    for node in sp.preorder_traversal(expr):
        if isinstance(node, sp.Sum) and _parts(node) is not None and node not in found:
            found.append(node)
    return found


def _parts(total: sp.Sum) -> tuple[sp.Sum, sp.Sum] | None:
    """The two inner Σs (real part first, as printed) of a Σ_j |S_j|, or None."""
    if len(total.limits) != 1:
        return None
    j, a, b = total.limits[0]
    if not (a.is_Integer and b.is_Integer and 0 <= a <= b):
        return None
    body = total.function
    if not (isinstance(body, sp.Pow) and body.exp == sp.Rational(1, 2)):
        return None
    squares = sp.Add.make_args(body.base)
    if len(squares) != 2 or not all(isinstance(s, sp.Pow) and s.exp == 2 for s in squares):
        return None
    inner = tuple(s.base for s in squares)
    for part in inner:
        if not (isinstance(part, sp.Sum) and len(part.limits) == 1):
            return None
        _, low, high = part.limits[0]
        if low != 0 or sp.expand(high - (j - a)) != 0 or j in part.function.free_symbols:
            return None
    return inner[0], inner[1]


def bound(total: sp.Sum, point: Mapping[sp.Symbol, sp.Rational], printer: Printer) -> SumBound:
    """The bound of total (a Σ partial_abs_sums finds) at the point, and its proof; printer
    writes the Σ as the goal has it (the point's values named as the goal writes them)."""
    parts = _parts(total)
    if parts is None:
        raise NoProofError(f"{total} is not a Σ of lengths of partial sums")
    _, a, b = total.limits[0]
    last = int(b - a)
    values = [[_term(part, k, point) for k in range(last + 1)] for part in parts]
    # Each term on the grid, one step outward beyond its ball.
    lows = [[_grid(low, math.floor) - GRID for low, _ in terms] for terms in values]
    highs = [[_grid(high, math.ceil) + GRID for _, high in terms] for terms in values]
    # The partial sums' bounds: exact sums of the terms' (their steps are the terms' bounds).
    sums_low = [[sum(terms[: j + 1]) for j in range(last + 1)] for terms in lows]
    sums_high = [[sum(terms[: j + 1]) for j in range(last + 1)] for terms in highs]
    lengths_low, lengths_high = [], []
    for j in range(last + 1):
        boxes = [(sums_low[p][j], sums_high[p][j]) for p in (0, 1)]
        least = sum(_least_square(lo, hi) for lo, hi in boxes)
        most = sum(max(lo * lo, hi * hi) for lo, hi in boxes)
        # ⌊√(n)⌋ ≤ √n < ⌊√n⌋ + 1 on the grid's squares, widened by Interval's slack.
        lengths_low.append((math.isqrt(math.floor(least / GRID**2)) - _SLACK) * GRID)
        lengths_high.append((math.isqrt(math.ceil(most / GRID**2)) + 1 + _SLACK) * GRID)
    low, high = sum(lengths_low), sum(lengths_high)
    lists = " ".join(
        _list(v)
        for v in (sums_low[0], sums_high[0], sums_low[1], sums_high[1], lengths_low, lengths_high)
    )
    # Each part a small goal (Interval at its two numerals); cbv unfolds the Fixpoints once
    # (a case analysis on k would carry the lists into every case: seconds per case).
    each = "repeat (refine (conj _ _); [{} | ]); exact I"
    proof = (
        f"refine (partial_sums_abs_bounds _ _ {lists} {last} {_number(low)} {_number(high)}"
        + " eq_refl" * 6
        + " _ _ _ _ _); "
        # each term u_k, v_k between its steps: k a numeral, the paper's frequencies unfolded
        # (Interval reads INR of a numeral, not omega)
        f"[cbv [steps_within]; try unfold omega; {each.format(_TERMS)} "
        f"| cbv [steps_within]; try unfold omega; {each.format(_TERMS)} "
        # each |S_j| over its box
        f"| cbv [boxes_within]; {each.format('intros x y Hx Hy; ' + _LENGTHS)} "
        # the sums of the bounds
        "| cbv [sum_f_R0 entry]; lra | cbv [sum_f_R0 entry]; lra]"
    )
    return SumBound(printer.term(total), low, high, proof)


def _term(
    part: sp.Sum, k: int, point: Mapping[sp.Symbol, sp.Rational]
) -> tuple[Fraction, Fraction]:
    """The k-th term of the inner Σ at the point, as an exact interval from its ball."""
    index = part.limits[0][0]
    value = part.function.xreplace({index: sp.Integer(k), **point})
    if value.free_symbols:
        raise NoProofError(f"the term {value} is not a number at the point")
    ball = to_arb(value, {}, _BITS)
    with precision(_BITS):
        mid, rad = _exact(ball.mid()), _exact(ball.rad())
    if rad > GRID / 16:
        raise NoProofError(f"the term {value} has no ball narrower than the grid")
    return mid - rad, mid + rad


def _exact(x: arb) -> Fraction:
    """An exact arb (a midpoint or a radius) as a fraction."""
    man, exp = (int(v) for v in x.man_exp())
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)


def _grid(x: Fraction, rounding) -> Fraction:
    return rounding(x / GRID) * GRID


def _least_square(low: Fraction, high: Fraction) -> Fraction:
    """The least x² for x in [low, high]."""
    return Fraction(0) if low <= 0 <= high else min(low * low, high * high)


def _number(x: Fraction) -> str:
    """x, a multiple of the grid, as a Coq decimal (parenthesized when negative)."""
    text = decimal(sp.Rational(x.numerator, x.denominator), 1)
    return f"({text})" if text.startswith("-") else text


def _list(values: list[Fraction]) -> str:
    return "[" + "; ".join(_number(v) for v in values) + "]"


def linear_range(
    expr: sp.Expr, bounds: Mapping[sp.Sum, SumBound], point: Mapping[sp.Symbol, sp.Rational]
) -> tuple[Fraction, Fraction]:
    """The least and the greatest value of expr at the point, linear in the bounded Σs, when
    each Σ ranges over its bound; NoProofError when expr is not such."""
    stand_ins = {total: sp.Dummy() for total in bounds}
    linear = sp.expand(expr.xreplace(stand_ins).xreplace(dict(point)))
    try:
        poly = sp.Poly(linear, *stand_ins.values())
    except sp.PolynomialError as error:
        raise NoProofError(f"{expr} is not linear in its Σs") from error
    if poly.total_degree() > 1 or not all(c.is_Rational for c in poly.coeffs()):
        raise NoProofError(f"{expr} is not linear in its Σs with rational coefficients")
    least = most = _fraction(poly.coeff_monomial(1))
    for total, symbol in stand_ins.items():
        c = _fraction(poly.coeff_monomial(symbol))
        ends = (c * bounds[total].low, c * bounds[total].high)
        least, most = least + min(ends), most + max(ends)
    return least, most


def _fraction(x: sp.Rational) -> Fraction:
    return Fraction(int(x.p), int(x.q))
