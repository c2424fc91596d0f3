"""Course notes: the files of a notes folder, in each format, from the verified lesson.

proofs.cli.verify verifies the theorems and recomputes the module's tables; this module builds
the lesson (proofs.render.lesson) and returns file name -> bytes for one format; proofs.cli.files
writes them.
"""

from __future__ import annotations

from collections.abc import Sequence

from numeric.table import Table
from proofs.render import latex_lesson
from proofs.render.figures import figure_files
from proofs.render.lesson import build_lesson
from proofs.render.notes_checked import Checked


def latex_files(
    checked: Sequence[Checked], module_tables: Sequence[Table], *, brief: bool = False
) -> dict[str, bytes]:
    """The LaTeX notes: main.tex and its figures as PDF (vector graphics)."""
    lesson = build_lesson(checked, module_tables, brief=brief)
    files = figure_files(lesson.figures, ".pdf")
    tex = latex_lesson.lesson_tex(lesson, brief=brief, figure_suffix=".pdf")
    files["main.tex"] = tex.encode("utf-8")
    return dict(sorted(files.items()))
