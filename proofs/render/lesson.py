"""The course notes as a lesson: the module's order, its words and tables, and the proofs.

build_lesson takes the verified theorems (proofs.cli.verify) and the module's tables
(numeric.module_tables), and writes the lesson once as blocks (proofs.render.lesson_blocks);
every format prints the same blocks. Chains are taken from the verified theorems, never
rebuilt here, so what the notes show is what was checked. The sections live in lesson_opening,
lesson_module, lesson_ramp, lesson_beyond, lesson_practice and lesson_closing.
"""

from __future__ import annotations

from collections.abc import Sequence

from numeric.module_table_names import TABLE_NAMES
from numeric.result_table import Table
from proofs.engine.theorem import TheoremRun
from proofs.render.lesson_beyond import (
    dot_product_section,
    group_section,
    layouts_section,
    rope_section,
)
from proofs.render.lesson_blocks import Lesson
from proofs.render.lesson_closing import (
    appendix_section,
    author_notes_section,
    conclusion_section,
    references_section,
)
from proofs.render.lesson_module import (
    bounded_section,
    formula_section,
    unique_section,
)
from proofs.render.lesson_opening import definitions, introduction
from proofs.render.lesson_parts import FIGURES, TITLE, Parts
from proofs.render.lesson_practice import challenge_section, exercises_section, quiz_section
from proofs.render.lesson_ramp import ramp_section
from proofs.render.lesson_rotation import rotation_section

# ── The whole lesson ─────────────────────────────────────────────────────────────────────────


def build_lesson(
    checked: Sequence[TheoremRun], module_tables: Sequence[Table], *, brief: bool
) -> Lesson:
    """The lesson from the verified theorems and the module's tables (numeric.module_report)."""
    tables = dict(zip(TABLE_NAMES, module_tables, strict=True))
    parts = Parts(checked, brief)
    sections = [
        introduction(brief),
        definitions(),
        formula_section(parts, tables),
        bounded_section(parts, tables),
        unique_section(parts, tables),
        rotation_section(parts, tables),
        ramp_section(parts, brief),
    ]
    if not brief:
        sections += [
            dot_product_section(parts),
            group_section(parts),
            layouts_section(parts),
            rope_section(parts),
        ]
    sections += [
        exercises_section(tables),
        challenge_section(),
        quiz_section(),
        conclusion_section(brief),
        author_notes_section(brief),
        references_section(),
    ]
    if not brief:
        sections.append(appendix_section(checked))
    return Lesson(TITLE, tuple(sections), dict(FIGURES))
