"""Outcome: what an audit concludes, one of three: sound, fault, or undecided (the input
cannot decide; the findings say what would, such as the model's config).

A fault outweighs an undecided question: a cache with one named fault is faulty whatever else
cannot be told. The command line maps the three to exit statuses 0, 1 and 3
(proofs.cli.audit).

>>> Outcome.of([Finding(None, "RoPE, base 10000", False)])
<Outcome.SOUND: 'sound'>
>>> Outcome.of([Finding("m", "m = 1.2: give the config", False, "the config (--config)")])
<Outcome.UNDECIDED: 'undecided'>
>>> Outcome.of([Finding("m", "?", False, "--config"), Finding("fp16_cache", "16 bits", True)])
<Outcome.FAULT: 'fault'>
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from numeric.audit.findings import Finding


class Outcome(StrEnum):
    """An audit's conclusion (its value is the JSON's word)."""

    SOUND = "sound"
    FAULT = "fault"
    UNDECIDED = "undecided"

    @classmethod
    def of(cls, findings: Iterable[Finding]) -> Outcome:
        """FAULT if any finding is a fault, else UNDECIDED if any is undecided, else SOUND."""
        findings = list(findings)
        if any(f.fault for f in findings):
            return cls.FAULT
        if any(f.undecided for f in findings):
            return cls.UNDECIDED
        return cls.SOUND

    @classmethod
    def of_verdict(cls, ok: bool) -> Outcome:
        """SOUND or FAULT, for a result that decides every question."""
        return cls.SOUND if ok else cls.FAULT

    @property
    def headline(self) -> str:
        """How a report's first line says it."""
        return {
            Outcome.SOUND: "sound",
            Outcome.FAULT: "FAULTS FOUND",
            Outcome.UNDECIDED: "UNDECIDED",
        }[self]

    def decided_by(self, findings: Iterable[Finding]) -> tuple[str, ...]:
        """What would decide the undecided findings, each named once (empty unless UNDECIDED)."""
        if self is not Outcome.UNDECIDED:
            return ()
        return tuple(dict.fromkeys(f.decided_by for f in findings if f.decided_by is not None))
