"""Theorem: a named statement, the parts that prove it, and its numeric twin.

A part is either a Derivation (an equality chain) or a Fact (a checked statement that is
not an equality, proofs.engine.facts). The theorem is proved only when every part is.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field

import sympy as sp

from proofs.engine.derivation import Status, Verdict
from proofs.engine.facts import Part


@dataclass(frozen=True)
class PartResult:
    """A part and its verdict."""

    part: Part
    verdict: Verdict


@dataclass(frozen=True)
class TheoremResult:
    """A theorem's parts with their verdicts, and the theorem's status."""

    theorem: Theorem
    parts: tuple[PartResult, ...]

    @property
    def status(self) -> Status:
        statuses = {p.verdict.status for p in self.parts}
        if statuses == {"proved"}:
            return "proved"
        return "refuted" if "refuted" in statuses else "undecided"


@dataclass(frozen=True)
class Theorem:
    """A named statement with the parts that prove it.

    name: the command-line name. title: a heading. statement: one line in words.
    formulas: the statement's key equations, for printers. parts: derivations and facts.
    twin: dotted path of the numeric cross-check (a function returning a numeric Table).
    twin_kwargs: the arguments the twin is called with. remarks: sentences that bound the claim.
    """

    name: str
    title: str
    statement: str
    parts: tuple[Part, ...]
    twin: str
    formulas: tuple[sp.Basic, ...] = ()
    twin_kwargs: dict[str, object] = field(default_factory=dict)
    remarks: tuple[str, ...] = ()

    def verify(self, *, seed: int = 0) -> TheoremResult:
        """Verify every part independently."""
        return TheoremResult(self, tuple(PartResult(p, p.verify(seed=seed)) for p in self.parts))

    def twin_function(self) -> Callable[..., object]:
        """The numeric twin, imported by name (proofs use numeric/, never the reverse)."""
        module, _, attr = self.twin.rpartition(".")
        return getattr(importlib.import_module(module), attr)

    def run_twin(self):
        """Compute the numeric twin's table with this theorem's arguments."""
        return self.twin_function()(**self.twin_kwargs)
