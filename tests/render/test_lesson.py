"""The lesson's shape: the module's order, definitions first, every section complete, the ramp
told right, and the body free of the checker's vocabulary."""

from __future__ import annotations

import itertools
import re

import pytest

from proofs.render import latex_lesson
from proofs.render.latex_math import latex_math
from proofs.render.lesson import build_lesson
from proofs.render.lesson_blocks import (
    AppendixStart,
    Chain,
    Emph,
    Figure,
    Items,
    Para,
    ProofEnd,
    Quote,
    Ref,
    TableBlock,
    TheoremStatement,
)
from proofs.render.lesson_parts import NAMES

CORE = ["formula", "bounded", "unique", "rotation", "ramp"]
FULL_ONLY = ["dot_product", "group", "layouts", "rope"]
# What must never reach the lesson's body (the appendix may name the machinery).
FORBIDDEN = (
    "**",
    "find_shift_map",
    "trigsimp",
    "sympy",
    "mpmath",
    "is_irrational",
    "concatenated_index",
    "1 + 2 i",
    "1+2i",
    "seeded points",
    "relative difference",
    "np.allclose",
    "nonzero by the hypotheses",
    "m_{11}",
)


@pytest.fixture(scope="module")
def full(checked_notes, lesson_tables):
    return build_lesson(checked_notes, lesson_tables, brief=False)


@pytest.fixture(scope="module")
def brief(checked_notes, lesson_tables):
    return build_lesson(checked_notes, lesson_tables, brief=True)


def names(lesson):
    return [s.name for s in lesson.sections]


def test_sections_follow_the_module(full, brief):
    assert names(full)[:2] == ["introduction", "definitions"]
    assert names(full)[2:11] == CORE + FULL_ONLY
    assert names(full)[11:] == [
        "exercises",
        "challenge",
        "quiz",
        "summary",
        "author_notes",
        "references",
        "appendix",
    ]
    assert names(brief) == [n for n in names(full) if n not in FULL_ONLY and n != "appendix"]


def test_every_core_section_has_claim_theorem_proof_table_figure_and_meaning(full):
    for section in full.sections:
        if section.name not in CORE:
            continue
        kinds = {type(b) for b in section.blocks}
        assert {Quote, TheoremStatement, Chain, ProofEnd} <= kinds, section.name
        assert any(isinstance(b, TableBlock) for b in section.blocks), section.name
        refs = [p for b in section.blocks if isinstance(b, Para) for p in b.pieces]
        assert any(isinstance(p, Ref) and p.kind == "Figure" for p in refs), section.name
        meaning = [
            b
            for b in section.blocks
            if isinstance(b, Para) and b.pieces and b.pieces[0] == Emph("What this means.")
        ]
        assert meaning, section.name


def test_theorems_and_figures_are_numbered_in_order_and_every_reference_resolves(full):
    theorems = [b for s in full.sections for b in s.blocks if isinstance(b, TheoremStatement)]
    figures = [b for s in full.sections for b in s.blocks if isinstance(b, Figure)]
    assert [t.number for t in theorems] == list(range(1, len(theorems) + 1))
    assert [f.number for f in figures] == list(range(1, len(figures) + 1))
    labels = {b.label for b in (*theorems, *figures)}
    pieces = []
    for s in full.sections:
        for b in s.blocks:
            pieces += getattr(b, "pieces", ()) or ()
            if isinstance(b, Items):
                pieces += [p for item in b.items for p in item]
    refs = [p for p in pieces if isinstance(p, Ref)]
    assert refs and all(r.label in labels for r in refs)
    assert {f.label for f in figures} <= {r.label for r in refs}  # every figure is cited


def test_quiz_answers_each_point_to_a_theorem(full):
    quiz = next(s for s in full.sections if s.name == "quiz")
    (items,) = [b for b in quiz.blocks if isinstance(b, Items)]
    assert len(items.items) == 5
    for item in items.items:
        assert any(isinstance(p, Ref) and p.kind == "Theorem" for p in item)


