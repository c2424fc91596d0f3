"""A refutation reads as one in every printer: "Refuted:" from its type, the claim, then the
certified counterexample (the point and the enclosure of lhs − rhs the engine computed)."""

from __future__ import annotations

import pytest
import sympy as sp

from proofs.engine.coq.module import theorem_module
from proofs.engine.facts import Refutation
from proofs.engine.theorem import Theorem
from proofs.render.json import theorem_json
from proofs.render.lesson_appendix import theorem_table
from proofs.render.markdown import theorem_markdown
from proofs.render.text import render_theorem
from proofs.render.text_style import Style

X = sp.Symbol("x", real=True)


@pytest.fixture(scope="module")
def run():
    claim = sp.Eq(sp.sin(2 * X), 2 * sp.sin(X), evaluate=False)
    fact = Refutation("double_angle", "sin 2x = 2 sin x for every x", claim, ((X, sp.Integer(1)),))
    return Theorem("toy", "t", "s", (fact,), twin="x.y").verify()


def test_the_terminal_says_refuted_then_the_claim_then_the_counterexample(run) -> None:
    text = render_theorem(run, Style(unicode=True, color=False, width=100))
    heading = text.index("[1] Refuted: sin 2x = 2 sin x for every x")
    claimed = text.index("Claimed, for every x:")
    broken = text.index("False at x = 1: there lhs − rhs lies in [-0.77365, -0.77364]")
    assert heading < claimed < broken
    assert "refuted as claimed" in text


def test_markdown_json_the_appendix_and_coq_carry_it(run) -> None:
    markdown = theorem_markdown(run, None)
    assert "### 1. Refuted: sin 2x = 2 sin x for every x" in markdown
    assert r"\neq" in markdown
    (part,) = theorem_json(run)["parts"]
    assert part["kind"] == "Refutation" and part["status"] == "proved"
    assert part["refutes"]["at"] == {"x": "1"}
    low, high = (sp.Rational(v) for v in part["refutes"]["difference"])
    assert low <= sp.sin(2) - 2 * sp.sin(1) <= high
    (row,) = theorem_table(run).table.rows
    assert row[0] == "sin 2x = 2 sin x for every x" and "counterexample" in row[1]
    assert row[2] == "refuted (false at x = 1)"
    (entry,) = theorem_module(run.theorem).entries
    assert entry.lemma == "double_angle"
    assert "~ (forall (x : R)" in theorem_module(run.theorem).text()
