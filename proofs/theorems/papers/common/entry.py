"""One entry of the ledger: a paper's claim, the reading assumed, the verdict and its witness.

>>> e = Entry("x.y", "P", "§1", "c", None, "holds", {"value": "1"})
>>> e.as_json()["verdict"]
'holds'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

VERDICTS = ("holds", "fails", "undecided")


@dataclass(frozen=True)
class Entry:
    """id: stable identifier; paper, where (section, equation, table), claim (in the paper's
    terms); reading: what was assumed where the paper is ambiguous (None if nothing was);
    verdict: holds, fails or undecided; witness: what backs it, JSON-ready (exact values as
    text, enclosures as arb balls printed by flint, which are rigorous); facts: the names of
    the parts of theorem `papers` that re-check it."""

    id: str
    paper: str
    where: str
    claim: str
    reading: str | None
    verdict: str
    witness: dict[str, Any] = field(default_factory=dict)
    # The parts of theorem `papers` (pe-proofs prove papers, and its Coq module) that state the
    # verdict as the engine checks it; none where no engine fact can (an exhaustive sweep).
    facts: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {', '.join(VERDICTS)}, got {self.verdict!r}")

    def as_json(self) -> dict[str, Any]:
        """The entry as the --json list prints it."""
        return {
            "id": self.id,
            "paper": self.paper,
            "where": self.where,
            "claim": self.claim,
            "reading": self.reading,
            "verdict": self.verdict,
            "witness": self.witness,
            "facts": [f"papers.{name}" for name in self.facts],
        }
