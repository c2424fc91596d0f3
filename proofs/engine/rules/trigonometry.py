"""The trigonometric rules: angle addition and subtraction, parity, the Pythagorean identity,
the periods, multiple and common angles. Each rewrites sin, cos (and their hyperbolic cousins)
where its pattern appears, and builds what it writes without SymPy's evaluation, so it does its
own work and nothing more.
"""

from __future__ import annotations

import functools
import math

import sympy as sp

from proofs.engine.rules.normal_form import Atoms
from proofs.engine.rules.rule import CoqPlan, Diagnosis, Round, Rule, bottom_up

# An argument with more terms than this is left whole: splitting a sum of n angles writes 2^(n-1)
# products.
_MAX_TERMS = 8
# sin(n·x) is written in sin x and cos x only for n up to this (sin(10**100·x) never would be).
_MAX_MULTIPLE = 12

_CIRCULAR = (sp.sin, sp.cos)
_HYPERBOLIC = (sp.sinh, sp.cosh)


def _terms(argument: sp.Expr) -> list[sp.Expr]:
    """The additive terms of argument multiplied out, its atoms (functions, powers) as written."""
    atoms = Atoms()
    return [atoms.expression(t) for t in sp.Add.make_args(atoms.polynomial(argument))]


def _negated(term: sp.Expr) -> sp.Expr | None:
    """−term when term carries a minus sign (−k·ω), else None."""
    return -term if term.could_extract_minus_sign() else None


def _sin_cos(function: type) -> tuple[type, type]:
    return (sp.sin, sp.cos) if function in _CIRCULAR else (sp.sinh, sp.cosh)


def _split(function: type, terms: list[sp.Expr], subtract: bool) -> sp.Expr:
    """function(t_1 + … + t_n) written with the addition formulas, the last term split off first;
    with subtract, a last term −b is split off with the subtraction formulas instead."""
    s, c = _sin_cos(function)
    if len(terms) == 1:
        return function(terms[0], evaluate=False)
    rest, last = terms[:-1], terms[-1]
    # cos(a ± b) = cos a cos b ∓ sin a sin b, but cosh(a ± b) = cosh a cosh b ± sinh a sinh b.
    circular = s is sp.sin
    minus = _negated(last) if subtract else None
    b, sign = (minus, -1) if minus is not None else (last, 1)
    s_r, c_r = _split(s, rest, subtract), _split(c, rest, subtract)
    s_b, c_b = s(b, evaluate=False), c(b, evaluate=False)
    if function is s:
        return s_r * c_b + sign * c_r * s_b
    return c_r * c_b + (-sign if circular else sign) * s_r * s_b


def _addition(expr: sp.Basic, subtract: bool) -> sp.Basic:
    def at(e: sp.Basic) -> sp.Basic:
        if isinstance(e, _CIRCULAR + _HYPERBOLIC):
            terms = _terms(e.args[0])
            if 1 < len(terms) <= _MAX_TERMS:
                return _split(e.func, terms, subtract)
        return e

    return bottom_up(expr, at)


def angle_addition(expr: sp.Basic) -> sp.Basic:
    """sin(a + b) = sin a cos b + cos a sin b, cos(a + b) = cos a cos b − sin a sin b (and
    sinh, cosh), for every argument that is a sum once multiplied out.

    >>> a, b = sp.symbols("a b")
    >>> angle_addition(sp.sin(a + b))
    sin(a)*cos(b) + sin(b)*cos(a)
    >>> angle_addition(sp.cos((a + b)*2))
    -sin(2*a)*sin(2*b) + cos(2*a)*cos(2*b)
    """
    return _addition(expr, subtract=False)


def angle_subtraction(expr: sp.Basic) -> sp.Basic:
    """cos(a − b) = cos a cos b + sin a sin b, sin(a − b) = sin a cos b − cos a sin b: a term
    with a minus sign is written with the subtraction formulas (other terms with addition).

    >>> a, b = sp.symbols("a b")
    >>> angle_subtraction(sp.cos(a - b))
    sin(a)*sin(b) + cos(a)*cos(b)
    """
    return _addition(expr, subtract=True)


