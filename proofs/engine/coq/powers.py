"""Coq scripts for the power laws, the exponent laws and the exponential form.

Powers of one positive base (and exponentials, powers of e) are written through a basis: every
exponent is a combination, with rational coefficients, of monomials in the symbols; for each
monomial m the basis power is b^(g·m), g the largest rational of which every coefficient of m
is an integer multiple. Then b^u = Π (b^(g·m))^(n_m) with integer n_m, proved in Coq by
`Rpower_plus` and `Rpower_Ropp` (`exp_plus`, `exp_Ropp`) and algebra on the exponents, and what
is left is an identity of rational functions in the basis powers: field. Before that, the power
laws split (x·y)^a = x^a·y^a (`Rpower_mult_distr`), join (x^a)^c = x^(a·c) (`Rpower_mult`) and
drop 1^a = 1; the exponential form writes sinh and cosh through exp.
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy as sp

from proofs.engine.coq.printer import APPLICATION, Printer, positive_base
from proofs.engine.rules import Rule
from proofs.engine.rules.normal_form import Atoms
from proofs.engine.rules.rule import CoqPlan

# Ring arithmetic, or field arithmetic where there is division.
ALGEBRA = "first [ring | field; side]"


class NoPowerProofError(ValueError):
    """The powers are not of the shape the scripts handle; the message says why."""


def _is_real_power(e: sp.Basic) -> bool:
    return isinstance(e, sp.Pow) and not e.exp.is_Integer and positive_base(e.base)


def _atoms(exprs, kind) -> list[sp.Basic]:
    """The atoms of kind in exprs, innermost first, each once."""
    out: list[sp.Basic] = []

    def walk(e: sp.Basic) -> None:
        for a in e.args:
            walk(a)
        if kind(e) and e not in out:
            out.append(e)

    for e in exprs:
        walk(e)
    return out


def _exponential_form(printer: Printer, lhs, rhs, lines: list[str]):
    """sinh x and cosh x replaced by (e^x ∓ e^(−x))/2."""
    for atom in _atoms((lhs, rhs), lambda e: isinstance(e, sp.sinh | sp.cosh)):
        (x,) = atom.args
        sign = -1 if isinstance(atom, sp.sinh) else 1
        new = (sp.exp(x) + sign * sp.exp(-x)) / 2
        lemma = "sinh_exp" if isinstance(atom, sp.sinh) else "cosh_exp"
        lines.append(
            f"replace ({printer.term(atom)}) with ({printer.term(new)}) by "
            f"(rewrite ({lemma} {printer.argument(x)} {printer.argument(-x)}) by {ALGEBRA}; "
            f"{ALGEBRA})."
        )
        lhs, rhs = lhs.xreplace({atom: new}), rhs.xreplace({atom: new})
    return lhs, rhs


def _power_laws(printer: Printer, lhs, rhs, lines: list[str]):
    """(x·y)^a = x^a·y^a, (x^a)^c = x^(a·c) and 1^a = 1, until none applies."""
    for _ in range(20):
        changed = False
        for atom in _atoms((lhs, rhs), _is_real_power):
            base, exponent = atom.base, atom.exp
            text = printer.term(atom)
            if isinstance(base, sp.Mul):
                new = sp.Mul(*(sp.Pow(f, exponent, evaluate=False) for f in base.args))
                proof = "repeat rewrite <- Rpower_mult_distr by side; reflexivity"
            elif _is_real_power(base):
                new = sp.Pow(base.base, sp.expand(base.exp * exponent), evaluate=False)
                proof = "rewrite Rpower_mult; args"
            elif Atoms().polynomial(base) == 1:
                new = sp.Integer(1)
                proof = (
                    f"replace ({printer.term(base)}) with 1 by (field; side); "
                    "symmetry; apply Rpower_1_base"
                )
            else:
                continue
            lines.append(f"replace ({text}) with ({printer.term(new)}) by ({proof}).")
            lhs, rhs = lhs.xreplace({atom: new}), rhs.xreplace({atom: new})
            changed = True
            break
        if not changed:
            return lhs, rhs
    raise NoPowerProofError("the power laws did not come to an end")


def _rational_gcd(values: list[Fraction]) -> Fraction:
    numerators = [abs(v.numerator) for v in values]
    denominators = [v.denominator for v in values]
    return Fraction(math.gcd(*numerators), math.lcm(*denominators))


def _monomials(exponent: sp.Expr) -> dict[sp.Expr, Fraction]:
    """exponent as Σ c_m·m over monomials m with rational c_m."""
    out: dict[sp.Expr, Fraction] = {}
    atoms = Atoms()
    # (p − 1 − k) + 1 − p is −k, and d/(d − 2)·(−(d − 2)/d) is −1.
    evaluated = sp.cancel(sp.together(atoms.expression(atoms.polynomial(exponent))))
    for monomial, coefficient in sp.expand(evaluated).as_coefficients_dict().items():
        if not coefficient.is_Rational:
            raise NoPowerProofError(f"the exponent {exponent} has a coefficient {coefficient}")
        out[monomial] = out.get(monomial, Fraction(0)) + Fraction(
            int(coefficient.p), int(coefficient.q)
        )
    return {m: c for m, c in out.items() if c}


def _through_basis(printer: Printer, lhs, rhs, lines: list[str], exponential: bool):
    """Every power of one base (every exponential) written through its basis powers."""
    if exponential:
        groups = {sp.E: _atoms((lhs, rhs), lambda e: isinstance(e, sp.exp))}
    else:
        groups = {}
        for atom in _atoms((lhs, rhs), _is_real_power):
            groups.setdefault(atom.base, []).append(atom)
    names: dict[sp.Basic, tuple[str, int]] = {}
    mapping: dict[sp.Basic, sp.Expr] = {}
    ones: list[tuple[sp.Symbol, sp.Basic]] = []
    plus, minus = ("exp_plus", "exp_Ropp") if exponential else ("Rpower_plus", "Rpower_Ropp")
    for base, atoms in groups.items():
        found = {a: _monomials(a.args[0] if exponential else a.exp) for a in atoms}
        basis: dict[sp.Expr, tuple[sp.Symbol, Fraction]] = {}
        for monomial in sorted({m for c in found.values() for m in c}, key=sp.default_sort_key):
            g = _rational_gcd([c[monomial] for c in found.values() if monomial in c])
            argument = sp.Rational(g.numerator, g.denominator) * monomial
            # Written out, never through the printer: b^1 must stay Rpower b 1 here.
            head = "exp" if exponential else f"Rpower {printer.at(base)}"
            stand_in = sp.Dummy("basis")
            names[stand_in] = (f"{head} {printer.at(argument)}", APPLICATION)
            basis[monomial] = (stand_in, g)
            if not exponential and argument == 1:
                ones.append((stand_in, base))
        for atom, coefficients in found.items():
            factors, value = [], sp.Integer(1)
            for monomial, c in coefficients.items():
                stand_in, g = basis[monomial]
                n = int(c / g)  # an integer: g divides every coefficient of its monomial
                text = names[stand_in][0]
                factors += [text if n > 0 else f"/ {text}"] * abs(n)
                value *= stand_in**n
            if not factors:
                if exponential:
                    proof = f"symmetry; apply exp_at_0; {ALGEBRA}"
                else:
                    proof = f"symmetry; apply Rpower_at_0; {ALGEBRA}"
                lines.append(f"replace ({printer.term(atom)}) with 1 by ({proof}).")
            elif factors != [printer.term(atom)]:
                lines.append(
                    f"replace ({printer.term(atom)}) with ({' * '.join(factors)}) by "
                    f"(rewrite <- ?{minus}, <- ?{plus}; args)."
                )
            mapping[atom] = value
    printer = printer.with_names(names)
    lhs, rhs = lhs.xreplace(mapping), rhs.xreplace(mapping)
    for stand_in, base in ones:
        if lhs.has(stand_in) or rhs.has(stand_in):
            lines.append(f"rewrite (Rpower_1 {printer.at(base)}) by side.")
            lhs, rhs = lhs.xreplace({stand_in: base}), rhs.xreplace({stand_in: base})
    return lhs, rhs, printer


def power_proof(printer: Printer, lhs: sp.Expr, rhs: sp.Expr, rule: Rule):
    """(sentences, lhs, rhs, printer) after rule's work on the powers of lhs = rhs: the sides
    written through basis powers (stand-in symbols the returned printer names)."""
    lines: list[str] = []
    if rule.coq_plan is CoqPlan.EXPONENTIAL:
        lhs, rhs = _exponential_form(printer, lhs, rhs, lines)
        lhs, rhs, printer = _through_basis(printer, lhs, rhs, lines, exponential=True)
        return lines, lhs, rhs, printer
    if rule.coq_plan is CoqPlan.POWER_LAWS:
        lhs, rhs = _power_laws(printer, lhs, rhs, lines)
    lhs, rhs, printer = _through_basis(printer, lhs, rhs, lines, exponential=False)
    return lines, lhs, rhs, printer
