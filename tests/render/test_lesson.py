"""The lesson's shape and its claims: the module's order, definitions first, every section
complete, the editions apart, the ramp and attention told right, the errata cited, and the body
free of the checker's vocabulary and its log."""

from __future__ import annotations

import inspect
import itertools
import re

import pytest
import sympy as sp

from numeric.module import module_sinusoidal_pe
from proofs.registry import module_of
from proofs.render import html, latex_lesson, markdown_lesson, myst
from proofs.render.latex_math import latex_math
from proofs.render.lesson import build_lesson
from proofs.render.lesson_blocks import (
    AppendixStart,
    Chain,
    Emph,
    Figure,
    Items,
    Listing,
    Para,
    ProofEnd,
    Quote,
    Ref,
    Solution,
    TableBlock,
    TheoremStatement,
)
from proofs.render.lesson_parts import NAMES
from proofs.render.options import RenderOptions
from proofs.render.steps import step_text
from proofs.theorems.sinusoidal.definitions import D_MODEL

CORE = ["formula", "bounded", "unique", "rotation", "ramp"]
ROPE = ["rope_layouts", "rope_group", "rope_scaling", "rope_decay", "rope_precision"]
FULL_ONLY = ["dot_product", "group", "layouts"]
BACK = ["reference", "exercises", "challenge", "mistakes", "quiz"]
# What must never reach the lesson's body (the appendix may name the checks).
FORBIDDEN = (
    "**",
    "find_shift_map",
    "trigsimp",
    "sympy",
    "mpmath",
    "is_irrational",
    "concatenated_index",
    "concatenated_cos_first",
    "the audit names it",
    "1 + 2 i",
    "1+2i",
    "seeded points",
    "relative difference",
    "np.allclose",
    "nonzero by the hypotheses",
    "m_{11}",
    "check passed",
    "tolerance per case",
    "within 1.",
    r"\times 10^{0}",
    "lemma pair",
    "pair_unit_length",
)


@pytest.fixture(scope="module")
def full(checked_notes, lesson_tables):
    return build_lesson(checked_notes, lesson_tables, RenderOptions(brief=False, edition="author"))


@pytest.fixture(scope="module")
def brief(checked_notes, lesson_tables):
    return build_lesson(checked_notes, lesson_tables, RenderOptions(brief=True, edition="author"))


@pytest.fixture(scope="module")
def student(checked_notes, lesson_tables):
    return build_lesson(checked_notes, lesson_tables, RenderOptions(brief=True, edition="student"))


def names(lesson):
    return [s.name for s in lesson.sections]


def blocks(lesson, name):
    return next(s for s in lesson.sections if s.name == name).blocks


def test_sections_follow_the_module(full, brief, student):
    assert names(full) == [
        "introduction",
        "notation",
        "definitions",
        *CORE,
        *BACK,
        *FULL_ONLY,
        "bridge",
        "summary",
        "author_notes",
        "references",
        "appendix",
    ]
    beyond = (*FULL_ONLY, "bridge", "summary", "appendix")
    assert names(brief) == [n for n in names(full) if n not in beyond]
    assert names(student) == [n for n in names(brief) if n != "author_notes"]


def test_module_11_is_its_own_lesson(checked_notes, lesson_tables):
    rope = build_lesson(checked_notes, lesson_tables, RenderOptions(module=11))
    assert names(rope)[: 3 + len(ROPE)] == ["introduction", "notation", "rope", *ROPE]
    assert not set(names(rope)) & {*CORE, *FULL_ONLY}


def test_every_core_section_has_claim_theorem_proof_figure_and_meaning(full):
    for section in full.sections:
        if section.name not in CORE:
            continue
        kinds = {type(b) for b in section.blocks}
        assert {Quote, TheoremStatement, Chain, ProofEnd} <= kinds, section.name
        refs = [p for b in section.blocks if isinstance(b, Para) for p in b.pieces]
        assert any(isinstance(p, Ref) and p.kind == "Figure" for p in refs), section.name
        meaning = [
            b
            for b in section.blocks
            if isinstance(b, Para) and b.pieces and b.pieces[0] == Emph("What this means.")
        ]
        assert meaning, section.name
        if section.name != "ramp":  # the module's ramp section has no table
            assert any(isinstance(b, TableBlock) for b in section.blocks), section.name


