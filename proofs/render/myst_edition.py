"""Which lesson a MyST project prints: the edition (student or author), and its practice.

The lesson (proofs.render.lesson.build_lesson) builds each edition: the student's has no notes
for the course author. This module is the one place that knows where today's lesson puts an
exercise's solution: the exercises, the challenge and the quiz become Practice blocks, the task
then its solution, which the printer (proofs.render.myst) folds away in the student edition and
shows open in the author's. When the lesson carries exercises and answers as blocks of its own,
this module is what changes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from numeric.result_table import Table
from proofs.engine.theorem import TheoremRun
from proofs.render.lesson import build_lesson
from proofs.render.lesson_blocks import Block, Emph, Heading, Items, Lesson, Para, Piece, Section

Edition = Literal["student", "author"]
EDITIONS: tuple[Edition, ...] = ("student", "author")
# Sections only the author edition has: left out here too while the lesson's student edition
# still carries them.
AUTHOR_ONLY = frozenset({"author_notes"})

# The lead-in that starts a worked solution or a model answer, in today's lesson.
SOLUTION_LEADS = ("Solution.", "Model answer.")
_EXERCISE_TITLE = re.compile(r"^Exercise \d+\s*[—-]\s*")


@dataclass(frozen=True)
class Practice:
    """An exercise and its solution. title: what the task is about; label: its cross-reference
    name; numbered: an exercise counted as Exercise 1, 2, …, else a task set as it stands (the
    challenge, a question of the quiz) with its answer under the heading answer."""

    title: tuple[Piece, ...]
    label: str
    task: tuple[Block, ...]
    solution: tuple[Block, ...]
    numbered: bool = True
    answer: str = "Solution"


def edition_lesson(
    checked: Sequence[TheoremRun],
    tables: Mapping[str, Table],
    *,
    brief: bool,
    edition: Edition,
) -> Lesson:
    """The lesson of one edition (without the sections of AUTHOR_ONLY for students), its
    practice as Practice blocks."""
    if edition not in EDITIONS:
        raise ValueError(f"edition must be one of {', '.join(EDITIONS)}, got {edition!r}")
    lesson = build_lesson(checked, tables, brief=brief, edition=edition)
    sections = tuple(
        _with_practice(section)
        for section in lesson.sections
        if edition == "author" or section.name not in AUTHOR_ONLY
    )
    return Lesson(lesson.title, sections, lesson.figures)


def _with_practice(section: Section) -> Section:
    if section.name == "exercises":
        return Section(section.name, section.title, _exercises(section.blocks))
    if section.name == "challenge":
        return Section(section.name, section.title, _challenge(section.blocks))
    if section.name == "quiz":
        return Section(section.name, section.title, _quiz(section.blocks))
    return section


def _solution_start(block: Block) -> bool:
    return (
        isinstance(block, Para)
        and bool(block.pieces)
        and isinstance(block.pieces[0], Emph)
        and block.pieces[0].text in SOLUTION_LEADS
    )


def _without_lead(block: Para) -> Para:
    """The solution's first paragraph without its "Solution." lead-in (the directive says it)."""
    rest = list(block.pieces[1:])
    if rest and isinstance(rest[0], str):
        rest[0] = rest[0].lstrip()
    return Para(tuple(rest))


def _split(blocks: Sequence[Block]) -> tuple[tuple[Block, ...], tuple[Block, ...]]:
    """(task, solution): the solution starts at its lead-in paragraph."""
    start = next((j for j, b in enumerate(blocks) if _solution_start(b)), len(blocks))
    solution = list(blocks[start:])
    if solution:
        solution[0] = _without_lead(solution[0])
    return tuple(blocks[:start]), tuple(solution)


def _exercises(blocks: Sequence[Block]) -> tuple[Block, ...]:
    """Each "Exercise N — title" heading and what follows it, as one Practice."""
    out: list[Block] = []
    starts = [j for j, b in enumerate(blocks) if isinstance(b, Heading)]
    out += blocks[: starts[0] if starts else len(blocks)]
    for n, start in enumerate(starts):
        stop = starts[n + 1] if n + 1 < len(starts) else len(blocks)
        heading = blocks[start]
        title = list(heading.text)
        if title and isinstance(title[0], str):
            title[0] = _EXERCISE_TITLE.sub("", title[0])
        task, solution = _split(blocks[start + 1 : stop])
        out.append(Practice(tuple(title), f"exercise-{n + 1}", task, solution))
    return tuple(out)


def _challenge(blocks: Sequence[Block]) -> tuple[Block, ...]:
    task, solution = _split(blocks)
    return (
        Practice(
            ("The independent challenge",), "challenge", task, solution, False, "Model answer"
        ),
    )


def _quiz(blocks: Sequence[Block]) -> tuple[Block, ...]:
    """Each question of the quiz (an emphasised question, then its answer) as one Practice."""
    out: list[Block] = []
    for block in blocks:
        if not isinstance(block, Items):
            out.append(block)
            continue
        for n, item in enumerate(block.items, 1):
            question, *answer = item
            text = question.text if isinstance(question, Emph) else question
            if answer and isinstance(answer[0], str):
                answer[0] = answer[0].lstrip()
            out.append(
                Practice(
                    (f"Question {n}",),
                    f"quiz-{n}",
                    (Para((Emph(f"{n}."), " ", text)),),
                    (Para(tuple(answer)),),
                    numbered=False,
                    answer="Answer",
                )
            )
    return tuple(out)
