"""docs/reference/trust.md is what docs/make_trust_table.py writes from the rules now: a rule
added, or a declaration changed, without regenerating the page fails here."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from proofs.engine.rules import RULES

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location(
    "make_trust_table", ROOT / "docs" / "make_trust_table.py"
)
assert _spec is not None and _spec.loader is not None
make = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = make
_spec.loader.exec_module(make)


def test_the_trust_page_is_what_the_generator_writes_now() -> None:
    written = make.PAGE.read_text(encoding="utf-8")
    assert written == make.page(), "run `python docs/make_trust_table.py` and commit the page"


def _kind_row(kind: str) -> list[str]:
    for line in make.kinds_table():
        if line.startswith(f"| {kind} |"):
            return [w.strip() for w in line.split("|")[2].split(";")]
    raise AssertionError(f"the Trust table has no row {kind!r}")


def test_the_kinds_sort_every_rule_as_the_rule_does() -> None:
    exact = _kind_row("exact rewriting")
    uncertified = _kind_row("computer-algebra answers that can be wrong")
    assert sorted(exact) == sorted(r.words for r in RULES.values() if r.exact)
    assert sorted(uncertified) == sorted(r.words for r in RULES.values() if not r.exact)


def test_each_rule_has_one_row_saying_what_it_does_and_its_coq_tactic() -> None:
    rows = make.rules_table()[2:]
    assert len(rows) == len(RULES)
    for rule, row in zip(RULES.values(), rows, strict=True):
        assert row.startswith(f"| {rule.words.replace('|', chr(92) + '|')} |")
        assert rule.description and rule.description.replace("|", "\\|") in row
        assert (rule.coq.replace("|", "\\|") in row) if rule.coq else "no Coq proof" in row


def test_the_uncited_column_follows_the_search_order() -> None:
    # The rounds' last sequence holds every rule of the rounds, in order: its k-th is "k-th".
    for k, rule in enumerate(make.STRATEGIES[-1], start=1):
        assert make.uncited(rule).endswith(f"position {rule.search.position} ({make._ordinal(k)})")
    assert make.uncited(RULES["angle_subtraction"]) == "only where cited"