def all_pieces(lesson):
    out = []

    def walk(bs):
        for b in bs:
            out.extend(getattr(b, "pieces", ()) or ())
            out.extend(getattr(b, "intro", ()) or ())
            if isinstance(b, Items):
                out.extend(p for item in b.items for p in item)
            if isinstance(b, Solution):
                walk(b.blocks)

    for s in lesson.sections:
        walk(s.blocks)
    return out


def test_theorems_and_figures_are_numbered_in_order_and_every_reference_resolves(full):
    theorems = [b for s in full.sections for b in s.blocks if isinstance(b, TheoremStatement)]
    figures = [
        b
        for s in full.sections
        for b in itertools.chain(s.blocks, *(x.blocks for x in s.blocks if isinstance(x, Solution)))
        if isinstance(b, Figure)
    ]
    assert [t.number for t in theorems] == list(range(1, len(theorems) + 1))
    assert [f.number for f in figures] == list(range(1, len(figures) + 1))
    labels = {b.label for b in (*theorems, *figures)}
    refs = [p for p in all_pieces(full) if isinstance(p, Ref)]
    assert refs and all(r.label in labels for r in refs)
    assert {f.label for f in figures} <= {r.label for r in refs}  # every figure is cited


def test_every_figure_caption_states_d_model_and_the_table_length(full):
    for section in full.sections:
        for block in itertools.chain(
            section.blocks, *(b.blocks for b in section.blocks if isinstance(b, Solution))
        ):
            if isinstance(block, Figure):
                caption = block.caption
                math = [p for p in caption if isinstance(p, sp.Basic)]
                if block.stem.startswith("rope_"):
                    # RoPE's figures are one head: its width d and base b, as the papers set them.
                    named = {s.name for p in math for s in p.free_symbols}
                    assert {"d", "b"} <= named, block.stem
                    if block.stem == "rope_scaling":
                        assert {"L", "s"} <= named, block.stem
                    continue
                assert any(p.has(D_MODEL) for p in math), block.stem
                if block.stem != "circle":  # the circle shows one pair, at any d_model
                    assert any(p.has(sp.Symbol("L", positive=True)) for p in math), block.stem


def test_quiz_answers_sit_apart_and_each_points_to_a_theorem(full):
    quiz = blocks(full, "quiz")
    questions = [b for b in quiz if isinstance(b, Items)]
    (answers,) = [b for b in quiz if isinstance(b, Solution)]
    assert len(questions) == 1 and len(questions[0].items) == 5
    assert not any(isinstance(p, Ref) for item in questions[0].items for p in item)
    (items,) = [b for b in answers.blocks if isinstance(b, Items)]
    for item in items.items:
        assert any(isinstance(p, Ref) and p.kind == "Theorem" for p in item)


def test_the_student_edition_has_no_author_notes_in_any_format(student):
    tex = latex_lesson.lesson_tex(student)
    assert "Notes for the course author" not in tex
    assert "author_notes" not in names(student)


def test_the_student_pdf_keeps_every_answer_in_the_key(student):
    tex = latex_lesson.lesson_tex(student)
    body, key = tex.split(r"\section{Answer key}")
    assert "*Answers." not in body and r"\emph{Answers.}" not in body
    assert r"\emph{Answers:} in the answer key" in body
    assert r"\emph{Answers.}" in key and r"\emph{Model answer.}" in key
    assert key.count(r"\emph{Solution.}") == 3


def test_the_attention_theorem_is_stated_proved_and_cited(full, brief):
    for lesson in (full, brief):
        theorems = [b for s in lesson.sections for b in s.blocks if isinstance(b, TheoremStatement)]
        assert "thm:attention" in {t.label for t in theorems}
        cited_in = {
            s.name
            for s in lesson.sections
            for p in all_pieces(type(lesson)(lesson.title, (s,)))
            if isinstance(p, Ref) and p.label == "thm:attention"
        }
        assert {"challenge", "quiz"} <= cited_in
        # The summary (full notes only) cites it too.
        assert lesson.options.brief or "summary" in cited_in
    chains = [b.derivation.name for b in blocks(full, "ramp") if isinstance(b, Chain)]
    assert {"pair_score", "score_sum", "peak_value", "ramp_difference"} <= set(chains)


