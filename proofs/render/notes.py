"""Course notes: the files of a notes folder, in each format, from the verified lesson.

The notes commands (proofs.cli) verify the theorems, compute the tables and make the options
(proofs.render.options.RenderOptions: brief or full, for a student or an author, the figures'
format, KaTeX's folder); this module builds the lesson for those options
(proofs.render.lesson.build_lesson) and returns file name -> bytes for one format;
proofs.cli.files writes them. Any printer gets its lesson the same way: build_lesson(runs,
tables, options), then prints its blocks.
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
from proofs.render.markdown_lesson import FIGURE_FORMATS
from proofs.render.options import RenderOptions


def latex_files(
    checked: Sequence[TheoremRun], tables: Mapping[str, Table], options: RenderOptions
) -> dict[str, bytes]:
    """The LaTeX notes: main.tex and its figures (PDF, vector graphics, as the notes command
    asks; or PNG)."""
    lesson = build_lesson(checked, tables, options)
    tex = latex_lesson.lesson_tex(lesson)
    files = figure_files(
        lesson.figures, options.figure_suffix("LaTeX", latex_lesson.FIGURE_FORMATS)
    )
    files["main.tex"] = tex.encode("utf-8")
    return dict(sorted(files.items()))


def markdown_files(
    checked: Sequence[TheoremRun], tables: Mapping[str, Table], options: RenderOptions
) -> dict[str, bytes]:
    """The Markdown notes: README.md, a page per section, and the figures (SVG) beside them."""
    lesson = build_lesson(checked, tables, options)
    pages = markdown_lesson.markdown_pages(lesson)
    files = figure_files(lesson.figures, options.figure_suffix("Markdown", FIGURE_FORMATS))
    for name, text in pages.items():
        files[name] = text.encode("utf-8")
    return dict(sorted(files.items()))


def katex_files(dist: Path) -> dict[str, bytes]:
    """KaTeX's script, style sheet and woff2 fonts from its dist folder, in one folder (beside the
    HTML pages; a MyST project's _static).

    The files sit in one folder, so the style sheet's fonts/ paths are dropped.
    """
    files = {"katex.min.js": (dist / "katex.min.js").read_bytes()}
    css = (dist / "katex.min.css").read_text(encoding="utf-8")
    files["katex.min.css"] = re.sub(r"url\(fonts/", "url(", css).encode("utf-8")
    for font in sorted((dist / "fonts").glob("*.woff2")):
        files[font.name] = font.read_bytes()
    return files


def html_files(
    checked: Sequence[TheoremRun], tables: Mapping[str, Table], options: RenderOptions
) -> dict[str, bytes]:
    """The HTML site: index.html, a page per section, SVG figures and a local copy of KaTeX
    (from options.katex)."""
    dist = options.require_katex("HTML")
    lesson = build_lesson(checked, tables, options)
    pages = html.html_pages(lesson)
    files = figure_files(lesson.figures, options.figure_suffix("HTML", FIGURE_FORMATS))
    for name, text in pages.items():
        files[name] = text.encode("utf-8")
    files.update(katex_files(dist))
    return dict(sorted(files.items()))


def notebook_files(
    checked: Sequence[TheoremRun], tables: Mapping[str, Table], options: RenderOptions
) -> dict[str, bytes]:
    """The notebook: lesson.ipynb, unexecuted; a lab the student completes (the author's
    edition has the solutions filled in)."""
    lesson = build_lesson(checked, tables, options)
    return {"lesson.ipynb": notebook.notebook_json(lesson).encode("utf-8")}
