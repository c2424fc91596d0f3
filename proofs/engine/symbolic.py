"""The symbolic half of a link check: does the cited rule (or lemma) turn lhs into rhs?

A step of a theorem cites its justification, and the check applies exactly that
(proofs.engine.citation). It passes only when the citation closes the link and is needed: a link
that algebra alone closes does not need the parity rule, and a link whose two sides are
identical as written checks nothing. When the citation does not close the link, the rules are
searched for what does, and the verdict names it ("closed by angle addition, not by the cited
parity"): a defect of the theorem module, never counted as proved.

A claim that cites nothing (prove_identity) is closed by whatever the rules can do, tried in
turn, and the result names the rules that did it. The exact rules rewrite by identities that
hold everywhere; trigsimp, simplify and Sum.doit may evaluate numbers in floating point or
answer wrongly, so a zero they reach is only a candidate, which the link check confirms by
certified evaluation (``needs_confirmation``). A difference that the exact rules turn into a
constant is decided by the certified zero test: a ball that excludes 0 is a certificate that
the link is false at every point; anything else is inconclusive.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from proofs.engine.budget import stage
from proofs.engine.citation import Citation, Lemma, Termwise, closes, rules_close, rules_of, words
from proofs.engine.rules import ALGEBRA, Rule
from proofs.engine.show import show
from proofs.engine.strategies import DIAGNOSIS, LAST_RESORTS, STRATEGIES, reduce_exactly, residue
from proofs.engine.zero_test import decide_constant


@dataclass(frozen=True)
class SymbolicResult:
    """Outcome of the symbolic check of one link.

    passed: True if the link closed (by its citation, when it has one); False if lhs − rhs
    reduced to a nonzero constant (a certificate); None if inconclusive. rule: what closed it,
    in words ("" when nothing did). residue: for a failure, the reduced difference of the first
    entry that did not vanish. cited: the citation in words ("" for a claim that cites none).
    defect: why a cited link is not proved although something closed it ("closed by algebra,
    not by the cited parity"; "the two sides are identical as written").
    """

    passed: bool | None
    rule: str
    residue: sp.Expr | None = None
    cited: str = ""
    defect: str = ""
    exact: bool = True

    @property
    def closed_by(self) -> str:
        """What closed the link symbolically, in words ("" when nothing did)."""
        return self.rule

    @property
    def needs_confirmation(self) -> bool:
        """True when a zero was reached by a rule that may have evaluated numbers."""
        return bool(self.passed) and not self.exact

    def summary(self) -> str:
        """A short human-readable line."""
        if self.passed:
            return f"symbolic ✓ {self.rule}"
        if self.defect:
            return f"symbolic ? {self.defect}"
        if self.passed is False:
            return f"symbolic ✗ lhs - rhs = {show(self.residue)}, a nonzero constant"
        return f"symbolic ? lhs - rhs did not reduce to 0 (left: {show(self.residue)[:80]})"


def _difference(a: sp.Basic, b: sp.Basic) -> sp.Basic:
    if isinstance(a, sp.MatrixBase) and isinstance(b, sp.MatrixBase):
        return sp.ImmutableMatrix(a) - sp.ImmutableMatrix(b)
    return a - b


def _needed(a: sp.Basic, b: sp.Basic, rules: tuple[Rule, ...]) -> tuple[Rule, ...]:
    """rules cut to those the link needs: each rule is dropped while the rest still close it."""
    kept = list(rules)
    for rule in rules:
        if len(kept) > 1 and rule in kept:
            trial = tuple(r for r in kept if r is not rule)
            if rules_close(a, b, trial):
                kept.remove(rule)
    if len(kept) > 1 and ALGEBRA in kept:
        kept.remove(ALGEBRA)
    return tuple(kept)


def diagnose(a: sp.Basic, b: sp.Basic) -> tuple[Rule, ...] | None:
    """The fewest rules (searched cheapest first) that close a → b, or None."""
    if rules_close(a, b, (ALGEBRA,)):
        return (ALGEBRA,)
    for rules in DIAGNOSIS:
        if rules_close(a, b, rules):
            return rules
    for rules in STRATEGIES[1:]:
        if rules_close(a, b, rules):
            return _needed(a, b, rules)
    return None


def check_cited(a: sp.Basic, b: sp.Basic, citation: Citation) -> SymbolicResult:
    """Whether the cited rule or lemma closes a → b, and is needed to.

    The verdict names what closed the link; a citation that does not close it, or that algebra
    alone would not need, is a defect: passed None, with the defect said in words.
    """
    if isinstance(citation, tuple) and len(citation) == 1:
        citation = citation[0]
    cited = words(citation)
    with stage(f"symbolic check ({cited})"):
        if a == b:
            return SymbolicResult(None, "", None, cited, "the two sides are identical as written")
        algebra_alone = rules_close(a, b, (ALGEBRA,))
        reason = closes(a, b, citation)
        if not reason:
            if algebra_alone and citation is not ALGEBRA:
                return _defect(cited, "algebra")
            if isinstance(citation, tuple) and len(citation) > 1:
                needed = _needed(a, b, citation)
                if needed != citation:
                    return _defect(cited, words(needed))
            exact = all(rule.exact for rule in rules_of(citation))
            return SymbolicResult(True, cited, None, cited, exact=exact)
        found = _diagnose_inside(a, b, citation)
        if found is not None:
            return _defect(cited, found)
        return SymbolicResult(None, "", residue(a, b, rules_of(citation)), cited, reason)


def _diagnose_inside(a: sp.Basic, b: sp.Basic, citation: Citation) -> str | None:
    """What closes a link whose citation did not: the rules, or for a termwise citation the
    rules that close the summands."""
    if isinstance(citation, Termwise):
        for inner in (ALGEBRA, *DIAGNOSIS):
            if not closes(a, b, Termwise(inner)):
                return words(Termwise(inner))
        return None
    found = diagnose(a, b)
    return None if found is None else words(found)


def _defect(cited: str, closed_by: str) -> SymbolicResult:
    return SymbolicResult(
        None, closed_by, None, cited, f"closed by {closed_by}, not by the cited {cited}"
    )


def reduce_to_zero(
    difference: sp.Expr, *, thorough: bool = True
) -> tuple[str | None, sp.Expr, bool | None, bool]:
    """Try the rules on difference (= 0?): (rules in words, 0, True, exact) on success; else
    (None, residue, False, True) when an exact rule left a certified nonzero constant; else
    (None, residue, None, True).

    thorough=False skips trigsimp, simplify and Sum.doit, which can take minutes and, as their
    zeros need confirmation anyway, add nothing once a point has refuted the claim.
    """
    zero = sp.Integer(0)
    last = difference
    tried: set[sp.Expr] = set()
    with stage("symbolic reduction"):
        for rules in STRATEGIES:
            with stage(f"symbolic reduction ({words(rules)})"):
                if rules_close(difference, zero, rules):
                    needed = _needed(difference, zero, rules)
                    return words(needed), zero, True, all(r.exact for r in needed)
                last = residue(difference, zero, rules)
            if not last.free_symbols and last.is_number and last not in tried:
                tried.add(last)
                with stage("certified zero test of a constant"):
                    is_zero, how = decide_constant(last)
                if is_zero is False:
                    return None, last, False, True
                if is_zero:
                    needed = _needed(difference, zero, rules)
                    exact = all(r.exact for r in needed)
                    return f"{words(needed)}, then {how}", zero, True, exact
        with stage("symbolic reduction (sums termwise)"):
            merged = _sums_termwise(difference)
            if merged is not None and merged != 0:
                merged = reduce_exactly(merged)
        if merged is not None and merged == 0:
            return "sum termwise", zero, True, True
        # A constant is left to the certified zero test above: trigsimp and simplify can run for
        # minutes on one (cos(pi/7) + cos(3*pi/7) + cos(5*pi/7) - 1/2 - 10**-700).
        if thorough and difference.free_symbols:
            for rule in LAST_RESORTS:
                with stage(f"symbolic reduction ({rule.words})"):
                    candidate = rule(merged if merged is not None else difference)
                    if candidate != 0 and rule.search.then_exact:
                        candidate = reduce_exactly(candidate)
                if candidate == 0:
                    return rule.words, zero, True, False
    return None, last, None, True


def _sums_termwise(difference: sp.Expr) -> sp.Expr | None:
    """Σ a − Σ b over one range as Σ (a − b), each merged summand reduced by the exact rules;
    None when the difference has no Sum. Exact: no sum is evaluated here."""
    if not difference.has(sp.Sum):
        return None
    groups: dict[tuple, list[sp.Expr]] = {}
    rest = []
    for term in sp.Add.make_args(sp.expand(difference)):
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
        summand = reduce_exactly(sp.Add(*summands))
        if summand != 0:
            out.append(sp.Sum(summand, *limits))
    return sp.expand(sp.Add(*out))


def check_uncited(lhs: sp.Basic, rhs: sp.Basic, *, thorough: bool = True) -> SymbolicResult:
    """Reduce lhs − rhs (scalars or same-shape matrices) entry by entry to 0 with any rule.

    thorough=False skips trigsimp, simplify and Sum.doit: for a link already refuted at a point,
    where only a cheap certificate (a nonzero constant difference) is still of interest.
    """
    difference = _difference(lhs, rhs)
    entries = list(difference) if isinstance(difference, sp.MatrixBase) else [difference]
    rules: list[str] = []
    exact = True
    for entry in entries:
        rule, reduced, verdict, entry_exact = reduce_to_zero(
            sp.sympify(entry, strict=True), thorough=thorough
        )
        if rule is None:
            return SymbolicResult(verdict, "", reduced)
        exact = exact and entry_exact
        if rule not in rules:
            rules.append(rule)
    return SymbolicResult(True, ", ".join(rules), exact=exact)


__all__ = [
    "Lemma",
    "SymbolicResult",
    "Termwise",
    "check_cited",
    "check_uncited",
    "diagnose",
    "reduce_exactly",
    "reduce_to_zero",
]