def test_the_ramp_is_told_right(full):
    notes = next(s for s in full.sections if s.name == "author_notes")
    (items,) = [b for b in notes.blocks if isinstance(b, Items)]
    first = items.items[0]
    assert "ramp" in first[0].text.lower()
    labels = {p.label for p in first if isinstance(p, Ref)}
    assert {"thm:ramp", "thm:similarity"} <= labels
    answer = next(s for s in full.sections if s.name == "challenge")
    text = latex_lesson.block_tex(answer.blocks[-1], ".pdf")
    assert r"\frac{p \left(p + k\right)}{L^{2}}" in text and "Theorem~\\ref{thm:similarity}" in text


def test_definitions_come_before_their_use(full):
    tex = latex_lesson.lesson_tex(full, brief=False)
    definitions = tex.index(r"\section{Definitions}")
    first_use = tex.index(r"\section{The formula")
    body = tex[definitions:first_use]
    for needed in (
        r"2 i + 1",
        r"\omega_{i} =",
        r"R{\left(\theta \right)} =",
        "M_{k} =",
        r"r{\left(\mathrm{pos} \right)} =",
    ):
        assert needed in body, needed


@pytest.mark.parametrize("brief_version", [False, True])
def test_the_body_has_no_code_names_log_lines_or_sympy_syntax(full, brief, brief_version):
    lesson = brief if brief_version else full
    tex = latex_lesson.lesson_tex(lesson, brief=brief_version)
    body = tex.split(r"\appendix")[0]
    for token in FORBIDDEN:
        assert token not in body, token
    assert not re.search(r"\\left\(-1\\right\)|\(-1\) k|1 \\cdot", body)


def test_no_chain_shows_the_same_line_twice(full):
    for section in full.sections:
        for block in section.blocks:
            if isinstance(block, Chain):
                d = block.derivation
                lines = [latex_math(s.expr, d.display, NAMES) for s in d.steps]
                assert all(a != b for a, b in itertools.pairwise(lines)), section.name


def test_the_lesson_names_each_step_by_the_rule_it_cites(full):
    for section in full.sections:
        for block in section.blocks:
            if isinstance(block, Chain):
                for step in block.derivation.steps[1:]:
                    assert step.cited, (section.name, block.derivation.name)


def test_the_module_digits_appear(full):
    tex = latex_lesson.lesson_tex(full, brief=False)
    for digits in (
        "0.841",
        "0.54",
        "-0.544",
        "-0.839",
        "0.995",
        "-0.9589",
        "0.2837",
        "0.9894",
        "-0.1455",
        "-0.1324",
        "0.9912",
    ):
        assert f"${digits}$" in tex, digits
    assert "$50$ & $50$" in tex  # 50 unique rows out of 50


def test_the_appendix_alone_names_the_machinery(full):
    appendix = full.sections[-1]
    assert isinstance(appendix.blocks[0], AppendixStart)
    tex = latex_lesson.lesson_tex(full, brief=False)
    after = tex.split(r"\appendix")[1]
    assert "SymPy" in after and "python-flint" in after and "numeric.checks." in after


def test_the_appendix_has_no_sympy_syntax_and_sets_powers_whole(full):
    tex = latex_lesson.lesson_tex(full, brief=False)
    after = tex.split(r"\appendix")[1]
    assert "**" not in after
    assert r"$10000^{-2i/d_{\mathrm{model}}}$" in after
    assert "$10000^{-2i}$/" not in after


def test_a_twins_title_and_note_read_as_sentences_in_the_appendix() -> None:
    from proofs.render.lesson_appendix import _sentence

    assert _sentence("layouts and schedules, d = 8") == "Layouts and schedules, d = 8."
    assert _sentence("No two positions collide.") == "No two positions collide."
    assert _sentence("ω_0 = 1 and each ω_i is smaller") == "ω_0 = 1 and each ω_i is smaller."