def parity(expr: sp.Basic) -> sp.Basic:
    """cos(−x) = cos x, sin(−x) = −sin x (and cosh, sinh, tan): the minus sign comes out.

    >>> x = sp.Symbol("x")
    >>> parity(sp.cos(-x, evaluate=False) + sp.sin(-x, evaluate=False))
    -sin(x) + cos(x)
    """

    def at(e: sp.Basic) -> sp.Basic:
        if isinstance(e, sp.sin | sp.cos | sp.tan | sp.sinh | sp.cosh | sp.tanh):
            inner = _negated(e.args[0])
            if inner is not None:
                even = isinstance(e, sp.cos | sp.cosh)
                flipped = e.func(inner, evaluate=False)
                return flipped if even else -flipped
        return e

    return bottom_up(expr, at)


def pythagorean(expr: sp.Basic) -> sp.Basic:
    """cos²x = 1 − sin²x and cosh²x = 1 + sinh²x, in every power of cos x (and cosh x) once the
    expression is multiplied out: so sin²x + cos²x = 1.

    >>> x = sp.Symbol("x")
    >>> pythagorean((sp.sin(x) + sp.cos(x))**2)
    2*sin(x)*cos(x) + 1
    """
    if isinstance(expr, sp.Tuple):
        return sp.Tuple(*(pythagorean(e) for e in expr))
    if isinstance(expr, sp.MatrixBase):
        rows, cols = expr.shape
        return sp.ImmutableMatrix(rows, cols, [pythagorean(e) for e in expr])
    if not isinstance(expr, sp.Expr) or isinstance(expr, sp.MatrixExpr):
        return expr
    atoms = Atoms()
    polynomial = atoms.polynomial(expr)
    squares = {}
    for dummy, atom in list(atoms.original.items()):
        if isinstance(atom, sp.cos | sp.cosh):
            partner = sp.sin if isinstance(atom, sp.cos) else sp.sinh
            sign = -1 if isinstance(atom, sp.cos) else 1
            other = atoms.polynomial(partner(atom.args[0], evaluate=False))
            squares[dummy] = (other, sign)
    if not squares:
        return expr

    def reduce(term: sp.Expr) -> sp.Expr:
        # Only the commutative factors are regrouped by base; the others keep their order
        # (as_powers_dict would write p·q·p as p²·q).
        commuting, in_order = term.args_cnc()
        factors = []
        for base, exp in sp.Mul(*commuting).as_powers_dict().items():
            if base in squares and exp.is_Integer and exp >= 2:
                other, sign = squares[base]
                half, odd = divmod(int(exp), 2)
                factors.append((1 + sign * other**2) ** half * base**odd)
            else:
                factors.append(base**exp)
        return sp.Mul(*factors) * sp.Mul(*in_order)

    reduced = sp.expand(sp.Add(*(reduce(t) for t in sp.Add.make_args(polynomial))))
    return atoms.expression(reduced)


def is_integer_multiple(m: sp.Expr, n: int = 1) -> bool:
    """Whether m is n times an integer, read off its structure: a rational number, or an integer
    coefficient (a multiple of n) times symbols declared integer. Never SymPy's is_integer on a
    number, which may evaluate it in floating point.

    >>> k = sp.Symbol("k", integer=True)
    >>> is_integer_multiple(4 * k, 2), is_integer_multiple(k, 2), is_integer_multiple(sp.Rational(6, 3), 2)
    (True, False, True)
    """
    if m.is_Rational:
        return (m / n).is_Integer
    coefficient, rest = m.as_coeff_Mul()
    factors = sp.Mul.make_args(rest)
    return (
        coefficient.is_Integer
        and int(coefficient) % n == 0
        and all(isinstance(f, sp.Symbol) and f.is_integer is True for f in factors)
    )


def _pi_multiples(argument: sp.Expr) -> tuple[list[sp.Expr], list[sp.Expr]]:
    """The terms of argument split into (multiples m·π, m free of π; the other terms)."""
    multiples, rest = [], []
    for term in _terms(argument):
        m = term / sp.pi
        (multiples if term.has(sp.pi) and not m.has(sp.pi) else rest).append(term)
    return multiples, rest


