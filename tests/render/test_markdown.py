"""The Markdown notes: a page per section and an index, math as $…$ and $$…$$, figures beside."""

from __future__ import annotations

import re

import pytest

from proofs.render import notes
from proofs.render.figures import plotting_available
from proofs.render.options import RenderOptions


@pytest.fixture(scope="module")
def pages(checked_notes, lesson_tables) -> dict[str, bytes]:
    return notes.markdown_files(checked_notes, lesson_tables, RenderOptions(edition="author"))


@pytest.fixture(scope="module")
def student(checked_notes, lesson_tables) -> dict[str, bytes]:
    return notes.markdown_files(
        checked_notes, lesson_tables, RenderOptions(brief=True, edition="student")
    )


def text(pages, name: str) -> str:
    return pages[name].decode("utf-8")


def page(pages, section: str) -> str:
    """The page of a section by its name, whatever its number."""
    (name,) = [n for n in pages if re.fullmatch(rf"\d\d-{section}\.md", n)]
    return text(pages, name)


def test_an_index_and_one_page_per_section_linked_in_order(pages):
    index = text(pages, "README.md")
    linked = re.findall(r"\]\((\d\d-\w+\.md)\)", index)
    assert linked == sorted(n for n in pages if re.fullmatch(r"\d\d-\w+\.md", n))
    assert linked[0] == "01-introduction.md" and linked[-1].endswith("appendix.md")


def test_headings_and_statements_use_inline_math_not_escaped_text(pages):
    exercises = page(pages, "exercises")
    assert r"## Exercise 1 — the full table at a larger $d_{\mathrm{model}}$" in exercises
    rotation = text(pages, "07-rotation.md")
    assert r"$R(k \omega_{i})$" in rotation
    for name in pages:
        if name.endswith(".md") and "appendix" not in name:
            # Outside math, the module's quoted words and the twins' table cells, no symbol is
            # spelled as code.
            prose = "\n".join(
                line
                for line in re.sub(r"\$[^$]*\$|`[^`]*`", "", text(pages, name)).splitlines()
                if not line.startswith((">", "|"))
            )
            assert "omega_i" not in prose and "d_model" not in prose, name


def test_chains_are_aligned_display_math_with_text_rules(pages):
    rotation = text(pages, "07-rotation.md")
    (chain,) = [b for b in re.findall(r"\$\$\n(.*?)\n\$\$", rotation, flags=re.S) if "aligned" in b]
    assert r"&& \text{angle addition}" in chain and r"\parbox" not in chain


def test_tables_are_gfm_tables_with_the_module_digits(pages):
    rotation = text(pages, "07-rotation.md")
    assert (
        r"| $\mathrm{pos}$ | actual sin | actual cos | predicted sin | predicted cos | match |"
        in rotation
    )
    assert "| 0 | -0.9589 | 0.2837 | -0.9589 | 0.2837 | ✓ |" in rotation
    formula = text(pages, "04-formula.md")
    row = r"| $\operatorname{PE}(10)$ | -0.544 | -0.839 | 0.841 | 0.54 | 0.1 | 0.995 | 0.01 | 1. |"
    assert row in formula
    assert "check passed" not in "".join(text(pages, n) for n in pages if n.endswith(".md"))


def test_the_student_edition_folds_its_answers_and_has_no_author_notes(student):
    names = [n for n in student if n.endswith(".md")]
    assert not any("author_notes" in n for n in names)
    quiz = text(student, next(n for n in names if n.endswith("-quiz.md")))
    questions, folded = quiz.split("<details><summary>Answers</summary>")
    assert "Theorem" not in questions and "Theorem 1" in folded and "</details>" in folded
    exercises = text(student, next(n for n in names if n.endswith("-exercises.md")))
    assert exercises.count("<details><summary>Solution</summary>") == 3


def test_figures_are_svg_beside_the_pages_and_cited(pages):
    if not plotting_available():
        pytest.skip("matplotlib is not installed")
    svgs = [n for n in pages if n.endswith(".svg")]
    assert sorted(svgs) == [
        "circle.svg",
        "heatmap.svg",
        "similarity.svg",
        "spectrum.svg",
    ]
    everything = "".join(text(pages, n) for n in pages if n.endswith(".md"))
    for svg in svgs:
        assert f"]({svg})" in everything
        assert b"<dc:date>" not in pages[svg]
