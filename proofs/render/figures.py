"""Figures for the notes: the lesson's figure functions called, their files made reproducible.

A figure is a function f(path, **kwargs) in numeric/plots/ that saves to path in the format of
its suffix (.pdf for LaTeX, .svg for Markdown and HTML). numeric.plots.style drops the dates
and versions matplotlib would write, so two runs give the same bytes. Without matplotlib the
notes still build and say the figures were skipped.
"""

from __future__ import annotations

import importlib
import importlib.util
import tempfile
from pathlib import Path


def plotting_available() -> bool:
    """Whether matplotlib can be imported (checked without importing it)."""
    return importlib.util.find_spec("matplotlib") is not None


def render_figure(dotted: str, kwargs: dict[str, object], suffix: str) -> bytes:
    """The bytes of the figure drawn by the function dotted ("package.module.function").

    suffix: ".pdf", ".svg" or ".png". Call only when plotting_available().
    """
    module, _, attr = dotted.rpartition(".")
    draw = getattr(importlib.import_module(module), attr)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"figure{suffix}"
        draw(path, **kwargs)
        return path.read_bytes()


def figure_files(
    figures: dict[str, tuple[str, dict[str, object]]], suffix: str
) -> dict[str, bytes]:
    """STEM+suffix -> bytes for every figure, or {} when matplotlib is missing."""
    if not plotting_available():
        return {}
    return {stem + suffix: render_figure(d, kw, suffix) for stem, (d, kw) in figures.items()}
