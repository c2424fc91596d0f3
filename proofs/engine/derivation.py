"""Derivations as data: a claim, a chain of justified steps, and the verdict of checking them.

A Derivation is a calc-style chain  lhs = e1 = e2 = ... = rhs.  Every link e_j = e_{j+1} is
checked on its own, twice: symbolically (the difference reduces to exactly 0) and numerically
(both sides agree at seeded points, certified by ball arithmetic). A link holds only if both
checks pass. Floats are taken at their exact binary value (proofs.engine.floats), and every
check runs within a time budget (proofs.engine.budget): past it, the verdict is undecided.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import sympy as sp
from sympy.matrices.expressions.matexpr import MatrixElement

from proofs.engine.budget import DEFAULT_TIMEOUT, run_with_budget, stage
from proofs.engine.citation import Citation, lemmas_of, words
from proofs.engine.floats import exact_floats, float_note
from proofs.engine.pointwise import Counterexample, NumericResult, check_numeric
from proofs.engine.rules.matrices import explicit
from proofs.engine.show import show
from proofs.engine.symbolic import SymbolicResult, check_cited, check_uncited

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


# The deeper look (and the confirmation of a zero reached by trigsimp or simplify) asks each of
# these points for agreement within 2**-1000 relative, far below the 24-point check's 2**-160.
_DEEP_POINTS = 8
_DEEP_TOLERANCE = 2.0**-1000


def check_link(
    a: sp.Basic, b: sp.Basic, *, seed: int = 0, by: Citation | None = None
) -> LinkResult:
    """Check a = b twice: symbolically (by the cited rule or lemma if by is given, else by any
    rule) and at seeded points in ball arithmetic."""
    cited_a, cited_b = a, b
    a, b = _entries_as_symbols(exact_floats(explicit(a)), exact_floats(explicit(b)))
    numeric = check_numeric(a, b, seed=seed)
    # A certified counterexample already refutes the link; the algebra is then only asked for
    # its cheap reductions, since simplify() on a false claim can run for minutes.
    if by is not None:
        symbolic = check_cited(cited_a, cited_b, by)
    else:
        symbolic = check_uncited(a, b, thorough=numeric.passed is not False)
    if numeric.passed and symbolic.passed is None and symbolic.residue is not None:
        # The sides agree within the tolerance everywhere sampled, but lhs - rhs equals the
        # exactly reduced residue: where a ball of the residue excludes 0, the claim is false
        # (10**5000*x/3 + x/3 = 10**5000*x/3 agrees to 5000 digits, and is false).
        with stage("numeric check of the exact residue"):
            residue = check_numeric(symbolic.residue, sp.Integer(0), seed=seed, points=4)
        if residue.passed is False:
            return LinkResult(symbolic, residue)
    # A cited link needs the deeper look only when its rule may have answered wrongly.
    if numeric.passed and (
        symbolic.needs_confirmation or (by is None and symbolic.passed is not True)
    ):
        # The algebra did not prove the link, or reached 0 by a rewrite that may have evaluated
        # numbers: look much closer for a tiny discrepancy. A zero from trigsimp or simplify
        # stands only if every deeper point agrees within 2**-1000.
        with stage("numeric check (deeper look)"):
            deeper = check_numeric(
                a, b, seed=seed + 1, points=_DEEP_POINTS, tolerance=_DEEP_TOLERANCE
            )
        if deeper.passed is False or (symbolic.needs_confirmation and not deeper.passed):
            numeric = deeper
    return LinkResult(symbolic, numeric)


@dataclass(frozen=True)
class Derivation:
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


def prove_identity(
    lhs: object, rhs: object, *, seed: int = 0, timeout: float | None = DEFAULT_TIMEOUT
) -> Verdict:
    """Check the one-link claim lhs = rhs (scalars or same-shape matrices).

    Symbols carry their hypotheses as SymPy assumptions (real, integer, positive, ...); the
    numeric check samples only points that satisfy them. seed: the random stream. timeout:
    seconds (None: no limit); past it the verdict is undecided, "timed out in <stage>".
    """
    try:
        a, b = as_sympy(lhs, "lhs"), as_sympy(rhs, "rhs")
        if _shape(a) != _shape(b):
            raise ValueError(
                f"lhs and rhs must have the same shape, got {_shape(a)} and {_shape(b)}"
            )
        claim = Derivation("claim", "claim", (Step(a), Step(b)))
        return claim.verify(seed=seed, timeout=timeout)
    except RecursionError:
        raise ValueError("the claim is nested too deeply to check") from None
