"""Every generated Coq statement says something: none is an empty FreeOf (exists M, forall pos,
e = M with pos absent from e), none compares numerals only, and no statement's hypotheses
contradict each other (lra cannot derive False from them). The Coq checks compile the foundation
first and are marked slow. Tests needing coqc skip, with that reason, where it is missing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from proofs import registry
from proofs.engine.coq.development import FOUNDATION, build_development
from proofs.engine.coq.module import HEADER, uses_flocq, with_flocq
from tests.engine.coq_tools import compiled, coqc, needs_coqc

# exists M : T, forall x y : R, e = M  or  exists M : T, forall (x : R), e = M
EXISTS_FORALL = re.compile(
    r"exists M : [^,]+, forall (?:\((?P<grouped>[\w' ]+) : \w+\)|(?P<plain>[\w' ]+) : \w+), "
    r"(?P<body>.*) = M$",
    re.S,
)
IDENTIFIER = re.compile(r"[A-Za-z_][\w']*")


def empty_free_of(statement: str) -> bool:
    """Whether statement is exists M, forall xs, e = M with no x in e."""
    match = EXISTS_FORALL.search(statement)
    if match is None:
        return False
    names = (match["grouped"] or match["plain"]).split()
    return not any(re.search(rf"(?<![\w']){re.escape(n)}(?![\w'])", match["body"]) for n in names)


def numerals_only(statement: str) -> bool:
    """Whether statement is built from numerals, arithmetic and comparisons alone."""
    return not IDENTIFIER.search(statement)


def test_the_checks_tell_empty_from_meaningful() -> None:
    assert empty_free_of("forall (k : R),\n    exists M : R, forall pos : R, cos k = M")
    assert empty_free_of("exists M : mat, forall p m : R, rows [[cos k]] = M")
    assert not empty_free_of("exists M : R, forall (p : R), cos (p * w) * cos (p * w) = M")
    assert numerals_only("8 <> 0") and numerals_only("0 <= (1 / 256) - (1 + 1 / 2) ^ 2")
    assert not numerals_only("1 - cos 2 <> 0")
    assert not numerals_only("round radix2 (FLT_exp (-133) 8) ZnearestE 257 = 256")


def statements(names: list[str]) -> list[tuple[str, str]]:
    development = build_development([registry.build(n) for n in names])
    return [(name, s) for m in development.modules for name, s in m.statements]


@pytest.fixture(scope="module")
def every_statement() -> list[tuple[str, str]]:
    return statements([*registry.names(), *registry.ledger_names()])


def test_no_generated_statement_is_an_empty_free_of(every_statement) -> None:
    assert [n for n, s in every_statement if empty_free_of(s)] == []


def test_no_generated_statement_compares_numerals_only(every_statement) -> None:
    assert [n for n, s in every_statement if numerals_only(s)] == []


def contradiction_checks(stated: list[tuple[str, str]]) -> str:
    """A Coq file in which lra must fail to derive False from each statement's hypotheses."""
    header = with_flocq(HEADER) if any(uses_flocq(s) for _, s in stated) else HEADER
    goals = [
        f"(* {name} *)\nGoal {s}.\nProof. intros. Fail (exfalso; lra). Abort.\n"
        for name, s in stated
        if "->" in s
    ]
    return header + "\n\n" + "\n".join(goals)


@pytest.fixture(scope="module")
def foundation(tmp_path_factory) -> Path:
    return compiled(tmp_path_factory.mktemp("coq"), FOUNDATION)


@needs_coqc
@pytest.mark.slow
def test_the_contradiction_check_catches_contradictory_hypotheses(foundation) -> None:
    (foundation / "Contradictory.v").write_text(
        contradiction_checks([("bad", "forall (x : R), 0 < x -> x < 0 -> x = 1")])
    )
    run = coqc(foundation, "Contradictory.v")
    assert run.returncode != 0 and "The command has not failed" in run.stdout + run.stderr


@needs_coqc
@pytest.mark.slow
def test_no_generated_statement_has_contradictory_hypotheses(foundation, every_statement) -> None:
    (foundation / "Hypotheses.v").write_text(contradiction_checks(every_statement))
    run = coqc(foundation, "Hypotheses.v")
    assert run.returncode == 0, run.stdout + run.stderr
