"""SymPy finds the Coq proof of one real equation lhs = rhs; Coq checks it.

The script has three moves. Every sin/cos whose argument is a sum is expanded by sin_plus,
cos_plus, sin_neg and cos_neg (after `replace`-ing the argument by its expanded sum, by field).
A power whose exponent is 0 becomes 1 by Rpower_O. What is left is an identity of rational
functions in the remaining atoms, closed by `ring`/`field`, or, when it needs sin²x + cos²x = 1,
by a Pythagorean certificate: lhs − rhs = Σ q_j·(sin²B_j + cos²B_j − 1), the q_j found by
reducing the difference modulo those polynomials (they are a Gröbner basis: distinct leading
monomials sin²B_j), checked by field, the brackets then rewritten to 0 with the lemma pyth.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.coq.printer import coq_term

# Closes a rational identity; field's side conditions (x <> 0) come from the hypotheses.
FIELD = "field; repeat split; (assumption || lra)"
RING = "ring"
EXPAND = "repeat first [rewrite sin_plus | rewrite cos_plus | rewrite sin_neg | rewrite cos_neg]"
# The module defines this lemma once; certificates rewrite with it.
PYTH_LEMMA = (
    "Lemma pyth : forall x : R, sin x ^ 2 + cos x ^ 2 = 1.\n"
    "Proof. intro x. rewrite <- (sin2_cos2 x). unfold Rsqr. ring. Qed."
)


class NoProofError(ValueError):
    """SymPy found no proof script for the equation; the message says what was missing."""


def _unevaluated(f: type, angle: sp.Expr) -> sp.Expr:
    return f(angle, evaluate=False)


def _signed_terms(angle: sp.Expr) -> list[tuple[int, sp.Expr]]:
    """The expanded angle as (sign, base) terms with each base a monomial of positive coefficient."""
    out = []
    for term in sp.Add.make_args(sp.expand(angle)):
        if term == 0:
            continue
        coeff, monomial = term.as_coeff_Mul()
        sign = -1 if coeff.is_negative else 1
        out.append((sign, sp.Mul(abs(coeff), monomial)))
    return out


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

    def trig(self, atom: sp.Expr) -> sp.Expr:
        """atom = sin(u) or cos(u) as a polynomial in generators; the rewriting goes to script."""
        (angle,) = atom.args
        if angle.has(sp.sin, sp.cos):
            raise NoProofError(f"{atom}: a sine or cosine inside an angle is not expanded")
        terms = _signed_terms(angle)
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
            self.script.append(
                f"replace ({coq_term(atom)}) with ({expansion}) by "
                f"(replace ({coq_term(angle)}) with ({terms_text or '0'}) by ({FIELD});"
                f"{zero_rules} {EXPAND}; ring)."
            )
        return polynomial

    def text(self, polynomial: sp.Expr) -> str:
        """A polynomial in generators as Coq text, each generator printed as its atom."""
        return coq_term(polynomial.xreplace({g: a for a, g in self.generators.items()}))

    def power(self, atom: sp.Pow) -> sp.Expr:
        """A power with a non-integer exponent: 1 if the exponent expands to 0, else opaque."""
        if sp.expand(atom.exp) == 0:
            self.script.append(f"replace ({coq_term(atom.exp)}) with 0 by ({FIELD}).")
            self.script.append("rewrite Rpower_O by lra.")
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
    for atom in sorted(
        lhs.atoms(sp.sin, sp.cos) | rhs.atoms(sp.sin, sp.cos), key=sp.default_sort_key
    ):
        replaced[atom] = search.trig(atom)
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
