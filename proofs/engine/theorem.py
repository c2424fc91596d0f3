"""Theorem: a named statement, the named parts that prove it, and its numeric twin.

A part is either a Derivation (an equality chain) or a Fact (a checked statement that is not an
equality, proofs.engine.facts). Every part has a name that states it, unique in its theorem, and
the printers, the lesson, the Coq development and the tests refer to parts by that name. The
theorem is proved only when every part is; a part that cites a lemma (another part) is proved
only when that lemma is.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import sympy as sp

from proofs.engine import arguments
from proofs.engine.budget import DEFAULT_TIMEOUT
from proofs.engine.derivation import Derivation, Status, Verdict
from proofs.engine.facts import Blockwise, Fact, Part

if TYPE_CHECKING:
    from numeric.result_table import Table


@dataclass(frozen=True)
class PartResult:
    """A part and its verdict."""

    part: Part
    verdict: Verdict


def overall_status(verdicts: list[Verdict] | tuple[Verdict, ...]) -> Status:
    """proved when every verdict is; refuted when one is; undecided otherwise."""
    statuses = {v.status for v in verdicts}
    if statuses == {"proved"}:
        return "proved"
    return "refuted" if "refuted" in statuses else "undecided"


def cited_lemmas(part: Part) -> tuple[Derivation, ...]:
    """The parts a part rests on: the lemmas its steps cite, or a Blockwise fact's lemma."""
    if isinstance(part, Derivation):
        return part.lemmas
    if isinstance(part, Blockwise) and part.lemma is not None:
        return (part.lemma,)
    return ()


@dataclass(frozen=True)
class Theorem:
    """A named statement with the parts that prove it.

    name: the command-line name. title: a heading. statement: one line in words.
    formulas: the statement's key equations, for printers. parts: derivations and facts, each
    with a unique name. twin: dotted path of the numeric cross-check (a function returning a
    numeric Table). twin_kwargs: the arguments the twin is called with. remarks: sentences that
    bound the claim. brief: whether the brief notes (the module's own sections) have it; the
    registry's order is the lesson's.
    """

    name: str
    title: str
    statement: str
    parts: tuple[Part, ...]
    twin: str
    formulas: tuple[sp.Basic, ...] = ()
    twin_kwargs: dict[str, object] = field(default_factory=dict)
    remarks: tuple[str, ...] = ()
    brief: bool = False

    def __post_init__(self) -> None:
        arguments.text(self.name, "a Theorem's name")
        for key in ("title", "statement", "twin"):
            arguments.text(getattr(self, key), f"theorem {self.name}: {key}")
        parts = arguments.items(self.parts, f"theorem {self.name}: parts")
        for j, part in enumerate(parts):
            if not isinstance(part, Derivation | Fact):
                kind = type(part).__name__
                raise TypeError(
                    f"theorem {self.name}: parts[{j}] must be a Derivation or a fact, got {kind}"
                )
        object.__setattr__(self, "parts", parts)
        formulas = arguments.items(self.formulas, f"theorem {self.name}: formulas")
        formulas = tuple(
            arguments.formula(f, f"theorem {self.name}: formulas[{j}]")
            for j, f in enumerate(formulas)
        )
        object.__setattr__(self, "formulas", formulas)
        if not isinstance(self.twin_kwargs, Mapping):
            kind = type(self.twin_kwargs).__name__
            raise TypeError(f"theorem {self.name}: twin_kwargs must be a dict, got {kind}")
        remarks = arguments.items(self.remarks, f"theorem {self.name}: remarks")
        for j, remark in enumerate(remarks):
            arguments.text(remark, f"theorem {self.name}: remarks[{j}]")
        object.__setattr__(self, "remarks", remarks)
        arguments.flag(self.brief, f"theorem {self.name}: brief")
        seen: set[str] = set()
        for part in self.parts:
            if part.name in seen:
                raise ValueError(f"theorem {self.name}: two parts are named {part.name!r}")
            seen.add(part.name)
        for part in self.parts:
            for lemma in cited_lemmas(part):
                if not any(lemma is p for p in self.parts):
                    raise ValueError(
                        f"theorem {self.name}: part {part.name!r} cites lemma {lemma.name!r}, "
                        "which is not one of its parts"
                    )

    def part(self, name: str) -> Part:
        """The part called name; KeyError naming the parts there are otherwise."""
        for part in self.parts:
            if part.name == name:
                return part
        known = ", ".join(p.name for p in self.parts)
        raise KeyError(f"theorem {self.name} has no part {name!r} (parts: {known})")

    def verify(self, *, seed: int = 0, timeout: float | None = DEFAULT_TIMEOUT) -> TheoremRun:
        """Verify every part (each within timeout seconds); a part whose cited lemma is not
        proved is undecided, whatever its own links say."""
        arguments.seed(seed)
        verdicts = {p.name: p.verify(seed=seed, timeout=timeout) for p in self.parts}
        results = []
        for part in self.parts:
            verdict = verdicts[part.name]
            weak = [lemma.name for lemma in cited_lemmas(part) if not verdicts[lemma.name].proved]
            if verdict.proved and weak:
                verdict = Verdict(
                    "undecided", f"rests on lemma {', '.join(weak)}, which is not proved"
                )
            results.append(PartResult(part, verdict))
        return TheoremRun(self, tuple(results))

    def twin_function(self) -> Callable[..., object]:
        """The numeric twin, imported by name (proofs use numeric/, never the reverse)."""
        module, _, attr = self.twin.rpartition(".")
        return getattr(importlib.import_module(module), attr)

    def run_twin(self):
        """Compute the numeric twin's table with this theorem's arguments."""
        return self.twin_function()(**self.twin_kwargs)


@dataclass(frozen=True)
class TheoremRun:
    """A theorem's run: its parts with their verdicts, its twin's table (None if not run), the
    seconds it took, and the Coq kernel's mark when one was asked for (an object with ok)."""

    theorem: Theorem
    parts: tuple[PartResult, ...]
    table: Table | None = None
    seconds: float = 0.0
    coq: Any = None

    @property
    def name(self) -> str:
        return self.theorem.name

    @property
    def status(self) -> Status:
        return overall_status([p.verdict for p in self.parts])

    @property
    def twin_passed(self) -> bool | None:
        """The twin's outcome: None when it was not run."""
        return None if self.table is None else self.table.passed is not False

    @property
    def links(self) -> int:
        """How many links the parts checked (chains, and facts with a checked equality)."""
        return sum(len(p.verdict.links) for p in self.parts)

    @property
    def ok(self) -> bool:
        """Proved, the twin (if run) passed, and the Coq kernel (if asked) agreed."""
        return (
            self.status == "proved"
            and self.twin_passed is not False
            and (self.coq is None or bool(self.coq.ok))
        )

    def part(self, name: str) -> PartResult:
        """The result of the part called name."""
        self.theorem.part(name)  # KeyError naming the parts, if there is none
        return next(p for p in self.parts if p.part.name == name)
