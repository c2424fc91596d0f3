"""Fact: a whole-vector statement holds block by block, each block an instance of a lemma.

For block-diagonal matrices and vectors on one partition, lhs = rhs holds exactly when it
holds on every block (products, transposes and inner products act block by block). Blockwise
checks that structure (proofs.engine.blocks.partition), then for each block b that both sides
of block b equal steps of the lemma instantiated at bindings(b), the lemma having been proved
with those symbols free. The lemma is a separate part of the same theorem: this fact proves
"lemma ⇒ statement", with no dense matrix formed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp

from proofs.engine import arguments
from proofs.engine.blocks import BlockEquation, partition, template
from proofs.engine.budget import DEFAULT_TIMEOUT, run_with_budget
from proofs.engine.citation import assumption_failure
from proofs.engine.derivation import Derivation, Verdict, check_link
from proofs.engine.rules.matrices import explicit

Bindings = Callable[[int], dict[sp.Symbol, sp.Expr]]

# Quantifiers and integrals bind symbols: substituting into them would not be an instance.
_BINDERS = (sp.Sum, sp.Product, sp.Integral, sp.Lambda)


# The only assumptions on which two positive SymPy Integers can differ.
_VALUE_DEPENDENT = {"even", "odd", "prime", "composite"}


def _representatives(index: sp.Symbol, count: int) -> range | tuple[int, ...]:
    """Index values whose hypotheses stand for all of 0 .. count − 1: every one of them, unless
    the index's assumptions avoid _VALUE_DEPENDENT, when 0 and 1 decide for all (0 alone is
    zero and not positive; every positive Integer has the same other assumptions)."""
    if _VALUE_DEPENDENT & set(index.assumptions0):
        return range(count)
    return tuple(range(min(count, 2)))


def _same(a: sp.Basic, b: sp.Basic) -> bool:
    return a == b or (
        isinstance(a, sp.MatrixBase) and a.shape == b.shape and a.expand() == b.expand()
    )


@dataclass(frozen=True)
class Blockwise:
    """Fact: statement (block-structured, concrete size) is lemma at every block.

    title: what it asserts. statement: a BlockEquation. lemma: the proved block statement with
    free symbols, or None when block b's two sides must be identical as they stand.
    bindings: block index -> the values the lemma's free symbols take at that block.
    """

    name: str
    title: str
    statement: BlockEquation
    lemma: Derivation | None = None
    bindings: Bindings | None = None

    def __post_init__(self) -> None:
        arguments.text(self.name, "a Blockwise's name")
        arguments.text(self.title, f"{self.name}: title")
        if not isinstance(self.statement, BlockEquation):
            kind = type(self.statement).__name__
            raise TypeError(f"{self.name}: statement must be a BlockEquation, got {kind}")
        if self.lemma is not None and not isinstance(self.lemma, Derivation):
            kind = type(self.lemma).__name__
            raise TypeError(f"{self.name}: lemma must be a Derivation or None, got {kind}")
        if self.bindings is not None and not callable(self.bindings):
            kind = type(self.bindings).__name__
            raise TypeError(
                f"{self.name}: bindings must be a function of the block index, got {kind}"
            )

    def _instances(self, at: int | sp.Symbol) -> list[sp.Basic] | str:
        """The lemma's steps with its symbols bound as at block `at` (a number or the index)."""
        mapping = self.bindings(at) if self.bindings else {}
        for symbol, value in mapping.items():
            failure = assumption_failure(symbol, value)
            if failure:
                return f"block {at}: {failure}"
        return [explicit(step.expr).xreplace(mapping) for step in self.lemma.steps]

    def _match(self, sides: list[sp.Basic], targets: list[sp.Basic], where: str, seed: int):
        """None if each side equals a target, else the Verdict saying why not."""
        fallbacks = (targets[0], targets[-1]) if self.lemma else (targets[0],)
        for side, fallback in zip(sides, fallbacks, strict=False):
            if any(_same(side, t) for t in targets):
                continue
            link = check_link(side, fallback, seed=seed)
            if link.status == "refuted":
                what = "the lemma" if self.lemma else "the other side"
                reason = f"{where} is not {what} there"
                return Verdict("refuted", reason, link.numeric.counterexample, (link,))
            if link.status != "proved":
                return Verdict("undecided", f"{where} could not be matched", None, (link,))
        return None

    def _block(self, b: int, seed: int) -> Verdict | None:
        lhs = explicit(self.statement.lhs.block(b))
        rhs = explicit(self.statement.rhs.block(b))
        if self.lemma is None:
            return self._match([lhs], [rhs], f"block {b}", seed)
        targets = self._instances(b)
        if isinstance(targets, str):
            return Verdict("undecided", targets)
        return self._match([lhs, rhs], targets, f"block {b}", seed)

    def _family(self, left: tuple, right: tuple, count: int, seed: int) -> Verdict | None:
        """Both sides are one template in the index: match it once, then check every index value
        meets the index's hypotheses, so each block is an instance."""
        (lhs, family), (rhs, _) = left, right
        lhs, rhs = explicit(lhs), explicit(rhs)
        where = f"block {family.index} (symbolic)"
        if self.lemma is None:
            failure = self._match([lhs], [rhs], where, seed)
        else:
            targets = self._instances(family.index)
            if isinstance(targets, str):
                return Verdict("undecided", targets)
            failure = self._match([lhs, rhs], targets, where, seed)
        if failure is not None:
            return failure
        for b in _representatives(family.index, count):
            bad = assumption_failure(family.index, sp.Integer(b))
            if bad:
                return Verdict("undecided", f"block {b}: {bad}")
        return None

    def verify(self, *, seed: int = 0, timeout: float | None = DEFAULT_TIMEOUT) -> Verdict:
        def timed_out(where: str) -> Verdict:
            return Verdict("undecided", f"timed out in {where} (budget {timeout} s)")

        return run_with_budget(lambda: self._verify(seed), timeout, timed_out)

    def _verify(self, seed: int) -> Verdict:
        try:
            left, right = partition(self.statement.lhs), partition(self.statement.rhs)
        except ValueError as exc:
            return Verdict("refuted", f"not block-structured as stated: {exc}")
        if left != right:
            return Verdict("refuted", "the two sides are not on the same partition")
        if self.lemma is not None and any(s.expr.has(*_BINDERS) for s in self.lemma.steps):
            return Verdict("undecided", "the lemma binds symbols; it cannot be instantiated")
        count = left[2] if isinstance(left[2], int) else len(left[2])
        lt, rt = template(self.statement.lhs), template(self.statement.rhs)
        same_family = (
            lt is not None
            and rt is not None
            and (lt[1].index, lt[1].count, lt[1].fixed) == (rt[1].index, rt[1].count, rt[1].fixed)
        )
        if same_family:
            failure = self._family(lt, rt, count, seed)
            how = f"one template in {lt[1].index}, every {lt[1].index} < {count} meeting its hypotheses"
        else:
            failure = next(filter(None, (self._block(b, seed + b) for b in range(count))), None)
            how = "each block compared"
        if failure is not None:
            return failure
        kind, size = left[0], left[1]
        what = f"{count} block{'s' if count != 1 else ''}" + (
            f" of a {kind} of size {size}" if kind != "scalar" else ""
        )
        if self.lemma is None:
            return Verdict("proved", f"partition checked; the sides agree on all {what} ({how})")
        return Verdict(
            "proved",
            f"partition checked; on all {what} both sides are the lemma {self.lemma.name} "
            f"instantiated at that block ({how})",
        )
