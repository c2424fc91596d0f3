"""A SymPy expression as a Coq term over the reals (Coq's Reals library, R_scope).

Symbols become R variables, integers and rationals Coq numerals and quotients, x**n with an
integer n Coq's pow (x ^ n), other powers Rpower (only where the base is provably positive), and
sin, cos, exp, sqrt and pi their Coq namesakes. Anything else raises NotExpressibleError with a reason.
"""

from __future__ import annotations

import re

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.printing.printer import Printer

# Names a bound variable must not shadow: Coq's keywords and the functions the terms use.
RESERVED = frozenset(
    {
        "as", "at", "cofix", "else", "end", "exists", "exists2", "fix", "for", "forall", "fun",
        "if", "IF", "in", "let", "match", "mod", "return", "then", "using", "where", "with",
        "Prop", "Set", "Type", "R", "Z", "nat", "sin", "cos", "exp", "ln", "sqrt", "PI",
        "Rpower", "IZR", "INR", "pe", "shift", "rot", "omega", "pyth", "sum_f_R0", "Rabs",
    }
)  # fmt: skip
_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_]*")

# Binding strength of what a printed term is, loosest first: a sum, a product, a negation,
# a power, an application or atom. A child is parenthesised when it binds more loosely than
# its position needs.
SUM, PRODUCT, NEGATION, POWER, ATOM = range(5)


class NotExpressibleError(ValueError):
    """The expression has no faithful Coq term here; the message says why."""


def coq_name(symbol: sp.Symbol) -> str:
    """The Coq identifier of symbol: its name, with a trailing _ if Coq reserves that name."""
    name = symbol.name
    if not _IDENT.fullmatch(name):
        raise NotExpressibleError(f"the symbol name {name!r} is not a Coq identifier")
    return f"{name}_" if name in RESERVED else name


