"""Derivations as data: a claim, a chain of justified steps, and the verdict of checking them.

A Derivation is a calc-style chain  lhs = e1 = e2 = ... = rhs.  Every link e_j = e_{j+1} is
checked on its own, twice: symbolically (the difference reduces to exactly 0) and numerically
(both sides agree at seeded points, certified by ball arithmetic). A link holds only if both
checks pass. Floats are taken at their exact binary value (proofs.engine.floats), and every
check runs within a time budget (proofs.engine.budget): past it, the verdict is undecided.

One module over 400 lines because it is one decision, the verdict of a chain: the link check
and the data it is made of and reports (Step, LinkResult, Verdict, Derivation, prove_identity).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import sympy as sp
from sympy.core.facts import InconsistentAssumptions
from sympy.matrices.expressions.matexpr import MatrixElement

from proofs.engine import arguments
from proofs.engine.budget import DEFAULT_TIMEOUT, check_timeout, run_with_budget, stage
from proofs.engine.citation import Citable, Citation, check_citation, lemmas_of, words
from proofs.engine.floats import exact_floats, exact_floats_as_written, float_note
from proofs.engine.number_size import check_exact_size
from proofs.engine.pointwise import (
    Counterexample,
    NumericResult,
    bits_resolving,
    check_numeric,
)
from proofs.engine.rules.matrices import explicit
from proofs.engine.show import show
from proofs.engine.symbolic import SymbolicResult, check_cited, check_uncited
from proofs.engine.unevaluated import carried_out
from proofs.engine.zero_test import shield_misjudged

Status = Literal["proved", "refuted", "undecided"]


def as_sympy(value: object, what: str) -> sp.Basic:
    """value as a SymPy scalar or immutable matrix; TypeError for anything else.

    what: the argument's name, for the error message. Strings are refused: parsing user
    text is proofs.engine.parse's job, never sympify's (which calls eval).
    """
    if isinstance(value, sp.MatrixBase | sp.MatrixExpr):
        return explicit(value)
    if isinstance(value, sp.Expr):
        return value
    if isinstance(value, bool) or not isinstance(value, int | sp.Rational):
        kind = type(value).__name__
        raise TypeError(
            f"{what} must be a SymPy expression, a SymPy Matrix or an int, got {kind}"
            + (
                "; parse text with proofs.engine.parse.parse_expression first"
                if kind == "str"
                else ""
            )
        )
    return sp.Integer(value)


def _shape(expr: sp.Basic) -> tuple[int, int] | None:
    return expr.shape if isinstance(expr, sp.MatrixBase | sp.MatrixExpr) else None


@dataclass(frozen=True)
class Step:
    """One expression of a chain and what justifies reaching it from the one before.

    expr: the expression. by: the rule, rules or lemma the step cites (proofs.engine.citation);
    the first step of a chain is the statement and cites nothing. note: a sentence for the
    reader, printed beside the citation ("factor out ω_i").
    """

    expr: sp.Basic
    by: Citation | None = None
    note: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "expr", arguments.expression(self.expr, "a Step's expr"))
        if self.by is not None:
            check_citation(self.by, "a Step's by")
        arguments.text(self.note, "a Step's note")

    @property
    def cited(self) -> str:
        """The citation in words, "" for the statement."""
        return words(self.by)


@dataclass(frozen=True)
class LinkResult:
    """The two checks of one link e_j = e_{j+1} and the link's status."""

    symbolic: SymbolicResult
    numeric: NumericResult

    @property
    def cited(self) -> str:
        """The step's citation in words ("" when the claim cites none)."""
        return self.symbolic.cited

    @property
    def closed_by(self) -> str:
        """What closed the link symbolically, in words ("" when nothing did)."""
        return self.symbolic.closed_by

    @property
    def status(self) -> Status:
        """proved only when both checks pass; refuted on any certificate or counterexample."""
        if self.numeric.passed is False or self.symbolic.passed is False:
            return "refuted"
        if self.symbolic.passed and self.numeric.passed:
            return "proved"
        return "undecided"


@dataclass(frozen=True)
class Verdict:
    """The outcome of checking a claim.

    status: "proved", "refuted" or "undecided". counterexample: a point where the claim's two
    sides differ (set when refuted by evaluation). reason: one line explaining the status.
    links: the per-link results, in chain order.
    """

    status: Status
    reason: str
    counterexample: Counterexample | None = None
    links: tuple[LinkResult, ...] = ()

    @property
    def proved(self) -> bool:
        """True only for status "proved"; "undecided" is never proved."""
        return self.status == "proved"

    def __str__(self) -> str:
        return f"{self.status}: {self.reason}"


