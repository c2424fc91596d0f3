"""The lesson's prose files: every edition builds from them, and a role or directive that names
a theorem, part, table, figure or formula that does not exist stops the build with its file and
line."""

from __future__ import annotations

from pathlib import Path

import pytest
import sympy as sp

from proofs.render.lesson import build_lesson
from proofs.render.lesson_math import LessonMathError, read_math
from proofs.render.lesson_source import (
    LESSON_DIR,
    LessonSourceError,
    inline_parts,
    read_sections,
    section_names,
)
from proofs.render.options import RenderOptions


@pytest.mark.parametrize("brief", [False, True], ids=["full", "brief"])
@pytest.mark.parametrize("edition", ["student", "author"])
def test_every_edition_builds_from_the_prose(checked_notes, lesson_tables, brief, edition):
    lesson = build_lesson(checked_notes, lesson_tables, RenderOptions(brief=brief, edition=edition))
    assert lesson.sections and all(s.blocks for s in lesson.sections)


def test_every_section_listed_has_its_file_and_every_file_is_listed():
    listed = section_names()
    assert sorted(listed) == sorted(p.stem for p in LESSON_DIR.glob("*.md"))
    assert [s.name for s in read_sections()] == listed


def write_lesson(folder: Path, body: str) -> Path:
    """A one-section lesson in folder: contents.txt and bad.md (front matter, then body)."""
    (folder / "contents.txt").write_text("bad\n")
    (folder / "bad.md").write_text(f"---\ntitle: A section\n---\n\n{body}\n")
    return folder


BAD = [
    ("A typo: {thm}`rotatoin`.", 5, "unknown theorem 'rotatoin'"),
    ("Line one.\nLine two {fig}`cirle`.", 6, "unknown figure 'cirle'"),
    ("```{chain} rotation.no_such_part\n```", 5, "no part 'no_such_part'"),
    ("```{chain} no_theorem.pair_shift\n```", 5, "unknown theorem 'no_theorem'"),
    ("```{chain} bounded.sin_at_most_1\n```", 5, "is not a Derivation"),
    ("```{table} no_table\nCaption.\n```", 5, "unknown table 'no_table'"),
    ("```{twin} nothing\nCaption.\n```", 5, "unknown theorem 'nothing'"),
    ("```{figure} nothing\nCaption.\n```", 5, "unknown figure 'nothing'"),
    ("See {math}`pos +`.", 5, "syntax error"),
    ("See {math}`__import__('os')`.", 5, "calls are allowed only to"),
    ("$$\nPE(pos) =\n$$", 6, "syntax error"),
    ("See {nothing}`x`.", 5, "unknown role {nothing}"),
    ("```{nothing}\n```", 5, "unknown directive {nothing}"),
    ("```{only} sometimes\nText.\n```", 5, "only takes brief, full, student, author"),
    ("```{theorem} rotation\nA statement again.\n```", 5, "holds only display formulas"),
    ("```{theorem} rotation\n:title: A title again\n```", 5, "holds only display formulas"),
    ("```{chain} rotation.pair_shift\n", 5, "not closed by ```"),
]


@pytest.mark.parametrize(("body", "line", "message"), BAD, ids=[b[2] for b in BAD])
def test_a_role_that_names_nothing_stops_the_build_at_its_file_and_line(
    checked_notes, lesson_tables, tmp_path, body, line, message
):
    folder = write_lesson(tmp_path, body)
    with pytest.raises(LessonSourceError) as error:
        build_lesson(checked_notes, lesson_tables, RenderOptions(brief=False), folder=folder)
    assert str(error.value).startswith(f"bad.md:{line}: "), error.value
    assert message in str(error.value)


def test_a_theorem_cited_where_the_edition_does_not_state_it_is_an_error(
    checked_notes, lesson_tables, tmp_path
):
    folder = write_lesson(tmp_path, "As {thm}`group` shows.")
    with pytest.raises(LessonSourceError, match=r"bad.md:5: theorem 'group' is not stated"):
        build_lesson(checked_notes, lesson_tables, RenderOptions(brief=True), folder=folder)


def test_words_marked_for_one_edition_appear_only_there(checked_notes, lesson_tables, tmp_path):
    folder = write_lesson(
        tmp_path,
        "Always.{full}` Full only.`{brief}` Brief only.`\n\n```{only} author\nAuthor only.\n```",
    )

    def text(brief: bool, edition: str) -> str:
        lesson = build_lesson(
            checked_notes, lesson_tables, RenderOptions(brief=brief, edition=edition), folder=folder
        )
        return " | ".join("".join(map(str, b.pieces)) for b in lesson.sections[0].blocks)

    assert text(False, "author") == "Always. Full only. | Author only."
    assert text(True, "student") == "Always. Brief only."


def test_inline_roles_keep_their_lines_and_double_backticks_hold_roles():
    parts = inline_parts("One {math}`pos`\ntwo {full}`` {thm}`group` `` *three*")
    assert [line for _, line in parts] == [0, 0, 0, 1, 1, 1]
    assert parts[3][0].content == "{thm}`group`"


def test_the_math_notation_reads_structures_the_parser_does_not_have():
    pos, k = sp.Symbol("pos", real=True), sp.Symbol("k", real=True)
    assert read_math("[-1, 1]") == sp.Interval(-1, 1)
    assert read_math("pos = hold(10**6)").rhs == sp.Pow(10, 6, evaluate=False)
    assert str(read_math("hold(M_k*PE(pos))")) == "M_k*PE(pos)"
    assert read_math("cos(pos + k) != 1") == sp.Ne(sp.cos(pos + k), 1, evaluate=False)
    matrix = read_math("[[cos(k), sin(k)], [-sin(k), cos(k)]]")
    assert matrix.shape == (2, 2) and matrix[1, 0] == -sp.sin(k)


@pytest.mark.parametrize(
    "text",
    ["__import__('os').system('true')", "(lambda: 1)()", "pos.real", "open('x')", "pos[0]"],
)
def test_the_math_notation_never_runs_text(text):
    with pytest.raises(LessonMathError):
        read_math(text)