def test_the_ramp_and_attention_are_told_right(full):
    notes = blocks(full, "author_notes")
    ramp = next(
        i
        for items in notes
        if isinstance(items, Items)
        for i in items.items
        if i[0] == Emph("The ramp (Discussion of the challenge, quiz answer 5).")
    )
    labels = {p.label for p in ramp if isinstance(p, Ref)}
    assert {"thm:ramp", "thm:attention"} <= labels
    answer = next(b for b in blocks(full, "challenge") if isinstance(b, Solution))
    text = latex_lesson.block_tex(answer, RenderOptions(edition="author"))
    assert "Theorem~\\ref{thm:attention}" in text and "Theorem~\\ref{thm:ramp}" in text
    assert "the property that matters" not in text
    tex = latex_lesson.lesson_tex(full)
    assert r"W_{Q}^{\mathsf{T}} W_{K}" in tex.split(r"\section{The raw index")[1]


def test_the_errata_cite_the_paper(full):
    tex = latex_lesson.lesson_tex(full)
    notes = tex.split(r"\section{Notes for the course author}")[1].split(r"\section{")[0]
    for words in (
        "section 3.5",
        "hypothesized",
        "extrapolate",
        "Table 3",
        "row (E)",
        "section 3.4",
    ):
        assert words in notes, words


def test_the_module_reference_table_and_common_mistakes_are_carried_over(full):
    tex = latex_lesson.lesson_tex(full)
    assert "Relative offset = fixed linear transformation" in tex
    assert "Assuming sinusoidal encoding was chosen arbitrarily" in tex


def test_the_conventions_table_is_right(lesson_tables):
    rows = {row[1]: row for row in lesson_tables["conventions"].rows}
    diffusers = next(r for used, r in rows.items() if used.startswith("diffusers"))
    assert diffusers[3:5] == ("[cos | sin]", "paper")
    fairseq = next(r for used, r in rows.items() if used.startswith("fairseq"))
    assert fairseq[5] == 2  # padding_idx + 1
    assert all(row[2] for row in rows.values())  # every row names its source
    assert lesson_tables["conventions"].passed


def test_definitions_come_before_their_use(full):
    tex = latex_lesson.lesson_tex(full)
    definitions = tex.index(r"\section{Definitions}")
    first_use = tex.index(r"\section{The formula")
    body = tex[definitions:first_use]
    for needed in (
        r"2 i + 1",
        r"\omega_{i} =",
        r"R(\theta) =",
        "M_{k} =",
        r"r(\mathrm{pos}) =",
    ):
        assert needed in body, needed


@pytest.mark.parametrize("version", ["full", "brief", "student"])
def test_the_body_has_no_code_names_log_lines_or_sympy_syntax(full, brief, student, version):
    lesson = {"full": full, "brief": brief, "student": student}[version]
    tex = latex_lesson.lesson_tex(lesson)
    body = tex.split(r"\appendix")[0]
    # The module's code, shown as code, is the one place Python's syntax belongs.
    body = re.sub(r"\\begin\{verbatim\}.*?\\end\{verbatim\}", "", body, flags=re.S)
    for token in FORBIDDEN:
        assert token not in body, token
    assert not re.search(r"\\left\(-1\\right\)|\(-1\) k|1 \\cdot", body)


@pytest.mark.parametrize("version", ["full", "student"])
def test_typography(full, student, version):
    tex = latex_lesson.lesson_tex({"full": full, "student": student}[version])
    # No 1×1 matrix: a matrix has a second column or a second row.
    for matrix in re.findall(r"\\begin\{matrix\}(.*?)\\end\{matrix\}", tex, flags=re.S):
        assert "&" in matrix or r"\\" in matrix, matrix
    assert not re.search(r"\\sum_\{[^}]*\}\^\{\\frac", tex)  # sum limits inline
    assert not re.search(r"\^\{[^{}]*\\frac", tex)  # no stacked fraction in an exponent
    assert "^{T}" not in tex and "^{\\mathsf{T}}" in tex  # one transpose symbol
    assert r"\allowdisplaybreaks" in tex and r"\setcounter{tocdepth}{1}" in tex
    assert re.search(r"max\s*\(", tex.replace(r"\max", "")) is None  # \max upright


def test_no_chain_shows_the_same_line_twice(full):
    for section in full.sections:
        for block in section.blocks:
            if isinstance(block, Chain):
                d = block.derivation
                lines = [latex_math(s.expr, d.display, NAMES) for s in d.steps]
                assert all(a != b for a, b in itertools.pairwise(lines)), section.name


def test_every_step_says_what_justifies_it_in_words(full):
    for section in full.sections:
        for block in section.blocks:
            if isinstance(block, Chain):
                for step in block.derivation.steps[1:]:
                    text = step_text(step)
                    assert text and "lemma" not in text and "_" not in text, (section.name, text)


