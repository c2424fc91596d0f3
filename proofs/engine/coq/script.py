"""SymPy finds the Coq proof of one real equation lhs = rhs; Coq checks it.

The script has three moves. Every sin/cos whose argument is a sum (or a small multiple of an
angle met elsewhere, as x beside x/2) is expanded by sin_plus, cos_plus, sin_neg and cos_neg,
after `replace`-ing it by the same function of the expanded sum (f_equal, field). A power
whose exponent is 0 becomes 1 by Rpower_O. What is left is an identity of rational functions
in the remaining atoms, closed by `ring`/`field`, or, when it needs sin²x + cos²x = 1, by a
Pythagorean certificate: lhs − rhs = Σ q_j·(sin²B_j + cos²B_j − 1), the q_j found by reducing
the difference modulo those polynomials (a Gröbner basis: their leading monomials sin²B_j are
coprime), checked by field, the brackets then rewritten to 0 with the lemma pyth.
"""

from __future__ import annotations

import math

import sympy as sp
from sympy.core.function import AppliedUndef

from proofs.engine.coq.printer import coq_term

# Closes a rational identity; field's side conditions (x <> 0) come from the hypotheses.
FIELD = "field; repeat split; (assumption || lra)"
RING = "ring"
EXPAND = "repeat first [rewrite sin_plus | rewrite cos_plus | rewrite sin_neg | rewrite cos_neg]"
# sin(n·B) is expanded through B + ... + B only for n up to this.
MAX_MULTIPLE = 4
# Closes 0 <= w for w built from squares, sums, products and nonnegative numbers or symbols.
NONNEGATIVE = (
    "repeat first [apply pow2_ge_0 | apply Rplus_le_le_0_compat | apply Rmult_le_pos | lra]"
)
# The module defines this lemma once; certificates rewrite with it.
PYTH_LEMMA = (
    "Lemma pyth : forall x : R, sin x ^ 2 + cos x ^ 2 = 1.\n"
    "Proof. intro x. rewrite <- (sin2_cos2 x). unfold Rsqr. ring. Qed."
)


class NoProofError(ValueError):
    """SymPy found no proof script for the equation; the message says what was missing."""


def _unevaluated(f: type, angle: sp.Expr) -> sp.Expr:
    return f(angle, evaluate=False)


def _signed_terms(angle: sp.Expr, units: dict[sp.Expr, sp.Rational]) -> list[tuple[int, sp.Expr]]:
    """The expanded angle as (sign, base) terms, each base a positive multiple of a monomial.

    units: monomial -> the largest rational dividing each of its coefficients in the equation;
    c·m is written as |c|/unit copies of unit·m when that is at most MAX_MULTIPLE, so that
    sin x and sin(x/2) meet as sin(x/2 + x/2) and sin(x/2).
    """
    out = []
    for term in sp.Add.make_args(sp.expand(angle)):
        if term == 0:
            continue
        coeff, monomial = term.as_coeff_Mul()
        sign = -1 if coeff.is_negative else 1
        copies = abs(coeff) / units[monomial]
        if copies <= MAX_MULTIPLE:
            out += [(sign, sp.Mul(units[monomial], monomial))] * int(copies)
        else:
            out.append((sign, sp.Mul(abs(coeff), monomial)))
    return out


def _units(atoms: set[sp.Expr]) -> dict[sp.Expr, sp.Rational]:
    """monomial -> the largest rational dividing each coefficient it has in atoms' angles."""
    coefficients: dict[sp.Expr, list[sp.Rational]] = {}
    for atom in atoms:
        for term in sp.Add.make_args(sp.expand(atom.args[0])):
            coeff, monomial = term.as_coeff_Mul()
            if coeff != 0:
                coefficients.setdefault(monomial, []).append(abs(sp.Rational(coeff)))
    return {
        m: sp.Rational(math.gcd(*(c.p for c in cs)), math.lcm(*(c.q for c in cs)))
        for m, cs in coefficients.items()
    }


