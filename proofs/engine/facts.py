"""Facts: checked statements that are not equalities.

"R(k*omega) does not contain pos" (FreeOf), "this expression is not 0" (NonZero), "this is >= 0"
(NonNegative) and "this linear system has no solution" (LinearSystem). Each verifies to a Verdict,
like a Derivation does, so a theorem's parts are checked one by one, whatever their kind.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from proofs.engine.blockwise import Blockwise
from proofs.engine.derivation import Derivation, Verdict, check_link
from proofs.engine.floats import exact_floats
from proofs.engine.linear_system import LinearSolution, solve_linear
from proofs.engine.zero_test import is_zero, shielded


@dataclass(frozen=True)
class FreeOf:
    """Fact: expr does not contain any of symbols (checked on its free symbols)."""

    title: str
    expr: sp.Basic
    symbols: tuple[sp.Symbol, ...]

    def verify(self, *, seed: int = 0) -> Verdict:
        found = sorted(s.name for s in self.symbols if s in self.expr.free_symbols)
        if found:
            return Verdict("refuted", f"the expression contains {', '.join(found)}")
        names = ", ".join(s.name for s in self.symbols)
        return Verdict("proved", f"its free symbols do not include {names}")


@dataclass(frozen=True)
class NonZero:
    """Fact: expr != 0, decided by the certified zero test (proofs.engine.zero_test): balls for
    numbers, SymPy's assumptions on the symbols with every constant certified first."""

    title: str
    expr: sp.Expr

    def verify(self, *, seed: int = 0) -> Verdict:
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

    expr = witness is checked like a derivation link (symbolically and numerically); then
    witness.is_nonnegative must be True, as for a square of a real or a sum of such squares.
    Example: 1 - sin(x) = (sin(x/2) - cos(x/2))**2 >= 0 for real x.
    """

    title: str
    expr: sp.Expr
    witness: sp.Expr

    def verify(self, *, seed: int = 0) -> Verdict:
        link = check_link(self.expr, self.witness, seed=seed)
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

    title: str
    equations: tuple[sp.Expr, ...]
    unknowns: tuple[sp.Symbol, ...]
    expect: str | dict[sp.Symbol, sp.Expr]

    def solve(self) -> LinearSolution:
        return solve_linear(self.equations, self.unknowns)

    def verify(self, *, seed: int = 0) -> Verdict:
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


Fact = FreeOf | NonZero | NonNegative | LinearSystem | Blockwise
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