def period(expr: sp.Basic) -> sp.Basic:
    """sin and cos have period 2π: sin(x + 2πn) = sin x for every integer n (cos likewise);
    a rational multiple of π is reduced into [0, 2π).

    >>> x, n = sp.Symbol("x"), sp.Symbol("n", integer=True)
    >>> period(sp.sin(sp.Add(x, 2*sp.pi*n, evaluate=False), evaluate=False))
    sin(x)
    >>> period(sp.cos(sp.Add(x, 5*sp.pi, evaluate=False), evaluate=False))
    cos(x + pi)
    """

    def at(e: sp.Basic) -> sp.Basic:
        if not isinstance(e, _CIRCULAR):
            return e
        multiples, rest = _pi_multiples(e.args[0])
        kept, changed = [], False
        for term in multiples:
            m = term / sp.pi
            if is_integer_multiple(m, 2):
                changed = True
            elif m.is_Rational and not 0 <= m < 2:
                kept.append((m - 2 * math.floor(m / 2)) * sp.pi)
                changed = True
            else:
                kept.append(term)
        if not changed:
            return e
        return e.func(sp.Add(*rest, *kept), evaluate=False)

    return bottom_up(expr, at)


def half_period(expr: sp.Basic) -> sp.Basic:
    """sin(x + nπ) = (−1)ⁿ sin x and cos(x + nπ) = (−1)ⁿ cos x for every integer n; so
    sin(nπ) = 0 and cos(nπ) = (−1)ⁿ.

    >>> x, n = sp.Symbol("x"), sp.Symbol("n", integer=True)
    >>> half_period(sp.sin(sp.Add(x, sp.pi*n, evaluate=False), evaluate=False))
    (-1)**n*sin(x)
    """

    def at(e: sp.Basic) -> sp.Basic:
        if not isinstance(e, _CIRCULAR):
            return e
        multiples, rest = _pi_multiples(e.args[0])
        turns = [t / sp.pi for t in multiples if is_integer_multiple(t / sp.pi)]
        if not turns:
            return e
        others = [t for t in multiples if not is_integer_multiple(t / sp.pi)]
        left = sp.Add(*rest, *others)
        sign = sp.Pow(-1, sp.Add(*turns))
        if left == 0:
            return sp.Integer(0) if isinstance(e, sp.sin) else sign
        return sign * e.func(left, evaluate=False)

    return bottom_up(expr, at)


@functools.lru_cache(maxsize=64)
def _multiples(n: int) -> tuple[sp.Expr, sp.Expr]:
    """(sin nx, cos nx) as polynomials in s = sin x, c = cos x, by the addition formulas."""
    s, c = _S, _C
    if n == 1:
        return s, c
    sin_before, cos_before = _multiples(n - 1)
    return sp.expand(sin_before * c + cos_before * s), sp.expand(cos_before * c - sin_before * s)


_S, _C = sp.symbols("s c")


def multiple_angle(expr: sp.Basic) -> sp.Basic:
    """sin(n·x) and cos(n·x) for an integer 2 ≤ n ≤ 12, written in sin x and cos x (the
    addition formulas n − 1 times): sin 2x = 2 sin x cos x.

    >>> x = sp.Symbol("x")
    >>> multiple_angle(sp.sin(2*x))
    2*sin(x)*cos(x)
    """

    def at(e: sp.Basic) -> sp.Basic:
        if isinstance(e, _CIRCULAR):
            n, x = e.args[0].as_coeff_Mul()
            if n.is_Integer and 2 <= n <= _MAX_MULTIPLE:
                sin_n, cos_n = _multiples(int(n))
                polynomial = sin_n if isinstance(e, sp.sin) else cos_n
                return polynomial.xreplace(
                    {_S: sp.sin(x, evaluate=False), _C: sp.cos(x, evaluate=False)}
                )
        return e

    return bottom_up(expr, at)


