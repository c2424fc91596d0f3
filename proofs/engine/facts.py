"""Facts: checked statements that are not equalities.

"R(k*omega) does not contain pos" (FreeOf), "this expression is not 0" (NonZero), "this is >= 0"
(NonNegative), "this linear system has no solution" (LinearSystem), "this whole-vector statement
is a lemma at every block" (Blockwise), "find_shift_map decides this encoding so"
(ShiftMapFact) and "this claim is false, here is a certified counterexample" (Refutation). Every fact has the same protocol as a Derivation: a name that states it, a
title, verify(*, seed, timeout) -> Verdict, and its content as mathematical objects (the
printers in proofs.render say it in words). So a theorem's parts are checked one by one,
whatever their kind.

One module because the fact kinds share that protocol and its budget and argument checks; each
kind is one short dataclass, and apart they would repeat the protocol seven times.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import sympy as sp

from proofs.engine import arguments
from proofs.engine.balls import CertifiedError
from proofs.engine.blocks import Side
from proofs.engine.blockwise import Blockwise
from proofs.engine.budget import DEFAULT_TIMEOUT, run_with_budget
from proofs.engine.citation import Citation, check_citation
from proofs.engine.derivation import Derivation, Verdict, check_link
from proofs.engine.enclosure import Enclosure, enclose
from proofs.engine.floats import exact_floats
from proofs.engine.linear_system import LinearSolution, solve_linear
from proofs.engine.shift_decision import ShiftMap, find_shift_map
from proofs.engine.zero_test import is_zero, shielded


def _named(fact: object) -> None:
    """TypeError unless the fact's name and title are str."""
    arguments.text(fact.name, f"a {type(fact).__name__}'s name")
    arguments.text(fact.title, f"{fact.name}: title")


def within_budget(check: Callable[[], Verdict], timeout: float | None, name: str) -> Verdict:
    """check() within timeout seconds (None: no limit); past it, undecided, saying where."""

    def timed_out(where: str) -> Verdict:
        return Verdict("undecided", f"timed out in {where} (budget {timeout} s)")

    try:
        return run_with_budget(check, timeout, timed_out)
    except RecursionError:
        raise ValueError(f"fact {name!r}: an expression is nested too deeply to check") from None


@dataclass(frozen=True)
class FreeOf:
    """Fact: expr does not contain any of symbols (checked on its free symbols)."""

    name: str
    title: str
    expr: sp.Basic
    symbols: tuple[sp.Symbol, ...]

    def __post_init__(self) -> None:
        _named(self)
        # A block-structured side (proofs.engine.blocks) has free symbols too.
        if not isinstance(self.expr, Side):
            object.__setattr__(self, "expr", arguments.expression(self.expr, f"{self.name}: expr"))
        symbols = arguments.items(self.symbols, f"{self.name}: symbols")
        for j, s in enumerate(symbols):
            arguments.symbol(s, f"{self.name}: symbols[{j}]")
        object.__setattr__(self, "symbols", symbols)

    def verify(self, *, seed: int = 0, timeout: float | None = DEFAULT_TIMEOUT) -> Verdict:
        del seed, timeout  # reading the free symbols is immediate
        found = sorted(s.name for s in self.symbols if s in self.expr.free_symbols)
        if found:
            return Verdict("refuted", f"the expression contains {', '.join(found)}")
        names = ", ".join(s.name for s in self.symbols)
        return Verdict("proved", f"its free symbols do not include {names}")


@dataclass(frozen=True)
class NonZero:
    """Fact: expr != 0, decided by the certified zero test (proofs.engine.zero_test): balls for
    numbers, SymPy's assumptions on the symbols with every constant certified first."""

    name: str
    title: str
    expr: sp.Expr

    def __post_init__(self) -> None:
        _named(self)
        object.__setattr__(self, "expr", arguments.expression(self.expr, f"{self.name}: expr"))

    def verify(self, *, seed: int = 0, timeout: float | None = DEFAULT_TIMEOUT) -> Verdict:
        del seed  # no sampling: the zero test is exact or certified
        return within_budget(self._verify, timeout, self.name)

    def _verify(self) -> Verdict:
        z = is_zero(self.expr)
        if z is False:
            hyps = ", ".join(_hypotheses(self.expr)) or "its value"
            return Verdict("proved", f"nonzero by the hypotheses {hyps}")
        if z:
            return Verdict("refuted", "the expression is identically 0")
        return Verdict("undecided", "SymPy cannot tell from the hypotheses whether it vanishes")


