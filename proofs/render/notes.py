"""Course notes: the files of a notes folder, in each format, from the verified lesson.

The notes commands (proofs.cli) verify the theorems and compute the tables; this module builds
the lesson in the edition asked for (proofs.render.lesson.build_lesson: brief or full, for a
student or an author) and returns file name -> bytes for one format; proofs.cli.files writes
them. Any printer gets its lesson the same way: build_lesson(runs, tables, brief=…,
edition=…), then prints its blocks.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from numeric.result_table import Table
from proofs.engine.theorem import TheoremRun
from proofs.render import html, latex_lesson, markdown_lesson, notebook
from proofs.render.figures import figure_files
from proofs.render.lesson import build_lesson


def latex_files(
    checked: Sequence[TheoremRun],
    tables: Mapping[str, Table],
    *,
    brief: bool = False,
    edition: str = "author",
) -> dict[str, bytes]:
    """The LaTeX notes: main.tex and its figures as PDF (vector graphics)."""
    lesson = build_lesson(checked, tables, brief=brief, edition=edition)
    files = figure_files(lesson.figures, ".pdf")
    files["main.tex"] = latex_lesson.lesson_tex(lesson, figure_suffix=".pdf").encode("utf-8")
    return dict(sorted(files.items()))


def markdown_files(
    checked: Sequence[TheoremRun],
    tables: Mapping[str, Table],
    *,
    brief: bool = False,
    edition: str = "author",
) -> dict[str, bytes]:
    """The Markdown notes: README.md, a page per section, and the figures as SVG beside them."""
    lesson = build_lesson(checked, tables, brief=brief, edition=edition)
    files = figure_files(lesson.figures, ".svg")
    for name, text in markdown_lesson.markdown_pages(lesson, ".svg").items():
        files[name] = text.encode("utf-8")
    return dict(sorted(files.items()))


def katex_files(dist: Path) -> dict[str, bytes]:
    """KaTeX's script, style sheet and woff2 fonts from its dist folder, all beside the pages.

    The notes folder is flat (proofs.cli.files), so the style sheet's fonts/ paths are dropped.
    """
    files = {"katex.min.js": (dist / "katex.min.js").read_bytes()}
    css = (dist / "katex.min.css").read_text(encoding="utf-8")
    files["katex.min.css"] = re.sub(r"url\(fonts/", "url(", css).encode("utf-8")
    for font in sorted((dist / "fonts").glob("*.woff2")):
        files[font.name] = font.read_bytes()
    return files


def html_files(
    checked: Sequence[TheoremRun],
    tables: Mapping[str, Table],
    katex_dist: Path,
    *,
    brief: bool = False,
    edition: str = "author",
) -> dict[str, bytes]:
    """The HTML site: index.html, a page per section, SVG figures and a local copy of KaTeX."""
    lesson = build_lesson(checked, tables, brief=brief, edition=edition)
    files = figure_files(lesson.figures, ".svg")
    for name, text in html.html_pages(lesson, ".svg").items():
        files[name] = text.encode("utf-8")
    files.update(katex_files(katex_dist))
    return dict(sorted(files.items()))


def notebook_files(
    checked: Sequence[TheoremRun],
    tables: Mapping[str, Table],
    *,
    brief: bool = False,
    edition: str = "author",
) -> dict[str, bytes]:
    """The notebook: lesson.ipynb, unexecuted; a lab the student completes (the author's
    edition has the solutions filled in)."""
    lesson = build_lesson(checked, tables, brief=brief, edition=edition)
    return {"lesson.ipynb": notebook.notebook_json(lesson).encode("utf-8")}