class _Search:
    """The state of one proof search: generators for atoms, the base angles met, the script."""

    def __init__(self) -> None:
        self.script: list[str] = []
        self.generators: dict[sp.Expr, sp.Symbol] = {}
        self.bases: dict[sp.Expr, tuple[sp.Symbol, sp.Symbol]] = {}

    def _generator(self, atom: sp.Expr) -> sp.Symbol:
        if atom not in self.generators:
            self.generators[atom] = sp.Dummy(f"g{len(self.generators)}")
        return self.generators[atom]

    def _base(self, angle: sp.Expr) -> tuple[sp.Symbol, sp.Symbol]:
        """The generators standing for sin(angle) and cos(angle)."""
        if angle not in self.bases:
            self.bases[angle] = (
                self._generator(_unevaluated(sp.sin, angle)),
                self._generator(_unevaluated(sp.cos, angle)),
            )
        return self.bases[angle]

    def trig(self, atom: sp.Expr, units: dict[sp.Expr, sp.Rational]) -> sp.Expr:
        """atom = sin(u) or cos(u) as a polynomial in generators; the rewriting goes to script."""
        (angle,) = atom.args
        if angle.has(sp.sin, sp.cos):
            raise NoProofError(f"{atom}: a sine or cosine inside an angle is not expanded")
        terms = _signed_terms(angle, units)
        sin_sum, cos_sum = sp.Integer(0), sp.Integer(1)
        for index, (sign, base) in enumerate(terms):
            s, c = self._base(base)
            s = sign * s
            if index == 0:
                sin_sum, cos_sum = s, c
            else:
                sin_sum, cos_sum = sin_sum * c + cos_sum * s, cos_sum * c - sin_sum * s
        polynomial = sp.expand(sin_sum if isinstance(atom, sp.sin) else cos_sum)
        expansion = self.text(polynomial)
        if expansion != coq_term(atom):
            terms_text = " + ".join(
                f"(- ({coq_term(base)}))" if sign < 0 else f"({coq_term(base)})"
                for sign, base in terms
            )
            zero_rules = " rewrite ?sin_0, ?cos_0;" if not terms else ""
            # Only the atom is rewritten: its angle may also sit inside the bases (x in x/2).
            f = type(atom).__name__
            self.script.append(
                f"replace ({coq_term(atom)}) with ({expansion}) by "
                f"(replace ({coq_term(atom)}) with ({f} ({terms_text or '0'})) by "
                f"(f_equal; {FIELD});{zero_rules} {EXPAND}; ring)."
            )
        return polynomial

    def text(self, polynomial: sp.Expr) -> str:
        """A polynomial in generators as Coq text, each generator printed as its atom."""
        return coq_term(polynomial.xreplace({g: a for a, g in self.generators.items()}))

    def opaque(self, atom: sp.Expr) -> sp.Symbol:
        """An atom ring and field treat as a variable (INR i, w i)."""
        return self._generator(atom)

    def power(self, atom: sp.Pow) -> sp.Expr:
        """A power with a non-integer exponent: 1 if the exponent expands to 0, else opaque."""
        if sp.expand(atom.exp) == 0:
            self.script.append(
                f"replace ({coq_term(atom)}) with 1 by (replace ({coq_term(atom.exp)}) with 0 "
                f"by ({FIELD}); symmetry; apply Rpower_O; lra)."
            )
            return sp.Integer(1)
        coq_term(atom)  # NotExpressibleError unless the base is provably positive
        return self._generator(atom)


def _denominators_nonzero(expr: sp.Expr) -> None:
    """NoProofError unless every divisor in expr is a number or a symbol the hypotheses make nonzero."""
    for power in expr.atoms(sp.Pow):
        if power.exp.is_negative:
            for factor in sp.Mul.make_args(power.base):
                if not (factor.is_number or (factor.is_Symbol and factor.is_nonzero)):
                    raise NoProofError(f"division by {factor}, not provably nonzero for field")


