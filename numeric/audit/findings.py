"""Finding: one sentence of an audit's report, typed: the bug class it names, whether it is a
fault (a fault makes the audit fail: exit status 1), and, for a question the input cannot
answer, what would answer it (exit status 3 when nothing is a fault)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    """One sentence a person reads. bug: the bug class it names (None for a description);
    fault: whether it makes the audit fail; decided_by: for a finding the input cannot decide
    (neither sound nor a fault), what would decide it, e.g. "the config (--config)".

    >>> Finding("attention_factor", "m = 1.2 cannot be told", False, "the config").undecided
    True
    """

    bug: str | None
    text: str
    fault: bool
    decided_by: str | None = None

    def __post_init__(self) -> None:
        if self.fault and self.decided_by is not None:
            raise ValueError("a finding is a fault or undecided, not both")

    @property
    def undecided(self) -> bool:
        """Whether the input cannot decide this finding (it names what would)."""
        return self.decided_by is not None