@dataclass(frozen=True)
class NonNegative:
    """Fact: expr >= 0, shown by an equal witness that SymPy's assumptions see is nonnegative.

    expr = witness is checked like a derivation link (symbolically, by the cited rules `by`,
    and numerically); then
    witness.is_nonnegative must be True, as for a square of a real or a sum of such squares.
    Example: 1 - sin(x) = (sin(x/2) - cos(x/2))**2 >= 0 for real x.
    """

    name: str
    title: str
    expr: sp.Expr
    witness: sp.Expr
    by: Citation | None = None

    def __post_init__(self) -> None:
        _named(self)
        object.__setattr__(self, "expr", arguments.expression(self.expr, f"{self.name}: expr"))
        witness = arguments.expression(self.witness, f"{self.name}: witness")
        object.__setattr__(self, "witness", witness)
        if self.by is not None:
            check_citation(self.by, f"{self.name}: by")

    def verify(self, *, seed: int = 0, timeout: float | None = DEFAULT_TIMEOUT) -> Verdict:
        return within_budget(lambda: self._verify(seed), timeout, self.name)

    def _verify(self, seed: int) -> Verdict:
        link = check_link(self.expr, self.witness, seed=seed, by=self.by)
        # Constants SymPy would judge by evalf are replaced by what a ball certifies about them.
        sign = shielded(exact_floats(self.witness)).is_nonnegative
        if link.status == "refuted":
            cx = link.numeric.counterexample
            return Verdict("refuted", "the expression differs from its witness", cx, (link,))
        if sign is False:
            reason = "SymPy's assumptions make the witness negative"
            return Verdict("refuted", reason, None, (link,))
        if link.status == "undecided":
            reason = "the expression was not shown equal to its witness"
            return Verdict("undecided", reason, None, (link,))
        if sign is None:
            reason = "SymPy cannot tell from the hypotheses that the witness is ≥ 0"
            return Verdict("undecided", reason, None, (link,))
        hyps = ", ".join(_hypotheses(self.witness)) or "its value"
        reason = f"equal to its witness ({link.symbolic.rule}), which is ≥ 0 by {hyps}"
        return Verdict("proved", reason, None, (link,))


@dataclass(frozen=True)
class LinearSystem:
    """Fact: the linear system {e = 0} in unknowns has the expected outcome.

    expect: "inconsistent" (no solution, with a certificate) or a dict unknown -> value
    (the unique solution). All equations are kept; nothing is dropped.
    """

    name: str
    title: str
    equations: tuple[sp.Expr, ...]
    unknowns: tuple[sp.Symbol, ...]
    expect: str | dict[sp.Symbol, sp.Expr]

    def __post_init__(self) -> None:
        _named(self)
        equations = arguments.items(self.equations, f"{self.name}: equations")
        equations = tuple(
            arguments.expression(e, f"{self.name}: equations[{j}]") for j, e in enumerate(equations)
        )
        object.__setattr__(self, "equations", equations)
        unknowns = arguments.items(self.unknowns, f"{self.name}: unknowns")
        for j, u in enumerate(unknowns):
            arguments.symbol(u, f"{self.name}: unknowns[{j}]")
        object.__setattr__(self, "unknowns", unknowns)
        if isinstance(self.expect, str):
            if self.expect != "inconsistent":
                raise ValueError(
                    f"{self.name}: expect must be 'inconsistent' or the solution, "
                    f"got {self.expect[:40]!r}"
                )
        else:
            expect = arguments.bindings(self.expect, f"{self.name}: expect")
            object.__setattr__(self, "expect", expect)

    def solve(self) -> LinearSolution:
        return solve_linear(self.equations, self.unknowns)

    def verify(self, *, seed: int = 0, timeout: float | None = DEFAULT_TIMEOUT) -> Verdict:
        del seed  # exact row reduction, no sampling
        return within_budget(self._verify, timeout, self.name)

    def _verify(self) -> Verdict:
        result = self.solve()
        if result.status == "undecided":
            return Verdict("undecided", result.reason)
        if self.expect == "inconsistent":
            if result.status == "inconsistent":
                return Verdict("proved", result.reason)
            return Verdict("refuted", f"the system is solvable: {result.solution}")
        if result.status == "inconsistent":
            return Verdict("refuted", result.reason)
        if result.free:
            return Verdict(
                "refuted", f"the solution is not unique: {', '.join(map(str, result.free))} free"
            )
        zero = [is_zero(result.solution[u] - v) for u, v in self.expect.items()]
        if False in zero:
            return Verdict("refuted", f"the unique solution is {result.solution}")
        if None in zero:
            return Verdict("undecided", f"cannot tell whether {result.solution} is as expected")
        return Verdict("proved", f"unique solution {result.solution}")