def _entries_as_symbols(a: sp.Basic, b: sp.Basic) -> tuple[sp.Basic, sp.Basic]:
    """a and b with each entry A[i, j] of a MatrixSymbol taken as a complex scalar symbol."""
    elements = a.atoms(MatrixElement) | b.atoms(MatrixElement)
    if not elements:
        return a, b
    names = {e: sp.Symbol(f"{e.parent.name}[{e.i},{e.j}]") for e in elements}
    return a.xreplace(names), b.xreplace(names)


# The deeper look (and the confirmation of a zero reached by trigsimp or simplify) evaluates these
# points from 2048 bits up, so agreement there certifies |lhs - rhs| <= 2**-1056 (absolute),
# where the 24-point check from 256 bits certifies 2**-160.
_DEEP_POINTS = 8
_DEEP_BITS = 2048
# A nonzero constant left by the exact reduction is confirmed at this many points.
_CONFIRM_POINTS = 4


def check_link(
    a: sp.Basic, b: sp.Basic, *, seed: int = 0, by: Citation | None = None
) -> LinkResult:
    """Check a = b twice: symbolically (by the cited rule or lemma if by is given, else by any
    rule) and at seeded points in ball arithmetic.

    The numeric check evaluates the trees as given (proofs.engine.unevaluated: nothing rebuilt,
    so nothing re-evaluated by SymPy); the symbolic check works on SymPy's own copy, with Floats
    at their exact value, matrix entries as symbols, and constants whose zero or sign SymPy
    misjudges shielded (proofs.engine.zero_test.shield_misjudged). Building that copy lets SymPy
    evaluate, so every answer of the algebra is held against the given trees: a zero it reaches
    stands only where they agree, and a nonzero constant refutes only where they confirm it.
    """
    a, b = arguments.expression(a, "a"), arguments.expression(b, "b")
    arguments.seed(seed)
    if by is not None:
        check_citation(by, "by")
    for step in (a, b):
        check_exact_size(step, "a step")
    with stage("multiplying out the matrices"):
        given_a, given_b = carried_out(a), carried_out(b)
    numeric = check_numeric(given_a, given_b, seed=seed)
    if by is not None:
        # The rule sees each Float as the exact number it is, as the uncited path does.
        symbolic = check_cited(exact_floats_as_written(a), exact_floats_as_written(b), by)
        # A cited rule rewrites SymPy's copy too: where that copy holds a constant SymPy
        # misjudges, its zero is confirmed on the given trees like an uncertified rule's.
        _, misjudged = shield_misjudged(given_a, given_b)
        confirm = symbolic.needs_confirmation or (misjudged and bool(symbolic.passed))
    else:
        # A certified counterexample already refutes the link; the algebra is then only asked
        # for its cheap reductions, since simplify() on a false claim can run for minutes.
        symbolic, confirm = _reduce(a, b, given_a, given_b, thorough=numeric.passed is not False)
    if symbolic.passed is False and numeric.passed is not False:
        with stage("numeric check of the nonzero constant"):
            symbolic, confirmed = _confirm_nonzero(symbolic, given_a, given_b, seed)
        if confirmed is not None and confirmed.passed is False:
            return LinkResult(symbolic, confirmed)
    # A link the algebra did not close (cited or not) is not proved whatever the points say,
    # and gets the deeper look that may refute it.
    if numeric.passed and (confirm or symbolic.passed is not True):
        # The algebra did not prove the link, or reached 0 by a rewrite that may have evaluated
        # numbers: look much closer for a tiny discrepancy. Such a zero stands only if every
        # deeper point agrees within 2**-1056.
        with stage("numeric check (deeper look)"):
            deeper = check_numeric(
                given_a, given_b, seed=seed + 1, points=_DEEP_POINTS, start_bits=_DEEP_BITS
            )
        if deeper.passed is False or (confirm and not deeper.passed):
            numeric = deeper
    return LinkResult(symbolic, numeric)


