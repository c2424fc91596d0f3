"""Where an edition puts answers: in place (author), or in an answer key at the end (the
student's PDF). Markdown and HTML fold a student's answers in <details> instead, each printer
its own way; this module holds what they share.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from proofs.render.lesson_blocks import (
    AppendixStart,
    Block,
    Chain,
    Emph,
    Heading,
    Lesson,
    Para,
    Ref,
    Section,
    Solution,
)

ANSWER_KEY = Section("answer_key", "Answer key", ())


def solution_blocks(solution: Solution) -> list[Block]:
    """The solution's blocks led by its title in italics: "*Solution.* By Theorem 3, …"."""
    lead = (Emph(f"{solution.title}."), " ")
    blocks = list(solution.blocks)
    if blocks and isinstance(blocks[0], Para):
        return [Para(lead + blocks[0].pieces), *blocks[1:]]
    if blocks and isinstance(blocks[0], Chain) and blocks[0].intro:
        return [replace(blocks[0], intro=lead + blocks[0].intro), *blocks[1:]]
    return [Para(lead[:1]), *blocks]


def with_answer_key(lesson: Lesson) -> Lesson:
    """The lesson with every Solution moved to a section "Answer key" (the last before the
    appendix) and a pointer to it left in place; a lesson without solutions comes back as it was."""
    at = next(
        (
            j
            for j, s in enumerate(lesson.sections)
            if s.blocks and isinstance(s.blocks[0], AppendixStart)
        ),
        len(lesson.sections),
    )
    number = at + 1
    pointer = Ref("Section", f"sec:{ANSWER_KEY.name}", number)
    key: list[Block] = []

    def moved(blocks: Sequence[Block]) -> list[Block]:
        out: list[Block] = []
        for block in blocks:
            if isinstance(block, Solution):
                key.append(Heading(3, block.topic))
                key.extend(solution_blocks(block))
                out.append(Para((Emph(f"{block.title}:"), " in the answer key, ", pointer, ".")))
            else:
                out.append(block)
        return out

    sections = tuple(replace(s, blocks=tuple(moved(s.blocks))) for s in lesson.sections)
    if not key:
        return lesson
    answers = replace(ANSWER_KEY, blocks=tuple(key))
    return replace(lesson, sections=(*sections[:at], answers, *sections[at:]))
