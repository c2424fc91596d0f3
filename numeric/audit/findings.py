"""Finding: one sentence of an audit's report, typed: the bug class it names and whether it is a
fault (a fault makes the audit fail: exit status 1)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Finding:
    """One sentence a person reads. bug: the bug class it names (None for a description);
    fault: whether it makes the audit fail."""

    bug: str | None
    text: str
    fault: bool