def _reduce(
    a: sp.Basic, b: sp.Basic, given_a: sp.Basic, given_b: sp.Basic, *, thorough: bool
) -> tuple[SymbolicResult, bool]:
    """The symbolic check of a = b, and whether a zero it reached needs numeric confirmation.

    First with the constants SymPy misjudges shielded, where it cannot evaluate them wrongly;
    if that does not close, on SymPy's plain copy, whose zero may then come from such a
    misjudgement and is confirmed like one from trigsimp or simplify.
    """
    (shielded_a, shielded_b), shielded = shield_misjudged(given_a, given_b)
    symbolic = None
    if shielded:
        symbolic = check_uncited(*_prepared(shielded_a, shielded_b), thorough=thorough)
        if symbolic.passed:
            return symbolic, symbolic.needs_confirmation
    try:
        plain = check_uncited(*_prepared(explicit(a), explicit(b)), thorough=thorough)
    except (InconsistentAssumptions, TypeError) as exc:
        # On the misjudged constants SymPy's judgements can contradict each other (acos(1 -
        # 10**-20) both positive and zero; "Invalid comparison of non-real"): no answer.
        if not shielded or not (
            isinstance(exc, InconsistentAssumptions) or "Invalid comparison" in str(exc)
        ):
            raise
        return symbolic, False
    return plain, plain.needs_confirmation or (shielded and bool(plain.passed))


def _prepared(a: sp.Basic, b: sp.Basic) -> tuple[sp.Basic, sp.Basic]:
    return _entries_as_symbols(exact_floats(a), exact_floats(b))


def _confirm_nonzero(
    symbolic: SymbolicResult, a: sp.Basic, b: sp.Basic, seed: int
) -> tuple[SymbolicResult, NumericResult | None]:
    """Hold the exact reduction's nonzero constant c = lhs - rhs against the given trees.

    They are evaluated at a precision whose agreement bound is below |c|: a point where they
    differ confirms the refutation (and shows a counterexample); agreement everywhere shows that
    SymPy's copy was not the claim, and the algebra's answer is withdrawn (undecided). When no
    precision can tell, the exact algebra's certificate stands.
    """
    bits = bits_resolving(symbolic.residue)
    if bits is None:
        return symbolic, None
    confirmed = check_numeric(a, b, seed=seed, points=_CONFIRM_POINTS, start_bits=bits)
    if confirmed.passed:
        return SymbolicResult(None, "", symbolic.residue), confirmed
    return symbolic, confirmed


@dataclass(frozen=True)
class Derivation(Citable):
    """A claim lhs = rhs with its chain of steps; steps[0] is lhs and steps[-1] is rhs.

    name: a short identifier that states the claim (pair_shift), unique within its theorem.
    title: what the chain shows, in words. display: substitutions applied only when printing
    (for example the power 10000**(-2i/d_model) shown as the symbol omega_i).
    """

    name: str
    title: str
    steps: tuple[Step, ...]
    display: tuple[tuple[sp.Basic, sp.Basic], ...] = field(default=())

    def __post_init__(self) -> None:
        arguments.text(self.name, "a Derivation's name")
        arguments.text(self.title, f"derivation {self.name!r}: title")
        steps = arguments.items(self.steps, f"derivation {self.name!r}: steps")
        for j, step in enumerate(steps):
            if not isinstance(step, Step):
                kind = type(step).__name__
                raise TypeError(f"derivation {self.name!r}: steps[{j}] must be a Step, got {kind}")
        object.__setattr__(self, "steps", steps)
        display = arguments.items(self.display, f"derivation {self.name!r}: display")
        for j, pair in enumerate(display):
            what = f"derivation {self.name!r}: display[{j}]"
            if len(arguments.items(pair, what)) != 2:
                raise ValueError(f"{what} must be a pair (shown, as)")
            for side in pair:
                arguments.expression(side, what)
        object.__setattr__(self, "display", display)
        if len(self.steps) < 2:
            raise ValueError(f"derivation {self.name!r} needs at least two steps (lhs and rhs)")
        shapes = {_shape(s.expr) for s in self.steps}
        if len(shapes) != 1:
            raise ValueError(f"derivation {self.name!r} mixes shapes {sorted(map(str, shapes))}")
        if self.steps[0].by is not None:
            raise ValueError(f"derivation {self.name!r}: the first step is the statement")

    @property
    def lemmas(self) -> tuple[Derivation, ...]:
        """The proved chains its steps cite (each a part of the same theorem)."""
        return tuple(lemma for s in self.steps for lemma in lemmas_of(s.by))

    @property
    def lhs(self) -> sp.Basic:
        return self.steps[0].expr

    @property
    def rhs(self) -> sp.Basic:
        return self.steps[-1].expr

    @property
    def symbols(self) -> set[sp.Symbol]:
        """Every free symbol of the chain; their assumptions are the claim's hypotheses."""
        return set().union(*(s.expr.free_symbols for s in self.steps))

    def verify(self, *, seed: int = 0, timeout: float | None = DEFAULT_TIMEOUT) -> Verdict:
        """Check every link; if one fails, check the claim itself to tell refuted from undecided.

        timeout: seconds for the whole check (None: no limit); past it the verdict is
        undecided, "timed out in <stage>".
        """

        arguments.seed(seed)

        def timed_out(where: str) -> Verdict:
            return Verdict("undecided", f"timed out in {where} (budget {timeout} s)")

        try:
            verdict = run_with_budget(lambda: self._verify(seed), timeout, timed_out)
        except RecursionError:
            raise ValueError(
                f"derivation {self.name!r}: an expression is nested too deeply to check"
            ) from None
        note = float_note(*(s.expr for s in self.steps))
        if note:
            return Verdict(verdict.status, verdict.reason + note, *_rest(verdict))
        return verdict

    def _verify(self, seed: int) -> Verdict:
        links = tuple(
            check_link(a.expr, b.expr, seed=seed + j, by=b.by)
            for j, (a, b) in enumerate(zip(self.steps, self.steps[1:], strict=False))
        )
        bad = [j for j, link in enumerate(links) if link.status != "proved"]
        if not bad:
            return Verdict(
                "proved",
                "the link checked symbolically and numerically"
                if len(links) == 1
                else f"all {len(links)} links checked symbolically and numerically",
                None,
                links,
            )
        whole = links[0] if len(links) == 1 else check_link(self.lhs, self.rhs, seed=seed)
        if whole.status == "refuted":
            cx = whole.numeric.counterexample
            reason = (
                f"lhs - rhs reduces to the nonzero constant {show(whole.symbolic.residue)}"
                if whole.symbolic.passed is False
                else "the two sides differ at a point"
            )
            return Verdict("refuted", reason, cx, links)
        defects = [
            f"link {j + 1} {links[j].symbolic.defect}" for j in bad if links[j].symbolic.defect
        ]
        if defects:
            return Verdict("undecided", "; ".join(defects), None, links)
        steps = ", ".join(str(j + 1) for j in bad)
        return Verdict(
            "undecided", f"link(s) {steps} not verified and no counterexample found", None, links
        )