class CoqPrinter(Printer):
    """Prints a real-valued SymPy expression as a Coq term; see the module docstring."""

    printmethod = "_coq"

    def doprint(self, expr: sp.Basic) -> str:
        return self._term(expr)[0]

    def _term(self, expr: sp.Basic) -> tuple[str, int]:
        """(text, binding strength) of expr."""
        if isinstance(expr, sp.MatrixBase | sp.MatrixExpr):
            raise NotExpressibleError("a matrix is not a real number: state it entry by entry")
        if isinstance(expr, sp.Symbol):
            return coq_name(expr), ATOM
        if isinstance(expr, sp.Integer):
            return (str(expr), ATOM) if expr >= 0 else (f"- {-expr}", NEGATION)
        if isinstance(expr, sp.Rational):
            text, _ = self._quotient([sp.Integer(abs(expr.p))], [sp.Integer(expr.q)])
            return (f"- {text}", NEGATION) if expr < 0 else (text, PRODUCT)
        if expr is sp.pi:
            return "PI", ATOM
        if expr is sp.E:
            return "exp 1", ATOM
        if isinstance(expr, sp.Add):
            return self._sum(expr)
        if isinstance(expr, sp.Mul):
            return self._product(expr)
        if isinstance(expr, sp.Pow):
            return self._power(expr)
        if isinstance(expr, sp.sin | sp.cos | sp.exp):
            return f"{type(expr).__name__} {self._at(expr.args[0], ATOM)}", ATOM
        if isinstance(expr, sp.Sum):
            return self._sum_over_nat(expr)
        if isinstance(expr, AppliedUndef) and len(expr.args) == 1:
            # A function of a natural number: INR i, or an abstract frequency w i.
            return f"{_function_name(expr)} {self._at(expr.args[0], ATOM)}", ATOM
        if isinstance(expr, sp.Number):
            raise NotExpressibleError(f"the number {expr} is not an exact rational")
        raise NotExpressibleError(f"{type(expr).__name__} has no Coq counterpart in this printer")

    def _sum_over_nat(self, expr: sp.Sum) -> tuple[str, int]:
        """Σ_{i=0}^{INR(n)} body as sum_f_R0 (fun i => body) n, i and n natural numbers."""
        (index, lower, upper), *more = expr.limits
        if (
            more
            or lower != 0
            or not (isinstance(upper, AppliedUndef) and upper.func.__name__ == "INR")
        ):
            raise NotExpressibleError(
                f"the Σ over {index} = {lower} .. {upper} is not of the form i = 0 .. n for a "
                "natural number n (sum_f_R0)"
            )
        body = self._term(expr.function)[0]
        return f"sum_f_R0 (fun {coq_name(index)} => {body}) {self._at(upper.args[0], ATOM)}", ATOM

    def _at(self, expr: sp.Basic, strength: int) -> str:
        """expr printed to sit where a term of at least strength is needed."""
        text, own = self._term(expr)
        return text if own >= strength else f"({text})"

    def _sum(self, expr: sp.Add) -> tuple[str, int]:
        terms = list(expr.args) if not expr.is_commutative else list(sp.Add.make_args(expr))
        out = self._at(terms[0], PRODUCT)
        for term in terms[1:]:
            coeff, rest = term.as_coeff_Mul()
            if coeff.is_negative:
                out += f" - {self._at(sp.Mul(-coeff, rest, evaluate=False) if coeff != -1 else rest, PRODUCT)}"
            else:
                out += f" + {self._at(term, PRODUCT)}"
        return out, SUM

    def _product(self, expr: sp.Mul) -> tuple[str, int]:
        coeff, rest = expr.as_coeff_Mul()
        if coeff.is_negative:
            positive = rest if coeff == -1 else sp.Mul(-coeff, rest, evaluate=False)
            return f"- {self._at(positive, POWER)}", NEGATION
        numerator, denominator = [], []
        for factor in sp.Mul.make_args(expr):
            if isinstance(factor, sp.Rational) and not isinstance(factor, sp.Integer):
                numerator.append(sp.Integer(factor.p))
                denominator.append(sp.Integer(factor.q))
            elif isinstance(factor, sp.Pow) and factor.exp.is_Integer and factor.exp.is_negative:
                denominator.append(_power_of(factor.base, -factor.exp))
            else:
                numerator.append(factor)
        numerator = [f for f in numerator if f != 1] or [sp.Integer(1)]
        return self._quotient(numerator, denominator)

    def _quotient(self, numerator: list[sp.Basic], denominator: list[sp.Basic]) -> tuple[str, int]:
        text = " * ".join(self._at(f, POWER) for f in numerator)
        for factor in denominator:
            text += f" / {self._at(factor, POWER)}"
        return text, PRODUCT if len(numerator) + len(denominator) > 1 else POWER

    def _power(self, expr: sp.Pow) -> tuple[str, int]:
        base, exponent = expr.base, expr.exp
        if exponent.is_Integer:
            if exponent.is_negative:
                return self._quotient([sp.Integer(1)], [_power_of(base, -exponent)])
            if exponent == 1:
                return self._term(base)
            # Coq's ^ is right-associative at level 30: a power base needs parentheses.
            return f"{self._at(base, ATOM)} ^ {exponent}", POWER
        if exponent == sp.Rational(1, 2):
            if base.is_nonnegative is not True:
                raise NotExpressibleError(
                    f"sqrt({base}): the radicand is not provably ≥ 0 (Coq's sqrt is 0 below 0)"
                )
            return f"sqrt {self._at(base, ATOM)}", ATOM
        if base.is_positive is not True:
            raise NotExpressibleError(
                f"{expr}: a power with exponent {exponent} needs a provably positive base "
                "(Coq's Rpower is exp(y·ln x))"
            )
        return f"Rpower {self._at(base, ATOM)} {self._at(exponent, ATOM)}", ATOM


def _function_name(expr: AppliedUndef) -> str:
    name = expr.func.__name__
    if not _IDENT.fullmatch(name):
        raise NotExpressibleError(f"the function name {name!r} is not a Coq identifier")
    return name


def _power_of(base: sp.Basic, exponent: sp.Integer) -> sp.Basic:
    """base**exponent for a positive exponent, kept unevaluated; base itself for exponent 1."""
    return base if exponent == 1 else sp.Pow(base, exponent, evaluate=False)


def coq_term(expr: sp.Basic) -> str:
    """expr as a Coq term of type R; NotExpressibleError (a ValueError) with the reason otherwise."""
    return CoqPrinter().doprint(expr)
