"""The symbolic half of a link check: reduce lhs - rhs to exactly 0, entry by entry.

The reductions are tried cheapest first, and the first that reaches 0 names the rule.
Reaching 0 is the only way to pass. The exact reductions (expand, angle addition, cancel, ...)
rewrite by exact algebra; trigsimp and simplify may also evaluate numbers in floating point
(simplify(acosh(1 + 10**-20)) is 0), so a zero they reach is only a candidate, which the link
check must confirm by certified evaluation (``needs_confirmation``). A difference that an exact
reduction turns into a constant is decided by the certified zero test: a ball that excludes 0 is
a certificate that the link is false at every point; anything else is inconclusive.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp

from proofs.engine.budget import stage
from proofs.engine.show import show
from proofs.engine.zero_test import decide_constant

# expand_trig(sin(n*x)) builds a polynomial of degree n in sin(x) and cos(x); integer multiples
# above this are left whole (sin(10**100*x) would never finish).
_MAX_MULTIPLE = 12
# simplify() can take minutes on large expressions; beyond this many operations it is skipped
# and the entry is reported inconclusive rather than hanging the run.
_SIMPLIFY_MAX_OPS = 400


def _expand(d: sp.Expr) -> sp.Expr:
    return sp.expand(d)


_TRIG = (sp.sin, sp.cos, sp.tan, sp.cot, sp.sinh, sp.cosh, sp.tanh, sp.coth)


# The Pythagorean identity and trigsimp both start from the angle-addition form of the same
# difference: computed once per difference.
@functools.lru_cache(maxsize=512)
def _angle_addition(d: sp.Expr) -> sp.Expr:
    # expand first so sin((pos + k)*w) becomes sin(pos*w + k*w), which expand_trig can split.
    d = sp.expand(d)
    # Only an integer multiple of a term is expanded (10000 in 10000**(2i/d) is not one).
    big = {
        n
        for f in d.atoms(*_TRIG)
        for term in sp.Add.make_args(f.args[0])
        for n in (term.as_coeff_Mul()[0],)
        if n.is_Integer and abs(int(n)) > _MAX_MULTIPLE
    }
    if not big:
        return _common_angle(sp.expand(sp.expand_trig(d)))
    # A large integer stands in as a symbol while the angles are split, so expand_trig splits
    # sums but does not expand sin(n*x) as a polynomial in sin(x) and cos(x).
    stand_in = {n: sp.Dummy(integer=True) for n in big}
    split = sp.expand(sp.expand_trig(d.xreplace(stand_in)))
    return _common_angle(sp.expand(split.xreplace({v: n for n, v in stand_in.items()})))


def _common_angle(d: sp.Expr) -> sp.Expr:
    # sin(x) and sin(x/2) in one difference are unrelated to expand_trig; written over the
    # common angle y = x/2 they become sin(2y) and sin(y), which it does relate. Exact: each
    # angle c·x is rewritten as (c·q)·y with y = x/q, and y put back afterwards.
    multiples: dict[sp.Expr, dict[sp.Basic, sp.Rational]] = {}
    for f in d.atoms(*_TRIG):
        c, x = f.args[0].as_coeff_Mul()
        if c.is_Rational:
            multiples.setdefault(x, {})[f] = c
    common, back = {}, {}
    for x, angles in multiples.items():
        q = math.lcm(*(c.q for c in angles.values()))
        if (
            q == 1
            or len(set(angles.values())) < 2
            or max(abs(c * q) for c in angles.values()) > _MAX_MULTIPLE
        ):
            continue
        y = sp.Dummy("y")
        common.update({f: f.func(angles[f] * q * y) for f in angles})
        back[y] = x / q
    if not common:
        return d
    return sp.expand(sp.expand(sp.expand_trig(d.xreplace(common))).xreplace(back))


def _cancel(d: sp.Expr) -> sp.Expr:
    return sp.cancel(sp.together(sp.expand(d)))


def _cos_squared(d: sp.Expr) -> sp.Expr:
    # cos(x)**2 = 1 - sin(x)**2 and cosh(x)**2 = 1 + sinh(x)**2 hold for every complex x, so
    # after angle addition a Pythagorean identity becomes a polynomial identity in the sines:
    # much cheaper than trigsimp.
    def rewrite(power: sp.Pow) -> sp.Expr:
        half, odd = divmod(int(power.exp), 2)
        x = power.base.args[0]
        if isinstance(power.base, sp.cos):
            return (1 - sp.sin(x) ** 2) ** half * sp.cos(x) ** odd
        return (1 + sp.sinh(x) ** 2) ** half * sp.cosh(x) ** odd

    expanded = _angle_addition(d)
    return sp.expand(
        expanded.replace(
            lambda e: (
                e.is_Pow
                and isinstance(e.base, sp.cos | sp.cosh)
                and e.exp.is_Integer
                and e.exp >= 2
            ),
            rewrite,
        )
    )


def _pythagorean(d: sp.Expr) -> sp.Expr:
    return sp.expand(sp.trigsimp(_angle_addition(d)))


def _sum_termwise(d: sp.Expr) -> sp.Expr:
    # Σ a − Σ b over the same range is Σ (a − b): merge such sums and reduce the summand, which
    # is far cheaper than trigsimp or simplify on the sums themselves. Sums left over are done
    # (Σ_{i=0}^{n-1} 1 = n) where SymPy can.
    if not d.has(sp.Sum):
        return d
    groups: dict[tuple, list[sp.Expr]] = {}
    rest = []
    for term in sp.Add.make_args(sp.expand(d)):
        factors = sp.Mul.make_args(term)
        sums = [f for f in factors if isinstance(f, sp.Sum)]
        if len(sums) != 1:
            rest.append(term)
            continue
        (the_sum,) = sums
        coeff = sp.Mul(*(f for f in factors if f is not the_sum))
        if coeff.free_symbols & set(the_sum.variables):
            rest.append(term)  # moving coeff inside would capture the summation index
            continue
        groups.setdefault(the_sum.limits, []).append(coeff * the_sum.function)
    out = list(rest)
    for limits, summands in groups.items():
        summand = sp.Add(*summands)
        # Exact reductions only: a zero reached here is not confirmed numerically.
        for reduce in (_expand, _angle_addition, _cos_squared, _cancel):
            summand = reduce(summand)
            if summand == 0:
                break
        if summand != 0:
            remainder = sp.Sum(summand, *limits)
            out.append(remainder.doit() if _summable(summand, limits) else remainder)
    return sp.expand(sp.Add(*out))


# A Sum with more terms than this is never written out term by term (SymPy would loop over all
# 10**12 terms of Sum(f(i), (i, 1, 10**12)) in Python).
_MAX_DIRECT_TERMS = 10_000


def _summable(summand: sp.Expr, limits: tuple) -> bool:
    """Whether doit() may evaluate this sum quickly: at most _MAX_DIRECT_TERMS numeric terms, or
    symbolic bounds with a summand polynomial or hypergeometric in each index (Σ 1 = n,
    Σ i = n(n - 1)/2, Σ 2^i = 2^n - 1).

    Other closed forms are not tried: for Σ cos(k·10000^(-2i/d)) SymPy searches for 25 s.
    """
    count = 1
    for _, low, high in limits:
        span = high - low
        if not span.is_Integer:
            return all(
                summand.is_polynomial(index) or summand.is_hypergeometric(index)
                for index, _, _ in limits
            )
        count *= max(int(span) + 1, 0)
    return count <= _MAX_DIRECT_TERMS


_INVERSE_HYPERBOLIC = (sp.asinh, sp.acosh, sp.atanh, sp.acoth, sp.asech, sp.acsch)


def _log_form(d: sp.Expr) -> sp.Expr:
    # SymPy defines the inverse hyperbolic functions on their principal branches by these
    # logarithms (acosh(z) = log(z + sqrt(z - 1)*sqrt(z + 1))): rewriting is exact. expand_log
    # splits log(a*b) only where a and b are positive, where it is exact too.
    if d.has(*_INVERSE_HYPERBOLIC):
        d = sp.expand(d.rewrite(sp.log))
    return sp.expand(sp.expand_log(d)) if d.has(sp.log) else d


def _simplify(d: sp.Expr) -> sp.Expr:
    if sp.count_ops(d) > _SIMPLIFY_MAX_OPS:
        return d
    return sp.simplify(d)


EXACT_REDUCTIONS: tuple[tuple[str, Callable[[sp.Expr], sp.Expr]], ...] = (
    ("identical", lambda d: d),
    ("expand", _expand),
    ("angle addition", _angle_addition),
    ("Pythagorean identity", _cos_squared),
    # Before cancel: cancel cannot see into a Sum, and is slow on one.
    ("sum termwise", _sum_termwise),
    ("rational cancel", _cancel),
    ("logarithmic form", _log_form),
)
# These may evaluate numbers in floating point on the way: a zero they reach needs confirmation.
UNCERTIFIED_REDUCTIONS: tuple[tuple[str, Callable[[sp.Expr], sp.Expr]], ...] = (
    ("trigsimp", _pythagorean),
    ("simplify", _simplify),
)
REDUCTIONS = EXACT_REDUCTIONS + UNCERTIFIED_REDUCTIONS
UNCERTIFIED_RULES = frozenset(name for name, _ in UNCERTIFIED_REDUCTIONS)


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

    @property
    def needs_confirmation(self) -> bool:
        """True when a zero was reached by a reduction that may have evaluated numbers."""
        return bool(self.passed) and any(r in UNCERTIFIED_RULES for r in self.rule.split(", "))

    def summary(self) -> str:
        """A short human-readable line."""
        if self.passed:
            return f"symbolic ✓ {self.rule}"
        if self.passed is False:
            return f"symbolic ✗ lhs - rhs = {show(self.residue)}, a nonzero constant"
        return f"symbolic ? lhs - rhs did not reduce to 0 (left: {show(self.residue)[:80]})"


def reduce_exactly(difference: sp.Expr) -> sp.Expr:
    """The first exact reduction of difference that reaches 0, or else the shortest result."""
    results = []
    for _, reduce in EXACT_REDUCTIONS:
        results.append(reduce(difference))
        if results[-1] == 0:
            break
    return min(results, key=sp.count_ops)


def reduce_to_zero(
    difference: sp.Expr, *, thorough: bool = True
) -> tuple[str | None, sp.Expr, bool | None]:
    """Try each reduction on difference: (rule, 0, True) on success, else (None, last, False)
    when an exact reduction left a certified nonzero constant, else (None, last, None).

    thorough=False skips trigsimp and simplify, which can take minutes and, as their zeros need
    confirmation anyway, add nothing once a point has refuted the claim.
    """
    last = difference
    tried: set[sp.Expr] = set()
    with stage("symbolic reduction"):
        for name, reduce in EXACT_REDUCTIONS:
            with stage(f"symbolic reduction ({name})"):
                last = reduce(difference)
            if last == 0:
                return name, last, True
            if not last.free_symbols and last.is_number and last not in tried:
                tried.add(last)
                with stage("certified zero test of a constant"):
                    zero, how = decide_constant(last)
                if zero is False:
                    return None, last, False
                if zero:
                    return f"{name}, then {how}", sp.Integer(0), True
        # A constant is left to the certified zero test above: trigsimp and simplify can run for
        # minutes on one (cos(pi/7) + cos(3*pi/7) + cos(5*pi/7) - 1/2 - 10**-700).
        constant = not difference.free_symbols
        uncertified = UNCERTIFIED_REDUCTIONS if thorough and not constant else ()
        for name, reduce in uncertified:
            with stage(f"symbolic reduction ({name})"):
                candidate = reduce(difference)
            if candidate == 0:
                return name, candidate, True
    return None, last, None


def check_symbolic(lhs: sp.Basic, rhs: sp.Basic, *, thorough: bool = True) -> SymbolicResult:
    """Reduce lhs - rhs (scalars or same-shape matrices) entry by entry to 0.

    thorough=False skips trigsimp and simplify(): for a link already refuted at a point, where only a
    cheap certificate (a nonzero constant difference) is still of interest.
    """
    difference = sp.Matrix(lhs) - sp.Matrix(rhs) if isinstance(lhs, sp.MatrixBase) else lhs - rhs
    entries = list(difference) if isinstance(difference, sp.MatrixBase) else [difference]
    rules: list[str] = []
    for entry in entries:
        rule, reduced, verdict = reduce_to_zero(sp.sympify(entry), thorough=thorough)
        if rule is None:
            return SymbolicResult(verdict, "", reduced)
        if rule not in rules:
            rules.append(rule)
    return SymbolicResult(True, ", ".join(rules))
