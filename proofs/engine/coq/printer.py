"""A SymPy expression as a Coq term over the reals (Coq's Reals library, R_scope), in the
vocabulary of Headline.v and Helpers.v.

Symbols become R variables (or `IZR n` for a symbol bound as an integer, or whatever text a
context gives them: `INR i` for a sum's index), integers and rationals Coq numerals and
quotients, x**n with an integer n Coq's pow (x ^ n), the paper's frequency 10000**(−2X/Y)
Headline's `omega X Y`, other powers Rpower (only where the base is provably positive), and sin,
cos, exp, sqrt, Max, Abs and pi their Coq namesakes. Explicit matrices become Helpers' `rows`,
`col` or `rot_mat` (the rotation [[cos t, sin t], [−sin t, cos t]]), and products, transposes and
sums of matrices `mmul`, `mtr` and `madd`, kept as written: a matrix-product step shows the
product. Anything else raises NotExpressibleError with a reason.

A Printer can print canonically (for proof scripts): every atom (a function application, a
power with a non-integer exponent, a Σ) is printed as the first atom met with the same normal
form, so atoms that are equal by algebra on their arguments get one text.

One file because it is one printer: SymPy's CodePrinter subclass with a method per node
type, as SymPy's own printers are; splitting it would split the class.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.matrices.expressions.matexpr import MatrixElement

from proofs.engine.rules.normal_form import Atoms

# Names a bound variable must not shadow: Coq's keywords, the functions and lemmas the terms and
# scripts use, and the index names of the scripts' case splits.
RESERVED = frozenset(
    {
        "as", "at", "cofix", "else", "end", "exists", "exists2", "fix", "for", "forall", "fun",
        "if", "IF", "in", "let", "match", "mod", "return", "then", "using", "where", "with",
        "Prop", "Set", "Type", "R", "Z", "nat", "sin", "cos", "exp", "ln", "sqrt", "PI",
        "Rpower", "IZR", "INR", "pe", "shift", "rot", "omega", "pyth", "sum_f_R0", "Rabs",
        "Rmax", "mat", "rows", "col", "mmul", "mtr", "madd", "rot_mat", "entry", "row",
        "pe_concat", "shift_concat", "concat_index", "to_concat", "ri", "ci", "bvec", "bmat",
        "side", "args", "S", "O", "pred", "cplx", "cplx_of", "Re", "Im", "creal", "cadd",
        "cmul", "cconj", "cexp", "Rfloor", "Rceil", "Rmin", "mscale",
    }
)  # fmt: skip
_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_']*")

# Binding strength of what a printed term is, loosest first: a sum, a product or quotient, a
# negation, a power, an application, an atom. A child is parenthesised when it binds more loosely
# than its position needs (Coq: + at level 50, * and / at 40, unary - at 35, ^ at 30).
SUM, PRODUCT, NEGATION, POWER, APPLICATION, ATOM = range(6)

# Headline's omega i d = Rpower 10000 (- (2 * i) / d): the paper's frequency base.
OMEGA_BASE = sp.Integer(10000)


class NotExpressibleError(ValueError):
    """The expression has no faithful Coq term here; the message says why."""


def coq_name(symbol: sp.Symbol) -> str:
    """The Coq identifier of symbol: its name, with a trailing _ if Coq reserves that name."""
    name = symbol.name
    if not _IDENT.fullmatch(name):
        raise NotExpressibleError(f"the symbol name {name!r} is not a Coq identifier")
    return f"{name}_" if name in RESERVED else name


@dataclass
class Context:
    """How a lemma's symbols are written.

    names: symbol -> (text, binding strength), e.g. a sum's index i -> ("INR i", APPLICATION),
    d_model -> ("INR (2 * S n)", APPLICATION). integers: symbols bound as Coq integers (Z),
    written IZR s. naturals: expression -> its text as a natural number, for the upper bounds of
    sums (d_model/2 − 1 -> "n"). nat_sizes: a numeric size of omega is written INR d, as pe
    and shift write it. values: symbols with a fixed integer value (a block family's head
    width d = 8), put in where a natural number is written (the index d/2 + i is 4 + i).
    """

    names: dict[sp.Basic, tuple[str, int]] = field(default_factory=dict)
    integers: frozenset[sp.Symbol] = frozenset()
    naturals: dict[sp.Basic, str] = field(default_factory=dict)
    nat_sizes: bool = False
    values: dict[sp.Symbol, sp.Integer] = field(default_factory=dict)


def is_atom(expr: sp.Basic) -> bool:
    """Whether ring arithmetic treats expr as a variable: a function application, a power with
    a non-integer exponent, a Σ (what proofs.engine.rules.normal_form calls an atom)."""
    if isinstance(expr, sp.Pow):
        return not expr.exp.is_Integer
    return isinstance(expr, sp.Function | sp.Sum | sp.Indexed)


class Printer:
    """Prints real-valued SymPy expressions and explicit matrices as Coq terms.

    context: how symbols are written. canonical: print every atom as the first atom met with the
    same normal form (the scripts' mode); False prints each as written (statements).
    """

    def __init__(self, context: Context | None = None, *, canonical: bool = False) -> None:
        self.context = context or Context()
        self.canonical = canonical
        # Symbols whose atoms are printed as written even in canonical mode: a Σ's index, which
        # no sentence outside the Σ can name, so its atoms keep the goal's text.
        self.literal: frozenset[sp.Basic] = frozenset()
        self.atoms = Atoms()
        self._texts: dict[object, tuple[str, int]] = {}
        self._arguments: dict[object, tuple[str, int]] = {}

    def with_names(
        self, names: Mapping[sp.Basic, tuple[str, int]], literal: frozenset = frozenset()
    ) -> Printer:
        """A printer with more symbols named (a sum's index), sharing this one's atom texts;
        literal: more symbols whose atoms it prints as written."""
        inner = Printer(
            Context(
                {**self.context.names, **names},
                self.context.integers,
                self.context.naturals,
                self.context.nat_sizes,
                self.context.values,
            ),
            canonical=self.canonical,
        )
        inner.atoms, inner._texts, inner._arguments = self.atoms, self._texts, self._arguments
        inner.literal = self.literal | literal
        return inner

    # ---- entry points ----

    def term(self, expr: sp.Basic) -> str:
        """expr as a Coq term."""
        return self._term(expr)[0]

    def at(self, expr: sp.Basic, strength: int = ATOM) -> str:
        """expr printed to sit where a term of at least strength is needed."""
        text, own = self._term(expr)
        return text if own >= strength else f"({text})"

    def written(self, atom: sp.Basic) -> str:
        """atom with its own arguments as written and the atoms inside them canonical."""
        return self._node(atom, written=True)[0]

    def argument(self, expr: sp.Basic, strength: int = ATOM) -> str:
        """expr as a function's argument: in canonical mode, the first text met for an argument
        with its normal form, so that sin x and cos x of one x share it."""
        if not self.canonical:
            return self.at(expr, strength)
        key = self.atoms.polynomial(expr)
        if key not in self._arguments:
            self._arguments[key] = self._term(expr)
        text, own = self._arguments[key]
        return text if own >= strength else f"({text})"

    # ---- the walk ----

    def _term(self, expr: sp.Basic) -> tuple[str, int]:
        """(text, binding strength) of expr."""
        if expr in self.context.names:
            return self.context.names[expr]
        if self.canonical and is_atom(expr) and expr.free_symbols & self.literal:
            return self._node(expr, written=True)
        if self.canonical and is_atom(expr) and not isinstance(expr, sp.Function):
            key = self.atoms.key(expr)
            if key not in self._texts:
                self._texts[key] = self._node(expr)
            return self._texts[key]
        return self._node(expr)

    def _node(self, expr: sp.Basic, *, written: bool = False) -> tuple[str, int]:
        """expr's text; written: its own arguments as written even in canonical mode."""
        arg = self.at if written or not self.canonical else self.argument
        if isinstance(expr, sp.MatrixBase):
            return self._matrix(expr)
        if isinstance(expr, sp.MatrixExpr):
            return self._matrix_expression(expr)
        if isinstance(expr, sp.Symbol):
            if expr in self.context.integers:
                return f"IZR {coq_name(expr)}", APPLICATION
            return coq_name(expr), ATOM
        if isinstance(expr, sp.Integer):
            return (str(expr), ATOM) if expr >= 0 else (f"- {-expr}", NEGATION)
        if isinstance(expr, sp.Rational):
            text, _ = self._quotient([sp.Integer(abs(expr.p))], [sp.Integer(expr.q)])
            return (f"- {text}", NEGATION) if expr < 0 else (text, PRODUCT)
        if expr is sp.pi:
            return "PI", ATOM
        if expr is sp.E:
            return "exp 1", APPLICATION
        if isinstance(expr, sp.Add):
            return self._sum(expr)
        if isinstance(expr, sp.Mul):
            return self._product(expr)
        if isinstance(expr, sp.Pow):
            return self._power(expr)
        if isinstance(expr, sp.sin | sp.cos | sp.exp | sp.sinh | sp.cosh):
            return f"{type(expr).__name__} {arg(expr.args[0])}", APPLICATION
        if isinstance(expr, sp.re | sp.im):
            part = "Re" if isinstance(expr, sp.re) else "Im"
            return f"{part} {self._complex_at(expr.args[0])}", APPLICATION
        if isinstance(expr, sp.Abs):
            return f"Rabs {arg(expr.args[0])}", APPLICATION
        if isinstance(expr, sp.Max | sp.Min) and len(expr.args) == 2:
            a, b = lattice_arguments(expr)
            name = "Rmax" if isinstance(expr, sp.Max) else "Rmin"
            return f"{name} {arg(a)} {arg(b)}", APPLICATION
        if isinstance(expr, sp.floor | sp.ceiling):
            name = "Rfloor" if isinstance(expr, sp.floor) else "Rceil"
            return f"{name} {arg(expr.args[0])}", APPLICATION
        if isinstance(expr, sp.log) and len(expr.args) == 1:
            if expr.args[0].is_positive is not True:
                raise NotExpressibleError(
                    f"{expr}: the logarithm's argument is not provably > 0 (Coq's ln is 0 there)"
                )
            return f"ln {arg(expr.args[0])}", APPLICATION
        if isinstance(expr, sp.Sum):
            return self._sum_over_nat(expr, written=written)
        if isinstance(expr, sp.Indexed):
            (index,) = expr.indices
            at = self.natural(index)
            # A local function has no argument scope: its numeral argument needs %nat.
            at = f"{at}%nat" if at.isdigit() else at
            return f"{_ident(expr.base.label.name)} {at}", APPLICATION
        if isinstance(expr, MatrixElement):
            raise NotExpressibleError("an entry of a symbolic matrix has no Coq counterpart here")
        if isinstance(expr, AppliedUndef):
            args = " ".join(arg(a) for a in expr.args)
            return f"{_ident(expr.func.__name__)} {args}", APPLICATION
        if isinstance(expr, sp.Number):
            raise NotExpressibleError(f"the number {expr} is not an exact rational")
        raise NotExpressibleError(f"{type(expr).__name__} has no Coq counterpart in this printer")

    # ---- complex numbers (Helpers' cplx) ----

    def _complex_at(self, expr: sp.Basic) -> str:
        text, strength = self._complex(expr)
        return text if strength >= ATOM else f"({text})"

    def _complex(self, expr: sp.Basic) -> tuple[str, int]:
        """expr as a Coq cplx: i is ci, sums and products cadd and cmul (real factors of a
        product gathered in one creal), e^z cexp, the conjugate cconj."""
        if not is_complex(expr):
            return f"creal {self.at(expr)}", APPLICATION
        if expr is sp.I:
            return "ci", ATOM
        if isinstance(expr, sp.exp):
            return f"cexp {self._complex_at(expr.args[0])}", APPLICATION
        if isinstance(expr, sp.conjugate):
            return f"cconj {self._complex_at(expr.args[0])}", APPLICATION
        if isinstance(expr, sp.Add):
            terms = [self._complex_at(a) for a in expr.args]
        elif isinstance(expr, sp.Mul):
            real = [f for f in expr.args if not is_complex(f)]
            terms = [f"(creal {self.at(sp.Mul(*real, evaluate=False))})"] if real else []
            terms += [self._complex_at(f) for f in expr.args if is_complex(f)]
        else:
            raise NotExpressibleError(f"the complex {type(expr).__name__} is not printed")
        operation = "cadd" if isinstance(expr, sp.Add) else "cmul"
        text = terms[0]
        for term in terms[1:]:
            text = f"{operation} {_bracket(text)} {term}"
        return text, APPLICATION

    def natural(self, expr: sp.Basic) -> str:
        """expr, an integer polynomial in natural-number symbols, as a Coq nat term (atom)."""
        if expr in self.context.naturals:
            text = self.context.naturals[expr]
            return text if _IDENT.fullmatch(text) or text.isdigit() else f"({text})"
        expr = sp.expand(expr.xreplace(self.context.values))
        if expr.is_Integer and expr >= 0:
            return str(expr)
        terms = []
        for term in sp.Add.make_args(expr):
            coeff, rest = term.as_coeff_Mul()
            if not (coeff.is_Integer and coeff > 0) or not all(
                isinstance(f, sp.Symbol) and f.is_integer and f.is_nonnegative
                for f in sp.Mul.make_args(rest)
                if f != 1
            ):
                raise NotExpressibleError(f"{expr} is not a natural-number expression")
            factors = [coq_name(f) for f in sp.Mul.make_args(rest) if f != 1]
            if coeff != 1 or not factors:
                factors.insert(0, str(coeff))
            terms.append(" * ".join(factors))
        return f"({' + '.join(terms)})%nat" if len(terms) > 1 or " " in terms[0] else terms[0]

    # ---- matrices ----

    def _matrix(self, m: sp.MatrixBase) -> tuple[str, int]:
        rows, cols = m.shape
        if (rows, cols) == (2, 2) and (angle := rotation_angle(m)) is not None:
            return f"rot_mat {self.at(angle)}", APPLICATION
        if cols == 1 and rows > 1:
            return f"col [{'; '.join(self.term(e) for e in m)}]", APPLICATION
        body = "; ".join(
            "[" + "; ".join(self.term(m[r, c]) for c in range(cols)) + "]" for r in range(rows)
        )
        return f"rows [{body}]", APPLICATION

    def _matrix_expression(self, expr: sp.MatrixExpr) -> tuple[str, int]:
        if isinstance(expr, sp.MatMul):
            factors = [f for f in expr.args if isinstance(f, sp.MatrixBase | sp.MatrixExpr)]
            scalars = [f for f in expr.args if f not in factors]
            text = self.at(factors[0])
            for before, factor in itertools.pairwise(factors):
                text = f"mmul {before.shape[1]} {_bracket(text)} {self.at(factor)}"
            if scalars:
                text = f"mscale {self.at(sp.Mul(*scalars))} {_bracket(text)}"
            return text, APPLICATION
        if isinstance(expr, sp.Transpose):
            return f"mtr {self.at(expr.arg)}", APPLICATION
        if isinstance(expr, sp.MatAdd):
            text = self.at(expr.args[0])
            for term in expr.args[1:]:
                text = f"madd {_bracket(text)} {self.at(term)}"
            return text, APPLICATION
        raise NotExpressibleError(f"the matrix expression {type(expr).__name__} is not printed")

    # ---- scalars ----

    def _sum_over_nat(self, expr: sp.Sum, *, written: bool = False) -> tuple[str, int]:
        """Σ_{i=a}^{N} body as sum_f_R0 (fun i => body(i + a)) (N − a), i, a and N − a natural
        numbers; written: the atoms that mention i as written (as the goal has them)."""
        (index, lower, upper), *more = expr.limits
        refused = NotExpressibleError(
            f"the Σ over {index} = {lower} .. {upper} does not start at 0 (sum_f_R0)"
        )
        if more or not (lower.is_Integer and lower >= 0):
            raise refused
        function = expr.function
        if lower != 0:
            # Σ_{i=a}^{b} g(i) is Σ_{i=0}^{b−a} g(i + a): the same sum, over a natural index.
            start = sp.Symbol(index.name, integer=True, nonnegative=True)
            function, index, upper = function.xreplace({index: start + lower}), start, upper - lower
        name = coq_name(index)
        try:
            last = self.natural(upper)
        except NotExpressibleError:
            raise refused from None
        literal = frozenset({index}) if written else frozenset()
        inner = self.with_names({index: (f"INR {name}", APPLICATION)}, literal)
        body = inner.term(function)
        return f"sum_f_R0 (fun {name} => {body}) {last}", APPLICATION

    def _sum(self, expr: sp.Add) -> tuple[str, int]:
        terms = list(expr.args)
        out = self.at(terms[0], PRODUCT)
        for term in terms[1:]:
            coeff, rest = term.as_coeff_Mul()
            if coeff.is_negative:
                positive = rest if coeff == -1 else sp.Mul(-coeff, rest, evaluate=False)
                out += f" - {self.at(positive, PRODUCT)}"
            else:
                out += f" + {self.at(term, PRODUCT)}"
        return out, SUM

    def _product(self, expr: sp.Mul) -> tuple[str, int]:
        coeff, rest = expr.as_coeff_Mul()
        if coeff.is_negative:
            positive = rest if coeff == -1 else sp.Mul(-coeff, rest, evaluate=False)
            return f"- {self.at(positive, POWER)}", NEGATION
        numerator, denominator = [], []
        for factor in sp.Mul.make_args(expr):
            if isinstance(factor, sp.Rational) and not isinstance(factor, sp.Integer):
                numerator.append(sp.Integer(factor.p))
                denominator.append(sp.Integer(factor.q))
            elif isinstance(factor, sp.Pow) and factor.exp.is_Integer and factor.exp.is_negative:
                denominator.append(_power_of(factor.base, -factor.exp))
            elif (inverse := _reciprocal_frequency(factor)) is not None:
                denominator.append(inverse)
            else:
                numerator.append(factor)
        numerator = [f for f in numerator if f != 1] or [sp.Integer(1)]
        return self._quotient(numerator, denominator)

    def _quotient(self, numerator: list[sp.Basic], denominator: list[sp.Basic]) -> tuple[str, int]:
        if len(numerator) == 1 and not denominator:
            return self._term(numerator[0])
        text = " * ".join(self.at(f, POWER) for f in numerator)
        for factor in denominator:
            text += f" / {self.at(factor, POWER)}"
        return text, PRODUCT if len(numerator) + len(denominator) > 1 else POWER

    def _power(self, expr: sp.Pow) -> tuple[str, int]:
        base, exponent = expr.base, expr.exp
        if exponent.is_Integer:
            if exponent.is_negative:
                return self._quotient([sp.Integer(1)], [_power_of(base, -exponent)])
            if exponent == 1:
                return self._term(base)
            # Coq's ^ is right-associative at level 30: a power base needs parentheses.
            return f"{self.at(base, APPLICATION)} ^ {exponent}", POWER
        if base == -1 and exponent in self.context.integers:
            return f"(- 1) ^ Z.abs_nat {coq_name(exponent)}", POWER
        if (frequency := omega_arguments(expr)) is not None:
            index, size = frequency
            written = (
                f"(INR {size})" if self.context.nat_sizes and size.is_Integer else self.at(size)
            )
            return f"omega {self.at(index)} {written}", APPLICATION
        if (inverse := _reciprocal_frequency(expr)) is not None:
            return self._quotient([sp.Integer(1)], [inverse])
        if exponent == sp.Rational(1, 2):
            if base.is_nonnegative is not True:
                raise NotExpressibleError(
                    f"sqrt({base}): the radicand is not provably ≥ 0 (Coq's sqrt is 0 below 0)"
                )
            return f"sqrt {self.at(base)}", APPLICATION
        if not positive_base(base):
            raise NotExpressibleError(
                f"{expr}: a power with exponent {exponent} needs a provably positive base "
                "(Coq's Rpower is exp(y·ln x))"
            )
        return f"Rpower {self.at(base)} {self.at(exponent)}", APPLICATION


def lattice_arguments(expr: sp.Min | sp.Max) -> tuple[sp.Basic, ...]:
    """The arguments of a min or max in the order they are printed (SymPy orders them its own
    way, differently as they are evaluated or not)."""
    return tuple(sorted(expr.args, key=sp.default_sort_key))


def positive_base(base: sp.Expr) -> bool:
    """Whether base > 0 wherever it is defined: by SymPy's assumptions, as a product of such
    numbers, as a real power of one, or as an expression equal by algebra to a positive number
    (α·L/L − (α − 1) is 1)."""
    if base.is_positive:
        return True
    if isinstance(base, sp.Mul):
        return all(positive_base(f) for f in base.args)
    if isinstance(base, sp.Pow):
        exponent = base.exp
        real = exponent.is_real or (
            all(s.is_real for s in exponent.free_symbols) and not exponent.has(sp.I)
        )
        return bool(real) and positive_base(base.base)
    value = Atoms().polynomial(base)
    return bool(value.is_Rational and value > 0)


def is_complex(expr: sp.Basic) -> bool:
    """Whether expr is written with i or a conjugate: a Coq cplx, not an R."""
    return expr.has(sp.I) or expr.has(sp.conjugate)


def _ident(name: str) -> str:
    if not _IDENT.fullmatch(name):
        raise NotExpressibleError(f"the name {name!r} is not a Coq identifier")
    return name


def _bracket(text: str) -> str:
    return text if " " not in text or (text.startswith("(") and text.endswith(")")) else f"({text})"


def _power_of(base: sp.Basic, exponent: sp.Integer) -> sp.Basic:
    """base**exponent for a positive exponent, kept unevaluated; base itself for exponent 1."""
    return base if exponent == 1 else sp.Pow(base, exponent, evaluate=False)


def omega_arguments(power: sp.Basic) -> tuple[sp.Expr, sp.Expr] | None:
    """(X, Y) when power is Headline's omega X Y = 10000**(−2X/Y) with X mentioning a symbol (a
    pair index): Y is the exponent's denominator, or for a numeric one the least integer that
    leaves X integer coefficients (10000**(−i/4) is omega i 8); None otherwise."""
    if not (isinstance(power, sp.Pow) and power.base == OMEGA_BASE):
        return None
    exponent = power.exp
    if exponent.is_Integer or not exponent.free_symbols or sp.expand(exponent) == 0:
        return None
    numerator, denominator = sp.fraction(sp.together(exponent))
    if denominator.is_Integer:
        half = sp.expand(-exponent / 2)
        denominators = [sp.fraction(c)[1] for c in sp.Poly(half, *half.free_symbols).coeffs()]
        size = sp.Integer(math.lcm(*(int(q) for q in denominators)))
        index = sp.expand(half * size)
    else:
        size, index = denominator, sp.expand(-numerator / 2)
    if size.has(sp.Max, sp.Min) or index.has(sp.Max, sp.Min) or not index.free_symbols:
        return None
    coeff = sp.Poly(index, *index.free_symbols).coeffs()[0] if index.is_polynomial() else None
    if coeff is None or coeff < 0:
        return None
    return index, size


def _reciprocal_frequency(factor: sp.Basic) -> sp.Pow | None:
    """10000**(2X/Y) = 1/omega X Y as the omega power it is the reciprocal of, or None."""
    if not (isinstance(factor, sp.Pow) and factor.base == OMEGA_BASE):
        return None
    inverse = sp.Pow(OMEGA_BASE, -factor.exp, evaluate=False)
    return inverse if omega_arguments(inverse) is not None else None


def rotation_angle(m: sp.MatrixBase) -> sp.Expr | None:
    """t when m is exactly [[cos t, sin t], [−sin t, cos t]] as written, else None."""
    c, s, minus_s, c2 = m
    if not (isinstance(c, sp.cos) and isinstance(s, sp.sin)):
        return None
    angle = c.args[0]
    if s.args[0] != angle or c2 != c:
        return None
    coeff, rest = minus_s.as_coeff_Mul()
    return angle if coeff == -1 and rest == s else None


def coq_term(expr: sp.Basic, context: Context | None = None) -> str:
    """expr as a Coq term; NotExpressibleError (a ValueError) with the reason otherwise."""
    return Printer(context).term(expr)
