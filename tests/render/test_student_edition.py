"""The student edition, in every format of both lessons, holds no sentence addressed to the
course author, nothing of the project's history and no appendix of checks (issue 29)."""

from __future__ import annotations

import pytest

from proofs.render import html, latex_lesson, markdown_lesson, myst, notebook
from proofs.render.lesson import build_lesson
from proofs.render.options import RenderOptions

# Words for the author or about how the notes were made, never for a student: matched without
# regard to case.
AUTHOR_PHRASES = (
    "issue 24",
    "pe-proofs issue",
    "pe-proofs papers",
    "the engine",
    "was not checked for these notes",
    "could not be consulted",
    "the papers' own text",
    "a course author should",
    "course author",
    "for the author",
    "suggested wording",
    "llama.cpp's code was not read",
    "was not read",
    "verification log",
    "how each claim was checked",
    "1 random points",
    "1 links",
    "the student edition",
)

PRINTERS = {
    "latex": lambda lesson: {"main.tex": latex_lesson.lesson_tex(lesson)},
    "markdown": markdown_lesson.markdown_pages,
    "html": html.html_pages,
    "myst": myst.myst_pages,
    "notebook": lambda lesson: {"lesson.ipynb": notebook.notebook_json(lesson)},
}


@pytest.fixture(scope="module", params=[10, 11], ids=["module10", "module11"])
def lessons(request, checked_notes, lesson_tables):
    """The module's student editions, brief and full."""
    return [
        build_lesson(checked_notes, lesson_tables, RenderOptions(module=request.param, brief=b))
        for b in (True, False)
    ]


@pytest.mark.parametrize("printer", list(PRINTERS))
def test_no_student_output_speaks_to_the_author(lessons, printer):
    found = []
    for lesson in lessons:
        assert lesson.options.edition == "student"
        for name, text in PRINTERS[printer](lesson).items():
            lowered = text.lower()
            found += [
                f"{lesson.subtitle}, {name}: {phrase!r}"
                for phrase in AUTHOR_PHRASES
                if phrase in lowered
            ]
    assert not found, "author-directed text in the student edition:\n" + "\n".join(found)


def test_the_student_edition_has_no_appendix_of_checks(lessons):
    for lesson in lessons:
        names = [s.name for s in lesson.sections]
        assert "appendix" not in names and "author_notes" not in names, lesson.subtitle


def test_the_author_edition_keeps_its_notes_and_the_appendix(checked_notes, lesson_tables):
    options = RenderOptions(module=10, edition="author")
    names = [s.name for s in build_lesson(checked_notes, lesson_tables, options).sections]
    assert {"author_notes", "appendix"} <= set(names)
