"""The Coq proof of one step from the rules it cites: SymPy plans the rewrites, Coq checks them.

A step a = b citing rules r_1, …, r_m is proved as the checker proves it: both sides rewritten
by each rule in turn, then equal by algebra. In Coq:
1. atoms written differently but equal by algebra on their arguments (sin((pos + k)·ω) beside
   sin(pos·ω + k·ω)) are given one text: `replace (...) with (...) by args` (f_equal, ring);
2. each atom a rule rewrites is replaced by what the rule makes of it, proved locally by the
   rule's own Coq tactic (Rule.coq: sin_plus and cos_plus for angle addition, sin_neg and
   cos_neg for parity, sin_period_Z for the period, ...) after writing the atom's argument in the
   pattern of the rule's plan (Rule.coq_plan: sin(a + b), cos(−x), sin(x + 2πn));
3. what is left is an identity of polynomials (or rational functions) in the atoms: `ring` or
   `field`, or, when the Pythagorean identity is cited, a certificate lhs − rhs =
   Σ q_j·(sin²B_j + cos²B_j − 1), checked by ring, its brackets then 0 by `rewrite !pyth`.
A matrix step is proved entry by entry, after `mat_unfold` computes the entries (Helpers.v).

Which of these a rule gets is the rule's own declaration (Rule.coq_plan, proofs.engine.rules.rule):
this file names no rule. One file because it carries out every plan a rule can declare; a new
rule that fits a plan changes nothing here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sympy as sp

from proofs.engine.coq.integers import NoIntegerProofError, integer_parts_proof
from proofs.engine.coq.powers import NoPowerProofError, power_proof
from proofs.engine.coq.printer import (
    PRODUCT,
    NotExpressibleError,
    Printer,
    coq_name,
    is_atom,
    is_complex,
)
from proofs.engine.rules import Rule
from proofs.engine.rules.matrices import explicit
from proofs.engine.rules.normal_form import equal_by_algebra
from proofs.engine.rules.rule import CoqPlan
from proofs.engine.rules.trigonometry import _negated, _terms

RING = "ring"
FIELD = "field; side"
# Proves two applications of one function equal from their arguments (Helpers.v).
ARGS = "args"
# Computes the entries of explicit matrices, products and transposes (Helpers.v).
MAT_UNFOLD = "mat_unfold"
# The plans that rewrite single atoms (sin, cos) in place, each after writing the atom's
# argument in the pattern of the rule's lemma.
ATOM_PLANS = (
    CoqPlan.ANGLE_SUM,
    CoqPlan.ANGLE_DIFFERENCE,
    CoqPlan.NEGATED_ANGLE,
    CoqPlan.FULL_TURNS,
    CoqPlan.HALF_TURNS,
    CoqPlan.ANGLE_MULTIPLE,
)
# The plans that write powers through a basis (proofs.engine.coq.powers).
POWER_PLANS = (CoqPlan.EXPONENT_LAWS, CoqPlan.POWER_LAWS, CoqPlan.EXPONENTIAL)


class NoProofError(ValueError):
    """SymPy found no proof script for the step; the message says what was missing."""


def is_matrix(expr: sp.Basic) -> bool:
    return isinstance(expr, sp.MatrixBase | sp.MatrixExpr)


@dataclass
class Plan:
    """The current expressions of a proof in progress and the tactic sentences so far."""

    lhs: sp.Expr
    rhs: sp.Expr
    lines: list[str]


def atoms_of(*exprs: sp.Basic) -> list[sp.Basic]:
    """The atoms of exprs, innermost first, each once (as written). An atom inside a Σ that
    mentions the Σ's index is left out: a sentence outside the Σ cannot name it."""
    out: list[sp.Basic] = []
    seen: set[sp.Basic] = set()

    def walk(e: sp.Basic, bound: frozenset) -> None:
        inner = bound | {limit[0] for limit in e.limits} if isinstance(e, sp.Sum) else bound
        for a in e.args:
            walk(a, inner)
        if is_atom(e) and e not in seen and not (e.free_symbols & bound):
            seen.add(e)
            out.append(e)

    for e in exprs:
        walk(e, frozenset())
    return out


