"""Module 11's author edition has "What the papers say, checked", generated from the papers
ledger: the prose file is what the ledger gives now, every entry of module 11's papers has its
row with its verdict, and the student edition has none of it."""

from __future__ import annotations

import re

import pytest

from proofs.cli import lesson_papers as papers_section
from proofs.render import latex_lesson
from proofs.render.lesson import build_lesson
from proofs.render.lesson_source import lesson_folder, section_names
from proofs.render.options import RenderOptions
from proofs.theorems.papers import claim_modules, ledger
from proofs.theorems.papers.common.entry import Entry

TITLE = "What the papers say, checked"


def test_the_section_is_the_authors_and_in_the_lessons_contents():
    text = papers_section.papers_path(11).read_text(encoding="utf-8")
    assert text.startswith(f"---\ntitle: {TITLE}\nonly: author\n---\n")
    assert "papers" in section_names(lesson_folder(11))


def test_module_11_names_claim_modules_of_the_ledger():
    assert set(papers_section.MODULE_PAPERS[11]) <= set(claim_modules())
    with pytest.raises(ValueError, match="module must be 11"):
        papers_section.papers_markdown(10)


def test_a_table_row_shows_the_claim_verdict_and_witness():
    entry = Entry("x.y", "A paper", "§2, Eq. 3", "b = 4 | c", None, "fails", {"m": 950})
    block = papers_section.paper_block([entry])
    assert block.startswith("*A paper*, section 2, Eq. 3: 1 fails.")
    assert "- {code}`b = 4  c`, read as {code}`stated`: *fails*. Witness: {code}`m = 950`." in block


@pytest.mark.slow
def test_the_file_is_what_the_ledger_gives_now():
    # Runs module 11's claims of the ledger: about a minute.
    text = papers_section.papers_path(11).read_text(encoding="utf-8")
    assert text == papers_section.papers_markdown(11), (
        "regenerate: python -m proofs.cli.lesson_papers 11"
    )
    rows = [line for line in text.splitlines() if line.startswith("- {code}")]
    entries = [e for name in papers_section.MODULE_PAPERS[11] for e in ledger(name)]
    assert len(rows) == len(entries)
    for row, entry in zip(rows, entries, strict=True):
        assert f": *{entry.verdict}*. Witness: " in row


def test_only_the_author_edition_prints_it(checked_notes, lesson_tables):
    for edition in ("author", "student"):
        lesson = build_lesson(
            checked_notes, lesson_tables, RenderOptions(edition=edition, module=11)
        )
        tex = latex_lesson.lesson_tex(lesson)
        assert (TITLE in tex) == (edition == "author"), edition
        if edition == "author":
            section = tex.split(TITLE)[1].split(r"\section{")[0]
            assert len(re.findall(r"holds|fails", section)) >= 90
