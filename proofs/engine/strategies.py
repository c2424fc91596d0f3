"""The order in which the rules are tried where no citation says which, built from the rules'
own declarations (Rule.search, Rule.diagnosis: proofs.engine.rules.rule), and the exact
reduction that order gives.

STRATEGIES: the rule sequences a claim citing nothing tries, cheapest first: round 0 alone
(algebra), then for each round k the rules of rounds 1 to k in the order of their positions.
LAST_RESORTS: the rules tried one by one after that, on a claim with symbols (their answers can
be wrong). DIAGNOSIS: the single rules and pairs tried, in order, for what closes a link its
citation does not. The positions put the rules of the rounds in the order that lets each do its
work on what the one before left: matrices carried out, exponents combined, periods removed,
then angles split (common angle, sums, multiples), the signs taken out, cos² written as
1 − sin², and common factors cancelled. reduce_exactly is the one use of the strategies the zero test shares with the
symbolic check (proofs.engine.zero_test, proofs.engine.symbolic), which is why it lives here.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.citation import apply_rules, rules_close
from proofs.engine.rules import ALGEBRA, RULES, Rule
from proofs.engine.rules.normal_form import Atoms
from proofs.engine.rules.rule import LastResort, Round


def _strategies(rules: tuple[Rule, ...]) -> tuple[tuple[Rule, ...], ...]:
    rounds = {r: r.search for r in rules if isinstance(r.search, Round)}
    alone = tuple(r for r, place in rounds.items() if place.round == 0)
    in_sequence = sorted(
        (r for r, place in rounds.items() if place.round > 0),
        key=lambda r: (rounds[r].position, r.name),
    )
    numbered = sorted({rounds[r].round for r in in_sequence})
    return (alone, *(tuple(r for r in in_sequence if rounds[r].round <= k) for k in numbered))


def _last_resorts(rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
    last = [r for r in rules if isinstance(r.search, LastResort)]
    return tuple(sorted(last, key=lambda r: (r.search.position, r.name)))


def _diagnosis(rules: tuple[Rule, ...]) -> tuple[tuple[Rule, ...], ...]:
    tries: list[tuple[int, tuple[Rule, ...]]] = []
    for rule in rules:
        if rule.diagnosis.alone is not None:
            tries.append((rule.diagnosis.alone, (rule,)))
        for place, second in rule.diagnosis.then:
            if second not in RULES:
                raise ImportError(f"rule {rule.name}'s diagnosis names no rule {second!r}")
            tries.append((place, (rule, RULES[second])))
    tries.sort(key=lambda t: (t[0], tuple(r.name for r in t[1])))
    return tuple(pair for _, pair in tries)


STRATEGIES: tuple[tuple[Rule, ...], ...] = _strategies(tuple(RULES.values()))
LAST_RESORTS: tuple[Rule, ...] = _last_resorts(tuple(RULES.values()))
DIAGNOSIS: tuple[tuple[Rule, ...], ...] = _diagnosis(tuple(RULES.values()))


def residue(a: sp.Basic, b: sp.Basic, rules: tuple[Rule, ...]) -> sp.Basic:
    """The difference of the two sides after the rules, as an expression (for the reader)."""
    x, y = apply_rules(a, b, rules or (ALGEBRA,))
    if isinstance(x, sp.MatrixBase) and isinstance(y, sp.MatrixBase) and x.shape == y.shape:
        atoms = Atoms()
        entries = [atoms.expression(atoms.polynomial(p - q)) for p, q in zip(x, y, strict=True)]
        return next((e for e in entries if e != 0), sp.Integer(0))
    if isinstance(x, sp.MatrixBase | sp.MatrixExpr) or isinstance(y, sp.MatrixBase | sp.MatrixExpr):
        return sp.Integer(0)
    atoms = Atoms()
    return atoms.expression(atoms.polynomial(x - y))


def reduce_exactly(difference: sp.Expr) -> sp.Expr:
    """difference rewritten by the exact rules: 0 if one of the strategies closes it, else the
    shortest rewritten form.

    >>> x = sp.Symbol("x")
    >>> reduce_exactly(sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1)
    0
    """
    zero = sp.Integer(0)
    results = []
    for rules in STRATEGIES:
        if rules_close(difference, zero, rules):
            return zero
        results.append(residue(difference, zero, rules))
    return min(results, key=sp.count_ops)