def test_the_module_digits_appear(full):
    tex = latex_lesson.lesson_tex(full)
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
        "-0.99999",
    ):
        assert f"${digits}$" in tex, digits
    assert "$50$ & $50$" in tex  # 50 unique rows out of 50
    assert "-0.9999902065507035" not in tex  # no 16-digit values
    turns = tex.split("Exercise 3: how far")[1].split(r"\end{tabular}")[0]
    for value in ("7.8", "0.78", "0.078", "0.0078"):
        assert f"${value}$" in turns, value


def test_the_appendix_is_a_methods_section_with_a_table_per_theorem(full, checked_notes):
    appendix = full.sections[-1]
    assert isinstance(appendix.blocks[0], AppendixStart)
    tables = [b for b in appendix.blocks if isinstance(b, TableBlock)]
    assert len(tables) == len([r for r in checked_notes if module_of(r.name) == 10])
    for table in tables:
        assert table.table.columns == ("claim", "how it was checked", "outcome")
        # A part that refutes a false claim reads "refuted (false at …)" (not_odd's does).
        outcomes = {row[2] for row in table.table.rows}
        assert all(
            o in {"proved", "agrees"} or o.startswith("refuted (false at ") for o in outcomes
        )
    tex = latex_lesson.lesson_tex(full).split(r"\appendix")[1]
    assert "**" not in tex and "numeric.checks" not in tex and "{a: 1}" not in tex
    assert r"$10000^{- 2i/d_{\mathrm{model}}}$" in tex


@pytest.mark.parametrize("module", [10, 11])
def test_the_appendix_is_a_table_of_claims_and_refutations_read_refuted(
    checked_notes, lesson_tables, module
):
    options = RenderOptions(module=module, edition="author")
    lesson = build_lesson(checked_notes, lesson_tables, options)
    tables = [b for b in blocks(lesson, "appendix") if isinstance(b, TableBlock)]
    rows = [row for t in tables for row in t.table.rows]
    assert rows and all(
        t.table.columns == ("claim", "how it was checked", "outcome") for t in tables
    )
    assert all(len(t.labels) == len(t.table.rows) for t in tables)
    for claim, how, outcome in rows:
        assert "1 random points" not in how and "1 links" not in how, how
        if how.startswith("a counterexample"):
            assert outcome.startswith("refuted"), claim
        else:
            assert "refuted" not in outcome or outcome == "refuted", claim
    if module == 10:
        appendix = latex_lesson.lesson_tex(lesson).split(r"\section{How each claim")[1]
        assert r"\^{}" not in appendix and "omega_i" not in appendix


def test_the_module_code_and_its_output_are_in_every_format(checked_notes, lesson_tables):
    lesson = build_lesson(checked_notes, lesson_tables, RenderOptions(brief=True))
    listings = [b for s in lesson.sections for b in s.blocks if isinstance(b, Listing)]
    # The module's sinusoidal_pe verbatim: the copy in numeric.module, renamed back.
    verbatim = inspect.getsource(module_sinusoidal_pe).replace(
        "module_sinusoidal_pe", "sinusoidal_pe"
    )
    assert verbatim in listings[0].source
    assert "for pos in [0, 3, 7, 12, 20]:" in listings[2].source
    assert "50 unique rows out of 50" in listings[1].output
    assert listings[2].output.count("True") == 5
    outputs = {
        "latex": latex_lesson.lesson_tex(lesson),
        "markdown": "".join(markdown_lesson.markdown_pages(lesson).values()),
        "html": "".join(html.html_pages(lesson).values()),
        "myst": "".join(myst.myst_pages(lesson).values()),
    }
    for name, text in outputs.items():
        assert "def sinusoidal_pe(max_len, d_model):" in text, name
        assert "[0. 1. 0. 1. 0. 1. 0. 1.]" in text, name
        assert "rot = np.array([[np.cos(theta), np.sin(theta)]," in text, name
        assert "0 [-0.95892427  0.28366219] [-0.95892427  0.28366219] True" in text, name


def test_the_exercises_keep_the_module_wording(brief):
    tex = latex_lesson.lesson_tex(brief)
    for words in (
        "Confirm the same property holds: a single rotation matrix",
        "across several different",
        "(more full cycles across the same position range)",
        "different dimensions encode position at different resolutions",
        "try a larger",
    ):
        assert words in tex, words