def normalize(printer: Printer, *exprs: sp.Basic) -> list[str]:
    """replace sentences giving atoms equal by algebra on their arguments one text."""
    lines = []
    done: set[str] = set()
    for atom in atoms_of(*exprs):
        if is_complex(atom) or isinstance(atom, sp.re | sp.im):
            continue  # complex atoms are computed away (complex_parts), never rewritten
        if isinstance(atom, sp.Pow) and sp.expand(atom.exp) == 0:
            # b^(expression equal to 0) is 1: ring's normal form has no such atom.
            written = printer.written(atom)
            if written not in done:
                done.add(written)
                lines.append(
                    f"replace ({written}) with 1 by (symmetry; apply Rpower_at_0; "
                    f"{_exponent_closer(atom.exp)})."
                )
            continue
        written, canonical = printer.written(atom), printer.term(atom)
        if written != canonical and written not in done:
            done.add(written)
            lines.append(f"replace ({written}) with ({canonical}) by {_args_tactic(atom)}.")
    return lines


def _args_tactic(atom: sp.Basic) -> str:
    if isinstance(atom, sp.Sum):
        # Term by term: by algebra, or once the sines and cosines have one text.
        return (
            "(apply sum_eq; intros; cbv beta; "
            "first [ring | field; side | same_args; first [ring | field; side]])"
        )
    return ARGS


def scalar_proof(printer: Printer, lhs: sp.Expr, rhs: sp.Expr, rules: Sequence[Rule]) -> list[str]:
    """The sentences proving lhs = rhs (scalars, hypotheses introduced) by rules, then algebra."""
    for side in (lhs, rhs):
        printer.term(side)  # NotExpressibleError first: no search for what cannot be stated
    plan = Plan(lhs, rhs, normalize(printer, lhs, rhs))
    rules = [r for r in rules if r.coq_plan is not CoqPlan.MATRIX]
    # Written through basis powers, a side divides where SymPy's form of it no longer does.
    divides = False
    for position, rule in enumerate(rules):
        kind = rule.coq_plan
        if kind is CoqPlan.CLOSE:
            continue
        if kind is CoqPlan.CERTIFICATE:
            if any(r.coq_plan is not CoqPlan.CLOSE for r in rules[position + 1 :]):
                raise NoProofError(f"the {rule.words} is applied last, as a certificate")
            plan.lines += pythagorean_certificate(
                printer, plan.lhs, plan.rhs, field=divides, tactic=rule.coq
            )
            return plan.lines
        if kind is CoqPlan.EXPONENT_LAWS and _powers_of_one_number(plan.lhs, plan.rhs):
            plan.lines += [f"{rule.coq}.", f"all: {_closer(plan.lhs, plan.rhs)}."]
            return plan.lines
        if kind in POWER_PLANS:
            try:
                lines, plan.lhs, plan.rhs, printer = power_proof(printer, plan.lhs, plan.rhs, rule)
            except NoPowerProofError as exc:
                raise NoProofError(str(exc)) from exc
            plan.lines += lines
            divides = True
            continue
        if kind is CoqPlan.INTEGERS:
            try:
                lines, plan.lhs, plan.rhs = integer_parts_proof(printer, plan.lhs, plan.rhs, rule)
            except NoIntegerProofError as exc:
                raise NoProofError(str(exc)) from exc
            plan.lines += lines
            continue
        if kind is CoqPlan.WHOLE_GOAL:
            # The tactic does to the goal what the rule does to the sides (complex form:
            # Euler's formula, a lemma from cexp's definition, then the real and imaginary
            # parts computed), so what is left is the rule's result.
            plan.lines.append(f"{rule.coq}.")
            plan.lhs, plan.rhs = rule(plan.lhs), rule(plan.rhs)
            continue
        if kind is CoqPlan.SUM_TERMS:
            _rewrite_atoms(printer, plan, rule, _count_terms_step)
        elif kind in ATOM_PLANS:
            _rewrite_atoms(printer, plan, rule, _atom_step)
        else:
            raise NoProofError(f"the rule {rule.words!r} has no Coq tactic")
    difference = _difference(printer, plan.lhs, plan.rhs)
    if difference != 0:
        cited = ", ".join(r.words for r in rules) or "algebra"
        raise NoProofError(f"lhs − rhs is not 0 by algebra after {cited}")
    plan.lines.append(f"{FIELD if divides else _closer(plan.lhs, plan.rhs)}.")
    return plan.lines