@dataclass(frozen=True)
class ShiftEvidence:
    """What find_shift_map answered, as mathematical objects for the printers.

    encoding: f(pos) as a column. matrix, offset: the map M(k) and, if affine, b(k) (None when
    no map exists). derivation: the verified chain M(k)·f(pos) = f(pos + k). equations: the
    coefficient equations a map would need (each reads ... = 0). value, holds_for: the
    contradiction 0 = value they force, and for which k it is one.
    """

    encoding: sp.ImmutableMatrix
    matrix: sp.ImmutableMatrix | None = None
    offset: sp.ImmutableMatrix | None = None
    derivation: Derivation | None = None
    equations: tuple[sp.Expr, ...] = ()
    value: sp.Expr | None = None
    holds_for: str = ""


@dataclass(frozen=True)
class ShiftMapFact:
    """Fact: find_shift_map decides the encoding expr as expected, with its evidence.

    expr: the encoding f(pos) as a column, pos and k the position and offset symbols.
    expect: whether a map (linear, or affine if affine) exists. Proved only when the answer
    matches and carries a verified derivation (exists) or a certificate whose constant was shown
    nonzero (does not exist).
    """

    name: str
    title: str
    expr: sp.ImmutableMatrix
    pos: sp.Symbol
    k: sp.Symbol
    expect: bool
    affine: bool = False

    def __post_init__(self) -> None:
        _named(self)
        if not isinstance(self.expr, sp.MatrixBase):
            kind = type(self.expr).__name__
            raise TypeError(f"{self.name}: expr must be a SymPy column Matrix, got {kind}")
        object.__setattr__(self, "expr", sp.ImmutableMatrix(self.expr))
        arguments.symbol(self.pos, f"{self.name}: pos")
        arguments.symbol(self.k, f"{self.name}: k")
        arguments.flag(self.expect, f"{self.name}: expect")
        arguments.flag(self.affine, f"{self.name}: affine")

    def answer(self) -> ShiftMap:
        return _shift_answer(self.expr, self.pos, self.k, self.affine)

    def evidence(self) -> ShiftEvidence:
        """The encoding, then the map with its verified chain, or the certificate's coefficient
        equations and the contradiction they force."""
        found = self.answer()
        if found.exists and found.derivation is not None:
            return ShiftEvidence(self.expr, found.matrix, found.offset, found.derivation)
        if found.exists is False:
            cert = found.certificate
            # The solver's unknowns are named _m11, ...; show them as m_11, ...
            names = {
                u: sp.Symbol(u.name.lstrip("_"))
                for _, _, _, eq in cert.equations
                for u in eq.free_symbols
                if u.name.startswith("_")
            }
            equations = tuple(eq.xreplace(names) for _, _, _, eq in cert.equations)
            return ShiftEvidence(
                self.expr, equations=equations, value=cert.value, holds_for=cert.holds_for
            )
        return ShiftEvidence(self.expr)

    def verify(self, *, seed: int = 0, timeout: float | None = DEFAULT_TIMEOUT) -> Verdict:
        del seed  # the derivation inside the answer is checked with its own seeded points
        return within_budget(self._verify, timeout, self.name)

    def _verify(self) -> Verdict:
        found = self.answer()
        if found.exists is None:
            return Verdict("undecided", found.reason)
        if found.exists != self.expect:
            said = "a map exists" if found.exists else "no map exists"
            return Verdict(
                "refuted", f"find_shift_map says {said}, the opposite of the known answer"
            )
        if found.exists:
            entries = sp.ImmutableMatrix(list(found.matrix) + list(found.offset or []))
            if not (found.verdict.proved and self.pos not in entries.free_symbols):
                return Verdict("undecided", "the map returned did not verify")
            shown = "M(k) and b(k) found" if self.affine else "M(k) found"
            return Verdict("proved", f"{shown}; {found.verdict.reason}", links=found.verdict.links)
        cert = found.certificate
        return Verdict(
            "proved",
            f"the coefficient equations force 0 = {sp.sstr(cert.value)}, false for {cert.holds_for}",
        )