def _rest(verdict: Verdict) -> tuple:
    return verdict.counterexample, verdict.links


# prove_identity checks at most this many entries: a 100 x 100 matrix (as_explicit() of a
# 1000 x 1000 MatrixSymbol alone takes a minute).
_MAX_ENTRIES = 10_000


def _claim_side(value: object, what: str) -> sp.Basic:
    """value checked as one side of a claim, before any work: a matrix expression (A*B) is
    multiplied out later, by the check and within its budget."""
    _check_size(value, what)
    return value if isinstance(value, sp.MatrixExpr) else as_sympy(value, what)


def _check_size(value: object, what: str) -> None:
    """ValueError for an empty or oversized matrix or an oversized number."""
    if isinstance(value, sp.MatrixBase | sp.MatrixExpr):
        rows, cols = value.shape
        if not (isinstance(rows, int | sp.Integer) and isinstance(cols, int | sp.Integer)):
            raise ValueError(f"{what} must have a numeric shape, got {value.shape}")
        if rows * cols == 0:
            raise ValueError(f"{what} is an empty matrix (shape {value.shape}): nothing to prove")
        if rows * cols > _MAX_ENTRIES:
            raise ValueError(
                f"{what} has {rows * cols} entries (shape {value.shape}); "
                f"at most {_MAX_ENTRIES} are checked"
            )
    if isinstance(value, sp.Basic):
        check_exact_size(value, what)


def prove_identity(
    lhs: object, rhs: object, *, seed: int = 0, timeout: float | None = DEFAULT_TIMEOUT
) -> Verdict:
    """Check the one-link claim lhs = rhs (scalars or same-shape matrices).

    Symbols carry their hypotheses as SymPy assumptions (real, integer, positive, ...); the
    numeric check samples only points that satisfy them. seed: the random stream. timeout:
    seconds (None: no limit); past it the verdict is undecided, "timed out in <stage>".
    """
    check_timeout(timeout)
    arguments.seed(seed)
    try:
        a, b = _claim_side(lhs, "lhs"), _claim_side(rhs, "rhs")
        if _shape(a) != _shape(b):
            raise ValueError(
                f"lhs and rhs must have the same shape, got {_shape(a)} and {_shape(b)}"
            )
        claim = Derivation("claim", "claim", (Step(a), Step(b)))
        return claim.verify(seed=seed, timeout=timeout)
    except RecursionError:
        raise ValueError("the claim is nested too deeply to check") from None
