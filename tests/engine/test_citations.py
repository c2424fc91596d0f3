"""Every step cites what justifies it, and the checker holds it to that.

For every link of every shipped theorem the rule (or lemma) the step cites is the one that
closed it, and no link closes because its two sides were already identical. A wrong citation is
reported with what did close the link, and the link does not count as proved.
"""

from __future__ import annotations

import pytest
import sympy as sp

from proofs.engine.citation import Lemma, Termwise, substitute
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import NonNegative, ShiftMapFact
from proofs.engine.rules import (
    ALGEBRA,
    ANGLE_ADDITION,
    MATRIX_PRODUCT,
    PARITY,
    PERIOD,
    PYTHAGOREAN,
)
from proofs.engine.theorem import Theorem
from proofs.theorems.sinusoidal.definitions import OMEGA_I, POS, K, omega, pe_pair, rotation_matrix

X = sp.Symbol("x", real=True)


def _links(run):
    """(part name, link number, link) for every chain link, witness link and shift-map link."""
    for result in run.parts:
        for j, link in enumerate(result.verdict.links, 1):
            yield result.part.name, j, link


@pytest.fixture(scope="module")
def runs(checked_notes):
    return checked_notes  # every theorem, verified once per session (tests/conftest.py)


def test_every_link_of_every_theorem_is_closed_by_what_it_cites(runs) -> None:
    checked = 0
    for run in runs:
        for part, j, link in _links(run):
            where = f"{run.name}.{part} link {j}"
            assert link.cited, f"{where} cites nothing"
            assert link.cited == link.closed_by, f"{where}: {link.symbolic.summary()}"
            assert link.status == "proved", where
            checked += 1
    assert checked > 50


def test_no_link_closes_because_its_sides_were_identical(runs) -> None:
    for run in runs:
        for result in run.parts:
            part = result.part
            chains = [part] if isinstance(part, Derivation) else []
            if isinstance(part, ShiftMapFact) and part.answer().derivation is not None:
                chains.append(part.answer().derivation)
            for chain in chains:
                for a, b in zip(chain.steps, chain.steps[1:], strict=False):
                    assert a.expr != b.expr, f"{run.name}.{chain.name}"


def test_the_json_gives_cited_and_closed_by_for_every_link(runs) -> None:
    from proofs.render.json import theorem_json

    for run in runs:
        data = theorem_json(run)
        for step in data["steps"]:
            if step["symbolic"] is None:
                continue
            assert step["cited"] == step["closed_by"] == step["symbolic"]["closed_by"], step


def test_parts_have_unique_names_that_state_them(runs) -> None:
    for run in runs:
        names = [p.part.name for p in run.parts]
        assert len(set(names)) == len(names), run.name
        assert all(n.isidentifier() and n == n.lower() for n in names), names


def _pair_chain(third_step_cites) -> Derivation:
    w = omega()
    product = sp.ImmutableMatrix(
        [
            sp.sin(POS * w) * sp.cos(K * w) + sp.cos(POS * w) * sp.sin(K * w),
            sp.cos(POS * w) * sp.cos(K * w) - sp.sin(POS * w) * sp.sin(K * w),
        ]
    )
    return Derivation(
        "pair_shift",
        "one pair",
        (
            Step(sp.MatMul(rotation_matrix(K * w), pe_pair(POS, w), evaluate=False)),
            Step(product, by=MATRIX_PRODUCT),
            Step(pe_pair(POS + K, w), by=third_step_cites),
        ),
        display=((w, OMEGA_I),),
    )


def test_a_wrong_citation_is_reported_with_what_closed_it_and_is_not_proved() -> None:
    verdict = _pair_chain(PARITY).verify()
    assert verdict.status == "undecided"
    link = verdict.links[1]
    assert link.cited == "parity" and link.closed_by == "angle addition"
    assert "closed by angle addition, not by the cited parity" in verdict.reason
    assert link.numeric.passed  # the claim itself is true: only the citation is wrong
    assert _pair_chain(ANGLE_ADDITION).verify().status == "proved"


def test_a_theorem_with_a_wrong_citation_does_not_count_as_proved() -> None:
    theorem = Theorem("toy", "t", "s", (_pair_chain(PARITY),), twin="x.y")
    assert theorem.verify().status == "undecided"


def test_a_citation_that_algebra_alone_does_not_need_is_a_defect() -> None:
    claim = Derivation("claim", "c", (Step((X + 1) ** 2), Step(X**2 + 2 * X + 1, by=PARITY)))
    verdict = claim.verify()
    assert verdict.status == "undecided"
    assert "closed by algebra, not by the cited parity" in verdict.reason


def test_a_sequence_of_rules_must_need_every_rule() -> None:
    claim = Derivation(
        "claim",
        "c",
        (Step(sp.sin(X) ** 2 + sp.cos(X) ** 2), Step(sp.Integer(1), by=(PARITY, PYTHAGOREAN))),
    )
    assert "closed by Pythagorean identity, not by the cited parity, Pythagorean identity" in (
        claim.verify().reason
    )