# What each kind of claim says about lhs − rhs, and the sign of lhs − rhs that breaks it.
_BROKEN_BY: dict[type, tuple[str, tuple[int, ...]]] = {
    sp.Equality: ("=", (-1, 1)),
    sp.GreaterThan: ("≥", (-1,)),
    sp.StrictGreaterThan: (">", (-1,)),
    sp.LessThan: ("≤", (1,)),
    sp.StrictLessThan: ("<", (1,)),
}
# The assumptions symbols are declared with, in the order a failure is reported by.
_DECLARED = ("positive", "negative", "nonnegative", "nonpositive", "nonzero", "integer", "even")


def _declared_first(item: tuple[str, bool]) -> tuple[int, bool]:
    word, wanted = item
    return (_DECLARED.index(word) if word in _DECLARED else len(_DECLARED), not wanted)


# Significant digits of the difference's enclosure that a Refutation shows; and the precision
# it may take to find its first one (a difference that is 0 at the point is never enclosed).
WITNESS_DIGITS = 5
WITNESS_BITS = 4096


@dataclass(frozen=True)
class Witness:
    """What the engine found at a refutation's point: the certified enclosure of lhs − rhs there
    (None when none was found: reason says why)."""

    enclosure: Enclosure | None
    reason: str = ""


@dataclass(frozen=True)
class Refutation:
    """Fact: the claim is false, shown by a certified counterexample.

    claim: what is refuted, a SymPy relation over its free symbols (the claim's quantified
    symbols, `over`): Eq(lhs, rhs), the two sides (scalars or 1×1 matrices) it says are equal
    for every value, or an inequality it asserts (lhs ≥ rhs, >, ≤, <). at: the counterexample,
    each of those symbols -> an exact Rational that meets the symbol's assumptions. Proved ("refuted as claimed") when
    the ball of lhs − rhs at that point, computed by the engine, excludes 0 (an equality) or lies
    wholly on the side the inequality forbids.
    """

    name: str
    title: str
    claim: sp.Rel
    at: tuple[tuple[sp.Symbol, sp.Rational], ...] = ()

    def __post_init__(self) -> None:
        _named(self)
        if type(self.claim) not in _BROKEN_BY:
            kinds = "Eq, Ge, Gt, Le or Lt"
            raise TypeError(
                f"refutation {self.name!r}: the claim must be {kinds}, got {self.claim}"
            )
        at = arguments.items(self.at, f"{self.name}: at")
        for j, pair in enumerate(at):
            if not isinstance(pair, tuple) or len(pair) != 2:
                raise TypeError(
                    f"{self.name}: at[{j}] must be a (Symbol, Rational) pair, got "
                    f"{type(pair).__name__}"
                )
            arguments.symbol(pair[0], f"{self.name}: at[{j}]'s symbol")
        object.__setattr__(self, "at", at)
        given = [s for s, _ in self.at]
        if sorted(given, key=str) != list(self.over) or len(set(given)) != len(given):
            raise ValueError(
                f"refutation {self.name!r}: the point must give each of {list(self.over)} one "
                f"value, got {given}"
            )
        for s, v in self.at:
            if not isinstance(v, sp.Rational):
                raise TypeError(f"refutation {self.name!r}: {s} = {v!r} is not an exact Rational")

    @property
    def over(self) -> tuple[sp.Symbol, ...]:
        """The claim's quantified symbols: its free symbols, by name."""
        return tuple(sorted(self.claim.free_symbols, key=str))

    @property
    def relation(self) -> str:
        """The claim's relation as a reader writes it: "=", "≥", ..."""
        return _BROKEN_BY[type(self.claim)][0]

    def witness(self) -> Witness:
        """The counterexample with its enclosure, computed by the engine's ball arithmetic."""
        return _witness(self.claim, self.at)

    def verify(self, *, seed: int = 0, timeout: float | None = DEFAULT_TIMEOUT) -> Verdict:
        del seed  # one exact point, no sampling
        return within_budget(self._verify, timeout, self.name)

    def _verify(self) -> Verdict:
        outside = [
            f"{s} = {v} breaks the assumption {word}={wanted} on {s}"
            for s, v in self.at
            # The assumptions symbols are declared with first: they say it best.
            for word, wanted in sorted(s.assumptions0.items(), key=_declared_first)
            if getattr(v, f"is_{word}", None) is not wanted
        ]
        if outside:
            return Verdict("undecided", f"the point is outside the claim's domain: {outside[0]}")
        found = self.witness()
        if found.enclosure is None:
            return Verdict("undecided", found.reason)
        at = ", ".join(f"{s} = {v}" for s, v in self.at)
        shown = f"at {at}, " * bool(at) + f"lhs − rhs lies in {found.enclosure.text()}"
        if found.enclosure.sign in _BROKEN_BY[type(self.claim)][1]:
            return Verdict("proved", f"{shown}, certified: the claim lhs {self.relation} rhs fails")
        return Verdict("undecided", f"{shown}: the claim lhs {self.relation} rhs holds there")


