"""Derivations as data: a claim, a chain of justified steps, and the verdict of checking them.

A Derivation is a calc-style chain  lhs = e1 = e2 = ... = rhs.  Every link e_j = e_{j+1} is
checked on its own, twice: symbolically (the difference reduces to exactly 0) and numerically
(both sides agree at seeded points, certified by ball arithmetic). A link holds only if both
checks pass. Floats are taken at their exact binary value (proofs.engine.floats), and every
check runs within a time budget (proofs.engine.budget): past it, the verdict is undecided.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Literal

import sympy as sp
from sympy.matrices.expressions.matexpr import MatrixElement

from proofs.engine.budget import DEFAULT_TIMEOUT, run_with_budget, stage
from proofs.engine.floats import exact_floats, float_note
from proofs.engine.pointwise import Counterexample, NumericResult, check_numeric
from proofs.engine.show import show
from proofs.engine.symbolic import SymbolicResult, check_symbolic

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


def explicit(expr: sp.Basic) -> sp.Basic:
    """expr with any unevaluated matrix product (kept for display) carried out."""
    if isinstance(expr, sp.MatrixBase):
        return sp.ImmutableMatrix(expr)
    if not isinstance(expr, sp.MatrixExpr):
        return expr
    return _carry_out(expr)


@functools.lru_cache(maxsize=512)
def _carry_out(expr: sp.MatrixExpr) -> sp.ImmutableMatrix:
    # Products, sums and transposes of explicit matrices are multiplied out factor by factor;
    # as_explicit() would build and evaluate a Sum per entry, about ten times slower.
    if isinstance(expr, sp.MatMul):
        scalar, product = sp.Integer(1), None
        for factor in expr.args:
            if isinstance(factor, sp.MatrixBase | sp.MatrixExpr):
                value = explicit(factor)
                product = value if product is None else product * value
            else:
                scalar *= factor
        return sp.ImmutableMatrix(scalar * product)
    if isinstance(expr, sp.MatAdd):
        return sp.ImmutableMatrix(sp.Add(*(explicit(term) for term in expr.args)))
    if isinstance(expr, sp.Transpose):
        return explicit(expr.arg).T
    return sp.ImmutableMatrix(expr.as_explicit())


@dataclass(frozen=True)
class Step:
    """One expression of a chain and the rule that justifies reaching it from the previous one."""

    expr: sp.Basic
    justification: str


@dataclass(frozen=True)
class LinkResult:
    """The two checks of one link e_j = e_{j+1} and the link's status."""

    symbolic: SymbolicResult
    numeric: NumericResult

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


def check_link(a: sp.Basic, b: sp.Basic, *, seed: int = 0) -> LinkResult:
    """Check a = b twice: by symbolic reduction and at seeded points in ball arithmetic."""
    a, b = _entries_as_symbols(exact_floats(explicit(a)), exact_floats(explicit(b)))
    numeric = check_numeric(a, b, seed=seed)
    # A certified counterexample already refutes the link; the algebra is then only asked for
    # its cheap reductions, since simplify() on a false claim can run for minutes.
    symbolic = check_symbolic(a, b, thorough=numeric.passed is not False)
    if numeric.passed and symbolic.passed is None and symbolic.residue is not None:
        # The sides agree within the tolerance everywhere sampled, but lhs - rhs equals the
        # exactly reduced residue: where a ball of the residue excludes 0, the claim is false
        # (10**5000*x/3 + x/3 = 10**5000*x/3 agrees to 5000 digits, and is false).
        with stage("numeric check of the exact residue"):
            residue = check_numeric(symbolic.residue, sp.Integer(0), seed=seed, points=4)
        if residue.passed is False:
            return LinkResult(symbolic, residue)
    if numeric.passed and (symbolic.passed is not True or symbolic.needs_confirmation):
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

    title: what the chain shows, in words. display: substitutions applied only when printing
    (for example the power 10000**(-2i/d_model) shown as the symbol omega_i).
    """

    title: str
    steps: tuple[Step, ...]
    display: tuple[tuple[sp.Basic, sp.Basic], ...] = field(default=())

    def __post_init__(self) -> None:
        if len(self.steps) < 2:
            raise ValueError(f"derivation {self.title!r} needs at least two steps (lhs and rhs)")
        shapes = {_shape(s.expr) for s in self.steps}
        if len(shapes) != 1:
            raise ValueError(f"derivation {self.title!r} mixes shapes {sorted(map(str, shapes))}")

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
                f"derivation {self.title!r}: an expression is nested too deeply to check"
            ) from None
        note = float_note(*(s.expr for s in self.steps))
        if note:
            return Verdict(verdict.status, verdict.reason + note, *_rest(verdict))
        return verdict

    def _verify(self, seed: int) -> Verdict:
        links = tuple(
            check_link(a.expr, b.expr, seed=seed + j)
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
        claim = Derivation("claim", (Step(a, "claim"), Step(b, "claim")))
        return claim.verify(seed=seed, timeout=timeout)
    except RecursionError:
        raise ValueError("the claim is nested too deeply to check") from None
