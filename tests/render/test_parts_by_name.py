"""The notes find the theorems' parts by name: editing every part's title changes nothing else.

Before, the lesson looked a chain up by the first words of its title; a reworded title broke
the notes at run time. Now a title is words for the reader and nothing else.
"""

from __future__ import annotations

import dataclasses

import pytest

from proofs.engine.theorem import PartResult
from proofs.render import latex_lesson
from proofs.render.lesson import build_lesson
from proofs.render.options import RenderOptions


def _retitled(run):
    parts = tuple(
        PartResult(dataclasses.replace(p.part, title=f"Reworded: {p.part.title[::-1]}"), p.verdict)
        for p in run.parts
    )
    return dataclasses.replace(run, parts=parts)


@pytest.mark.slow
def test_every_title_can_change_and_the_notes_still_build(checked_notes, lesson_tables) -> None:
    retitled = [_retitled(run) for run in checked_notes]
    for brief in (True, False):
        for edition in ("student", "author"):
            lesson = build_lesson(
                retitled, lesson_tables, RenderOptions(brief=brief, edition=edition)
            )
            assert "\\section" in latex_lesson.lesson_tex(lesson)