def test_identical_sides_check_nothing() -> None:
    claim = Derivation("claim", "c", (Step(sp.sin(X)), Step(sp.sin(X), by=ALGEBRA)))
    verdict = claim.verify()
    assert verdict.status == "undecided" and "identical as written" in verdict.reason


def test_sympys_own_evaluation_is_not_taken_for_a_rule() -> None:
    # sin(x + 2π) kept as written is not sin(x) by algebra: only the period rule closes it.
    shifted = sp.sin(sp.Add(X, 2 * sp.pi, evaluate=False), evaluate=False)
    by_algebra = Derivation("claim", "c", (Step(shifted), Step(sp.sin(X), by=ALGEBRA)))
    assert "closed by period 2π, not by the cited algebra" in by_algebra.verify().reason
    by_period = Derivation("claim", "c", (Step(shifted), Step(sp.sin(X), by=PERIOD)))
    assert by_period.verify().status == "proved"


def test_a_lemma_closes_a_link_only_between_two_of_its_instantiated_steps() -> None:
    pair = _pair_chain(ANGLE_ADDITION)
    w = omega()
    # R(−kω_i) as the lemma writes it at k := −k: cos(−kω_i), which SymPy would turn into
    # cos(kω_i) on sight; only the parity rule may.
    turned = substitute(pair.lhs, {K: -K})
    at_minus_k = Derivation(
        "claim", "c", (Step(turned), Step(pe_pair(POS - K, w), by=Lemma(pair, {K: -K})))
    )
    assert at_minus_k.verify().status == "proved"
    evaluated = sp.MatMul(rotation_matrix(-K * w), pe_pair(POS, w), evaluate=False)
    parity_unseen = Derivation(
        "claim", "c", (Step(evaluated), Step(pe_pair(POS - K, w), by=Lemma(pair, {K: -K})))
    )
    assert parity_unseen.verify().status != "proved"
    wrong_binding = Derivation(
        "claim", "c", (Step(turned), Step(pe_pair(POS - K, w), by=Lemma(pair, {K: 2 * K})))
    )
    assert wrong_binding.verify().status != "proved"


def test_a_lemma_binding_must_meet_the_symbols_hypotheses() -> None:
    pair = _pair_chain(ANGLE_ADDITION)
    i = sp.Symbol("i", integer=True, nonnegative=True)
    shifted = Derivation(
        "claim",
        "c",
        (
            Step(
                sp.MatMul(rotation_matrix(K * omega(-1)), pe_pair(POS, omega(-1)), evaluate=False)
            ),
            Step(pe_pair(POS + K, omega(-1)), by=Lemma(pair, {i: -1})),
        ),
    )
    verdict = shifted.verify()
    assert verdict.status != "proved"


def test_termwise_needs_the_range_to_meet_the_index_hypotheses() -> None:
    i = sp.Symbol("i", integer=True, nonnegative=True)
    n = sp.Symbol("n", integer=True, positive=True)
    lemma = Derivation(
        "square", "s", (Step(sp.sin(i * X) ** 2 + sp.cos(i * X) ** 2), Step(1, by=PYTHAGOREAN))
    )
    inside = Derivation(
        "claim",
        "c",
        (
            Step(sp.Sum(sp.sin(i * X) ** 2 + sp.cos(i * X) ** 2, (i, 0, n))),
            Step(sp.Sum(1, (i, 0, n)), by=Termwise(Lemma(lemma))),
        ),
    )
    assert inside.verify().status == "proved"
    below = Derivation(
        "claim",
        "c",
        (
            Step(sp.Sum(sp.sin(i * X) ** 2 + sp.cos(i * X) ** 2, (i, -3, n))),
            Step(sp.Sum(1, (i, -3, n)), by=Termwise(Lemma(lemma))),
        ),
    )
    assert below.verify().status != "proved"


def test_a_part_citing_an_unproved_lemma_is_not_proved() -> None:
    wrong = Derivation("wrong", "w", (Step(sp.sin(X)), Step(sp.cos(X), by=ANGLE_ADDITION)))
    cites = Derivation("cites", "c", (Step(sp.sin(X)), Step(sp.cos(X), by=Lemma(wrong))))
    run = Theorem("toy", "t", "s", (wrong, cites), twin="x.y").verify()
    assert run.part("cites").verdict.status != "proved"


def test_a_cited_lemma_must_be_a_part_of_the_same_theorem() -> None:
    lemma = _pair_chain(ANGLE_ADDITION)
    cites = Derivation("cites", "c", (Step(sp.sin(X)), Step(sp.sin(X) + 0 * X, by=Lemma(lemma))))
    with pytest.raises(ValueError, match="not one of its parts"):
        Theorem("toy", "t", "s", (cites,), twin="x.y")


def test_a_witness_cites_its_rules_too() -> None:
    half = sp.sin(X / 2) - sp.cos(X / 2)
    fact = NonNegative("fact", "t", 1 - sp.sin(X), half**2, by=PARITY)
    verdict = fact.verify()
    assert verdict.status != "proved" and verdict.links[0].closed_by != "parity"
