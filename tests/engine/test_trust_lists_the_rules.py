"""docs/reference/soundness.md's Trust table sorts every rule a step may cite into exact rewriting and answers
that can be wrong, as the rules themselves say (Rule.exact)."""

from __future__ import annotations

from pathlib import Path

from proofs.engine.rules import RULES

README = Path(__file__).resolve().parents[2] / "docs" / "reference" / "soundness.md"


def _row(kind: str) -> list[str]:
    for line in README.read_text(encoding="utf-8").splitlines():
        if line.startswith(f"| {kind} |"):
            cell = line.split("|")[2]
            return [w.strip().replace(" (`Sum.doit`)", "") for w in cell.split(";")]
    raise AssertionError(f"{README.name}'s Trust table has no row {kind!r}")


def test_the_trust_table_sorts_every_rule_as_the_rule_does() -> None:
    exact = _row("exact rewriting")
    uncertified = _row("computer-algebra answers that can be wrong")
    assert sorted(exact) == sorted(r.words for r in RULES.values() if r.exact)
    assert sorted(uncertified) == sorted(r.words for r in RULES.values() if not r.exact)