@cache
def _witness(claim: sp.Rel, at: tuple[tuple[sp.Symbol, sp.Rational], ...]) -> Witness:
    # Cached: verifying and printing a refutation both need the same enclosure.
    lhs, rhs = (_scalar(side) for side in claim.args)
    difference = sp.Add(lhs, sp.Mul(-1, rhs, evaluate=False), evaluate=False)
    try:
        enclosure = enclose(difference, WITNESS_DIGITS, dict(at), budget_bits=WITNESS_BITS)
    except (ValueError, CertifiedError) as exc:
        return Witness(None, f"lhs − rhs was not enclosed at the point: {exc}")
    return Witness(enclosure)


def _scalar(side: sp.Basic) -> sp.Basic:
    """A 1×1 matrix (a score written ⟨q, Gκ⟩) as its entry; a scalar as it is."""
    if getattr(side, "shape", None) == (1, 1):
        return side.as_explicit()[0, 0]
    return side


@cache
def _shift_answer(expr: sp.ImmutableMatrix, pos: sp.Symbol, k: sp.Symbol, affine: bool) -> ShiftMap:
    # Cached: verifying and printing a fact both need the same answer.
    return find_shift_map(list(expr), pos, k, affine=affine)


Fact = FreeOf | NonZero | NonNegative | LinearSystem | Blockwise | ShiftMapFact | Refutation
Part = Derivation | Fact


def _hypotheses(expr: sp.Basic) -> list[str]:
    out = []
    for s in sorted(expr.free_symbols, key=lambda s: s.name):
        a = s.assumptions0
        for word in ("positive", "nonzero", "integer", "real"):
            if a.get(word):
                out.append(f"{s.name} {word}")
                break
    return out