def common_angle(expr: sp.Basic) -> sp.Basic:
    """Angles in rational ratio written over their common angle g·x, g the rational gcd of
    their coefficients: beside sin(x/2), sin(x) is sin(2·(x/2)) = 2 sin(x/2) cos(x/2), and
    beside sin(10⁶x), sin(2·10⁶x) is 2 sin(10⁶x) cos(10⁶x). Only where every multiple of the
    common angle is at most 12.

    >>> x = sp.Symbol("x")
    >>> common_angle(sp.Tuple(sp.sin(x), sp.sin(x/2)))
    (2*sin(x/2)*cos(x/2), sin(x/2))
    >>> common_angle(sp.Tuple(sp.sin(2000000*x), sp.sin(1000000*x)))
    (2*sin(1000000*x)*cos(1000000*x), sin(1000000*x))
    """
    multiples: dict[sp.Expr, dict[sp.Basic, sp.Rational]] = {}
    for f in expr.atoms(*_CIRCULAR):
        c, x = f.args[0].as_coeff_Mul()
        # Positive multiples only: a minus sign is the parity rule's work.
        if c.is_Rational and c > 0:
            multiples.setdefault(x, {})[f] = c
    rewritten = {}
    for x, angles in multiples.items():
        if len(set(angles.values())) < 2:
            continue
        # The rational gcd of the coefficients: gcd of the numerators over lcm of denominators.
        g = sp.Rational(
            math.gcd(*(abs(c.p) for c in angles.values())),
            math.lcm(*(c.q for c in angles.values())),
        )
        if g == 1 or max(abs(c / g) for c in angles.values()) > _MAX_MULTIPLE:
            continue
        y = sp.Dummy("y")
        # g·x multiplied out would round a Float in x (2/3 · 0.1 to 53 bits): kept as a product.
        angle = sp.Mul(g, x, evaluate=False) if x.has(sp.Float) else g * x
        for f, c in angles.items():
            rewritten[f] = multiple_angle(f.func((c / g) * y)).xreplace(
                {sp.sin(y): sp.sin(angle, evaluate=False), sp.cos(y): sp.cos(angle, evaluate=False)}
            )
    return expr.xreplace(rewritten) if rewritten else expr


ANGLE_ADDITION = Rule(
    "angle_addition",
    "angle addition",
    angle_addition,
    search=Round(1, 80),
    diagnosis=Diagnosis(alone=80, then=((140, "pythagorean"), (150, "parity"))),
    coq="repeat first [rewrite sin_plus | rewrite cos_plus]",
    coq_plan=CoqPlan.ANGLE_SUM,
)
ANGLE_SUBTRACTION = Rule(
    "angle_subtraction",
    "angle subtraction",
    angle_subtraction,
    diagnosis=Diagnosis(alone=130),
    coq="repeat first [rewrite sin_minus | rewrite cos_minus | rewrite sin_plus | rewrite cos_plus]",
    coq_plan=CoqPlan.ANGLE_DIFFERENCE,
)
PARITY = Rule(
    "parity",
    "parity",
    parity,
    search=Round(1, 100),
    diagnosis=Diagnosis(alone=100),
    coq="rewrite ?sin_neg, ?cos_neg",
    coq_plan=CoqPlan.NEGATED_ANGLE,
)
# Round 2: writing every power of a cosine through sines multiplies the expression out, the
# dearest rewrite; the other rules first get a round without it.
PYTHAGOREAN = Rule(
    "pythagorean",
    "Pythagorean identity",
    pythagorean,
    search=Round(2, 110),
    diagnosis=Diagnosis(alone=110),
    coq="rewrite !pyth",
    coq_plan=CoqPlan.CERTIFICATE,
)
PERIOD = Rule(
    "period",
    "period 2π",
    period,
    search=Round(1, 50),
    diagnosis=Diagnosis(alone=50),
    coq="rewrite ?sin_period_Z, ?cos_period_Z",
    coq_plan=CoqPlan.FULL_TURNS,
)
HALF_PERIOD = Rule(
    "half_period",
    "half period: sin(x + nπ) = (−1)ⁿ sin x",
    half_period,
    search=Round(1, 60),
    diagnosis=Diagnosis(alone=60),
    coq="rewrite ?sin_half_period, ?cos_half_period",
    coq_plan=CoqPlan.HALF_TURNS,
)
MULTIPLE_ANGLE = Rule(
    "multiple_angle",
    "multiple angle",
    multiple_angle,
    search=Round(1, 90),
    diagnosis=Diagnosis(alone=90),
    coq="repeat first [rewrite sin_plus | rewrite cos_plus]",
    coq_plan=CoqPlan.ANGLE_MULTIPLE,
)
COMMON_ANGLE = Rule(
    "common_angle",
    "common angle",
    common_angle,
    joint=True,
    search=Round(1, 70),
    diagnosis=Diagnosis(alone=70),
    coq="repeat first [rewrite sin_plus | rewrite cos_plus]",
    coq_plan=CoqPlan.ANGLE_MULTIPLE,
)
