"""Theorem `papers`: the ledger's verdicts as engine facts, reachable from `pe-proofs prove` and
the Coq export. Each fact a failing entry names is a Refutation the engine proves; a
Refutation moved off its counterexample is not proved; entries without a fact are the sweeps'."""

from __future__ import annotations

import pytest
import sympy as sp
from flint import fmpq

from proofs import registry
from proofs.engine.facts import NonNegative, Refutation
from proofs.theorems.papers import checked, ledger
from proofs.theorems.papers.men2024 import DISTANCE, criterion_refutation


@pytest.fixture(scope="module")
def both():
    return checked()


@pytest.fixture(scope="module")
def theorem():
    return registry.build("papers")


def test_every_named_fact_is_a_part_of_the_theorem(both, theorem):
    entries, facts = both
    parts = {p.name for p in theorem.parts}
    named = {name for e in entries for name in e.facts}
    assert named == parts == {f.name for f in facts}
    assert all(e.as_json()["facts"] == [f"papers.{n}" for n in e.facts] for e in entries)


def test_a_failing_entry_is_refuted_and_a_holding_one_is_not(both, theorem):
    entries, _ = both
    parts = {p.name: p for p in theorem.parts}
    for e in entries:
        kinds = {type(parts[n]) for n in e.facts}
        assert kinds <= ({Refutation} if e.verdict == "fails" else {NonNegative}), e.id


def test_only_sweeps_and_float32_have_no_fact(both):
    entries, _ = both
    bare = {e.id for e in entries if not e.facts}
    assert all(i.startswith(("men2024.", "su2024.")) or i == "t5.buckets.float32" for i in bare), (
        bare
    )
    # A Table 2 entry without a fact holds, or fails by a smaller grid base (a sweep).
    for e in entries:
        if e.id in bare and e.id.startswith(("men2024.", "su2024.")):
            assert "m" not in e.witness


@pytest.mark.slow
def test_the_theorem_is_proved(theorem):
    run = theorem.verify()
    assert run.status == "proved", [str(p.verdict) for p in run.parts]
    assert theorem.run_twin().passed


def test_a_refutation_at_a_distance_that_keeps_the_criterion_is_not_proved():
    # b = 12000 first breaks the criterion at m = 1554 (Su's 2K); at 1553 B(m) > 0.
    assert criterion_refutation(fmpq(12000), 1554).verify().proved
    assert not criterion_refutation(fmpq(12000), 1553).verify().proved


def test_the_criterion_is_the_papers_sum():
    fact = criterion_refutation(fmpq(12000), 1554)
    (summand, (index, low, high)) = fact.claim.lhs.args
    assert (low, high) == (0, 63) and fact.claim.rhs == 0 and isinstance(fact.claim, sp.GreaterThan)
    at_zero = summand.subs({DISTANCE: 0, index: 5})
    assert at_zero == 1


def test_prove_and_coq_reach_the_ledger():
    assert registry.check_name("papers") == "papers"
    assert registry.module_path("papers") == "proofs.theorems.papers.common.theorem"
    assert "papers" in registry.ledger_names() and "papers" not in registry.names()
    with pytest.raises(ValueError, match="no course module"):
        registry.module_of("papers")


def test_enclosure_facts_enclose_the_ledgers_values(both):
    entries, facts = both
    by_name = {f.name: f for f in facts}
    d_extra = next(e for e in entries if e.id == "liu2023.d_extra")
    (name,) = d_extra.facts
    fact = by_name[name]
    assert isinstance(fact, NonNegative) and fact.verify().proved
    # The fact's interval lies strictly between 45 and 46: ceiling 46, d_extra 92.
    assert "[45.026, 45.027]" in fact.title and d_extra.witness["value"] == 92


def test_ledger_and_checked_agree():
    assert [e.id for e in ledger("vaswani2017")] == [e.id for e in checked("vaswani2017")[0]]