def entry_proof(lhs: sp.Expr, rhs: sp.Expr) -> list[str]:
    """The Coq tactic sentences proving lhs = rhs (hypotheses already introduced); NoProofError if none."""
    for side in (lhs, rhs):
        coq_term(side)  # NotExpressibleError first: no search for what cannot be stated
        _denominators_nonzero(side)
    search = _Search()
    replaced = {}
    powers = [p for p in (lhs.atoms(sp.Pow) | rhs.atoms(sp.Pow)) if not p.exp.is_Integer]
    for atom in sorted(powers, key=sp.default_sort_key):
        replaced[atom] = search.power(atom)
    for atom in sorted(lhs.atoms(AppliedUndef) | rhs.atoms(AppliedUndef), key=sp.default_sort_key):
        replaced[atom] = search.opaque(atom)
    trig = lhs.atoms(sp.sin, sp.cos) | rhs.atoms(sp.sin, sp.cos)
    units = _units(trig)
    for atom in sorted(trig, key=sp.default_sort_key):
        replaced[atom] = search.trig(atom, units)
    difference = sp.together(lhs.xreplace(replaced) - rhs.xreplace(replaced))
    numerator, denominator = sp.fraction(difference)
    numerator = sp.expand(numerator)
    closer = FIELD if _has_division(lhs, rhs) else RING
    if numerator == 0:
        return [*search.script, f"{closer}."]
    brackets = [s**2 + c**2 - 1 for s, c in search.bases.values()]
    if not brackets:
        raise NoProofError("lhs − rhs is not 0 as a rational function of its atoms")
    gens = [g for pair in search.bases.values() for g in pair]
    others = sorted(numerator.free_symbols - set(gens), key=sp.default_sort_key)
    quotients, remainder = sp.reduced(numerator, brackets, *gens, *others, order="lex")
    if sp.expand(remainder) != 0:
        raise NoProofError("lhs − rhs does not reduce to 0 modulo sin² + cos² = 1")
    terms = []
    for q, (base, _) in zip(quotients, search.bases.items(), strict=True):
        if q == 0:
            continue
        s, c = (coq_term(_unevaluated(f, base)) for f in (sp.sin, sp.cos))
        terms.append(f"({search.text(q / denominator)}) * ({s} ^ 2 + {c} ^ 2 - 1)")
    return [
        *search.script,
        "apply Rminus_diag_uniq.",
        f"transitivity ({' + '.join(terms)}); [({FIELD}) | rewrite !pyth; ring].",
    ]


def _has_division(*exprs: sp.Expr) -> bool:
    """Whether any of exprs divides (ring treats 1/x as an atom; field knows x·(1/x) = 1)."""
    return any(p.exp.is_negative for e in exprs for p in e.atoms(sp.Pow)) or any(
        not r.is_Integer for e in exprs for r in e.atoms(sp.Rational)
    )


def nonnegative_proof(expr: sp.Expr, witness: sp.Expr) -> list[str]:
    """The Coq sentences proving 0 <= expr from expr = witness, witness a sum of squares."""
    if not _made_of_squares(witness):
        raise NoProofError(
            f"the witness {witness} is not built from squares, sums, products and nonnegatives"
        )
    return [
        f"enough (E : {coq_term(expr)} = {coq_term(witness)}).",
        f"{{ rewrite E. {NONNEGATIVE}. }}",
        *entry_proof(expr, witness),
    ]


def _made_of_squares(expr: sp.Expr) -> bool:
    """Whether expr is visibly >= 0: squares, nonnegative numbers and symbols, their sums and products."""
    if isinstance(expr, sp.Pow):
        return expr.exp == 2 and expr.base.is_real is True
    if isinstance(expr, sp.Add | sp.Mul):
        return all(_made_of_squares(a) for a in expr.args)
    return (expr.is_number or expr.is_Symbol) and expr.is_nonnegative is True