def _powers_of_one_number(*exprs: sp.Expr) -> bool:
    """Whether exprs are products and quotients of powers of one positive number (what the
    exponent laws' short script, Rpower_plus then algebra on the exponents, handles; anything
    else is written through basis powers, proofs.engine.coq.powers)."""
    bases = set()
    for e in exprs:
        for factor in sp.Mul.make_args(e):
            base = factor.base if isinstance(factor, sp.Pow) else factor
            if not (base.is_number and base.is_positive):
                return False
            bases.add(base)
    return len(bases) == 1


def _exponent_closer(exponent: sp.Expr) -> str:
    """Closes exponent = 0 for an exponent equal to 0 whatever its divisors are (0 / d = 0)."""
    return "unfold Rdiv; ring" if has_division(exponent) else RING


def _closer(*exprs: sp.Expr) -> str:
    return FIELD if has_division(*exprs) else RING


def has_division(*exprs: sp.Basic) -> bool:
    """Whether any of exprs divides outside an atom (ring cannot; field can)."""

    def walk(e: sp.Basic) -> bool:
        if is_atom(e) and not isinstance(e, sp.Pow):
            return False
        if isinstance(e, sp.Pow) and e.exp.is_Integer and e.exp.is_negative:
            return True
        if isinstance(e, sp.Pow) and not e.exp.is_Integer:
            # 10000**(2i/d) is printed 1/omega: a division.
            return e.exp.could_extract_minus_sign() is False
        if isinstance(e, sp.Rational) and not e.is_Integer:
            return True
        return any(walk(a) for a in e.args)

    return any(walk(e) for e in exprs)


def _difference(printer: Printer, lhs: sp.Expr, rhs: sp.Expr) -> sp.Expr:
    return sp.cancel(sp.together(printer.atoms.polynomial(lhs) - printer.atoms.polynomial(rhs)))


# ---------- rules that rewrite atoms ----------


def _rewrite_atoms(printer: Printer, plan: Plan, rule: Rule, step) -> None:
    """Every atom rule rewrites, replaced by what it becomes (a local proof per atom)."""
    atoms = atoms_of(plan.lhs, plan.rhs)
    candidates = [a for a in atoms if isinstance(a, sp.sin | sp.cos | sp.Sum)]
    if not candidates:
        return
    rewritten = rule(sp.Tuple(*candidates))
    mapping = {}
    for atom, new in zip(candidates, rewritten, strict=True):
        if new == atom:
            continue
        local = step(printer, rule, atom, new)
        if local is None:
            continue
        mapping[atom] = new
        plan.lines.append(
            f"replace ({printer.term(atom)}) with ({printer.term(new)}) by ({local})."
        )
    plan.lhs, plan.rhs = plan.lhs.xreplace(mapping), plan.rhs.xreplace(mapping)


def _atom_step(printer: Printer, rule: Rule, atom: sp.Expr, new: sp.Expr) -> str | None:
    """The local proof of new = atom: the atom's argument written in the rule's pattern (algebra),
    then the rule's tactic, then ring."""
    found = _pattern(printer, rule, atom, new)
    if found is None:
        return None
    pattern, preparation = found
    f = type(atom).__name__
    rewrite = f"{rule.coq}; {_closer(new)}"
    if f"{f} ({pattern})" == printer.term(atom):
        return rewrite
    algebra = f"({'; '.join([*preparation, ARGS])})" if preparation else ARGS
    return f"replace ({printer.term(atom)}) with ({f} ({pattern})) by {algebra}; {rewrite}"


def _pattern(
    printer: Printer, rule: Rule, atom: sp.Expr, new: sp.Expr
) -> tuple[str, list[str]] | None:
    """(the atom's argument as the rule's lemma needs it written, the sentences that prepare the
    argument for algebra), or None if the rule left the atom as it was."""
    text = _pattern_text(printer, rule, atom, new)
    if text is None or not isinstance(text, str):
        return text
    return text, []


def _pattern_text(printer: Printer, rule: Rule, atom: sp.Expr, new: sp.Expr):
    (angle,) = atom.args
    kind = rule.coq_plan
    if kind in (CoqPlan.ANGLE_SUM, CoqPlan.ANGLE_DIFFERENCE):
        terms = _terms(angle)
        if len(terms) < 2:
            return None
        text = printer.argument(terms[0], PRODUCT)
        for term in terms[1:]:
            minus = _negated(term) if kind is CoqPlan.ANGLE_DIFFERENCE else None
            if minus is not None:
                text += f" - {printer.argument(minus, PRODUCT)}"
            else:
                text += f" + {printer.argument(term, PRODUCT)}"
        return text
    if kind is CoqPlan.NEGATED_ANGLE:
        inner = _negated(angle)
        return None if inner is None else f"- {printer.argument(inner)}"
    if kind in (CoqPlan.FULL_TURNS, CoqPlan.HALF_TURNS):
        full = kind is CoqPlan.FULL_TURNS
        base = _single_argument(new)
        turns = sp.simplify((angle - base) / sp.pi / (2 if full else 1))
        if not turns.is_integer:
            raise NoProofError(f"{atom}: the removed multiple of π is not an integer multiple")
        written = sp.Add(base, (2 if full else 1) * turns * sp.pi)
        preparation = (
            [] if equal_by_algebra(angle, written) else combine_powers(printer, angle, written)
        )
        multiple = f"IZR {_integer(printer, turns)}"
        factor = f"2 * {multiple}" if full else multiple
        return f"{printer.argument(base, PRODUCT)} + {factor} * PI", preparation
    if kind is CoqPlan.ANGLE_MULTIPLE:
        base = _single_argument(new)
        copies = sp.simplify(angle / base)
        if not (copies.is_Integer and 1 < copies <= 12):
            raise NoProofError(f"{atom}: not a small multiple of {base}")
        return " + ".join([printer.argument(base, PRODUCT)] * int(copies))
    raise NoProofError(f"the rule {rule.words!r} rewrites no single atom")


def combine_powers(printer: Printer, a: sp.Expr, b: sp.Expr) -> list[str]:
    """Sentences writing powers of one number through one of them (b^s = b / b^r when r + s = 1),
    after which a = b holds by algebra; NoProofError if that does not make it hold."""
    powers: dict[sp.Expr, list[sp.Pow]] = {}
    for p in sorted(a.atoms(sp.Pow) | b.atoms(sp.Pow), key=sp.default_sort_key):
        if p.base.is_Integer and p.base > 1 and p.exp.is_Rational and not p.exp.is_Integer:
            powers.setdefault(p.base, []).append(p)
    mapping: dict[sp.Expr, sp.Expr] = {}
    lines = []
    for base, found in powers.items():
        pivot, *others = found
        stand_in = sp.Dummy("p")
        mapping[pivot] = stand_in
        for other in others:
            if pivot.exp + other.exp != 1:
                continue
            mapping[other] = base / stand_in
            r, s = printer.at(pivot.exp), printer.at(other.exp)
            lines.append(
                f"replace ({printer.term(other)}) with ({base} / {printer.term(pivot)}) by "
                f"(rewrite (Rpower_split {base} {r} {s}); replace ({r} + {s}) with 1 by field; "
                "rewrite Rpower_1 by lra; reflexivity)"
            )
    if not lines or not equal_by_algebra(a.xreplace(mapping), b.xreplace(mapping)):
        raise NoProofError(
            f"{sp.sstr(a)} = {sp.sstr(b)} needs relations between powers of one number that the "
            "script does not find"
        )
    return lines


def _single_argument(expr: sp.Expr) -> sp.Expr:
    """The one angle the sines and cosines of expr share (0 when there are none)."""
    angles = {a.args[0] for a in expr.atoms(sp.sin, sp.cos)}
    if len(angles) > 1:
        raise NoProofError(f"{expr}: the rule's result mixes the angles {sorted(map(str, angles))}")
    return angles.pop() if angles else sp.Integer(0)


def _integer(printer: Printer, value: sp.Expr) -> str:
    """An integer-valued expression as a Coq Z term in parentheses."""
    if value.is_Integer:
        return f"({value})"
    if isinstance(value, sp.Symbol) and value in printer.context.integers:
        return coq_name(value)
    raise NoProofError(f"the multiple {value} is not an integer symbol bound as one")


def _count_terms_step(printer: Printer, rule: Rule, atom: sp.Expr, new: sp.Expr) -> str | None:
    if not isinstance(atom, sp.Sum):
        return None
    return f"{rule.coq}; {_closer(new, sp.Rational(1, 2))}"


# ---------- the Pythagorean identity ----------


def pythagorean_certificate(
    printer: Printer, lhs: sp.Expr, rhs: sp.Expr, *, field: bool = False, tactic: str
) -> list[str]:
    """lhs − rhs = Σ q_j·(sin²B_j + cos²B_j − 1), found by reducing modulo those brackets (a
    Gröbner basis: their leading monomials sin²B_j are coprime), checked by ring or field
    (field: the Coq goal divides where lhs and rhs no longer show it), the brackets then 0 by
    tactic (the Pythagorean rule's)."""
    table = printer.atoms
    difference = sp.together(table.polynomial(lhs) - table.polynomial(rhs))
    numerator, denominator = sp.fraction(difference)
    numerator = sp.expand(numerator)
    closer = FIELD if field else _closer(lhs, rhs)
    if numerator == 0:
        return [f"{closer}."]
    angles: dict[object, sp.Expr] = {}
    for dummy, atom in list(table.original.items()):
        if isinstance(atom, sp.sin | sp.cos) and dummy in numerator.free_symbols:
            angles.setdefault(table.polynomial(atom.args[0]), atom.args[0])
    bases = []
    for angle in angles.values():
        s = table.polynomial(sp.sin(angle, evaluate=False))
        c = table.polynomial(sp.cos(angle, evaluate=False))
        bases.append((angle, s, c))
    if not bases:
        raise NoProofError("lhs − rhs is not 0 and has no sine or cosine to use sin² + cos² = 1")
    brackets = [s**2 + c**2 - 1 for _, s, c in bases]
    gens = [g for _, s, c in bases for g in (s, c)]
    others = sorted(numerator.free_symbols - set(gens), key=sp.default_sort_key)
    quotients, remainder = sp.reduced(numerator, brackets, *gens, *others, order="lex")
    if sp.expand(remainder) != 0:
        raise NoProofError("lhs − rhs does not reduce to 0 modulo sin² + cos² = 1")
    terms = []
    for q, (angle, _, _) in zip(quotients, bases, strict=True):
        if q == 0:
            continue
        s = printer.term(sp.sin(angle, evaluate=False))
        c = printer.term(sp.cos(angle, evaluate=False))
        weight = printer.term(table.expression(q / denominator))
        terms.append(f"({weight}) * ({s} ^ 2 + {c} ^ 2 - 1)")
    return [
        "apply Rminus_diag_uniq.",
        f"transitivity ({' + '.join(terms)}); [{closer} | {tactic}; ring].",
    ]


# ---------- matrices ----------


def index_pattern(size: int, name: str) -> str:
    """The destruct pattern naming indices 0 .. size − 1 and one case past them: [|[|ri]]."""
    pattern = name
    for _ in range(size):
        pattern = f"[|{pattern}]"
    return pattern


def split_entries(rows: int, cols: int) -> list[str]:
    """Sentences reducing a matrix equation to one goal per entry (and the entries past the
    shape), in row-major order, entries computed."""
    return [
        "apply mat_ext; intros ri ci.",
        f"destruct ri as {index_pattern(rows, 'ri')}; destruct ci as {index_pattern(cols, 'ci')}"
        f"; {MAT_UNFOLD}.",
    ]


def entries(expr: sp.Basic) -> sp.ImmutableMatrix:
    """The explicit entries of a matrix (expression) as written."""
    value = explicit(expr)
    if not isinstance(value, sp.MatrixBase):
        raise NotExpressibleError(f"{type(expr).__name__} has no explicit entries")
    return value


def matrix_proof(printer: Printer, lhs: sp.Basic, rhs: sp.Basic, entry_proof) -> list[str]:
    """Sentences proving the matrix equation lhs = rhs entry by entry: entry_proof(a, b) proves
    entry a = b; entries past the shape are 0 = 0 up to ring."""
    left, right = entries(lhs), entries(rhs)
    if left.shape != right.shape:
        raise NoProofError(f"the two sides have shapes {left.shape} and {right.shape}")
    rows, cols = left.shape
    lines = split_entries(rows, cols)
    for r in range(rows + 1):
        for c in range(cols + 1):
            inside = r < rows and c < cols
            script = entry_proof(left[r, c], right[r, c]) if inside else [f"{RING}."]
            lines += [f"- {script[0]}", *(f"  {line}" for line in script[1:])]
    return lines


def rule_proof(printer: Printer, lhs: sp.Basic, rhs: sp.Basic, rules: Sequence[Rule]) -> list[str]:
    """Sentences proving lhs = rhs (scalars or matrices) by the cited rules, then algebra."""
    if is_matrix(lhs) or is_matrix(rhs):
        return matrix_proof(printer, lhs, rhs, lambda a, b: scalar_proof(printer, a, b, rules))
    return scalar_proof(printer, lhs, rhs, rules)
