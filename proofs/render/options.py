"""What a notes command asks of the lesson and its printers, checked once: RenderOptions.

The notes commands (proofs.cli) build one from their options and pass it down; the lesson is
built for it (proofs.render.lesson.build_lesson) and carries it, so every printer reads the
edition, the figures' format and KaTeX's folder from the same place.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from proofs.registry import COURSE_MODULES

Edition = Literal["student", "author"]
FigureFormat = Literal["pdf", "svg", "png"]

MODULES = tuple(COURSE_MODULES)
EDITIONS = ("student", "author")
FIGURE_FORMATS = ("pdf", "svg", "png")


@dataclass(frozen=True, slots=True)
class RenderOptions:
    """The notes asked for: which course module (10, the sinusoidal encoding; 11, rotary
    embeddings), the edition (a student's, the default: answers apart, no author notes, no
    appendix on how each claim was checked; or the author's), brief (the module's own sections
    only) or full, the figures' file format (None: each printer's own, PDF for LaTeX and SVG for
    the others, so one lesson prints in every format), and the folder of KaTeX's dist (the HTML
    and MyST notes ship a copy of it).

    Every field is checked when the options are made; a wrong one is named:

    >>> RenderOptions(edition="teacher")
    Traceback (most recent call last):
    ...
    ValueError: edition must be 'student' or 'author', got 'teacher'
    >>> RenderOptions(brief=True, edition="student").student
    True
    """

    # Which lesson: each course module's prose lives in proofs/lesson/module<N>/.
    module: int = 10
    edition: Edition = "student"
    brief: bool = False
    figure_format: FigureFormat | None = None
    katex: Path | None = None

    def __post_init__(self) -> None:
        if type(self.module) is not int:
            raise TypeError(f"module must be an int, 10 or 11, got {self.module!r}")
        if self.module not in MODULES:
            raise ValueError(f"module must be 10 or 11, got {self.module}")
        if self.edition not in EDITIONS:
            raise ValueError(f"edition must be 'student' or 'author', got {self.edition!r}")
        if type(self.brief) is not bool:
            raise TypeError(f"brief must be True or False, got {self.brief!r}")
        if self.figure_format is not None and self.figure_format not in FIGURE_FORMATS:
            raise ValueError(
                f"figure_format must be 'pdf', 'svg', 'png' or None, got {self.figure_format!r}"
            )
        if self.katex is not None and not isinstance(self.katex, Path):
            raise TypeError(f"katex must be a pathlib.Path or None, got {self.katex!r}")

    @property
    def student(self) -> bool:
        """Whether answers and solutions are kept apart from the questions."""
        return self.edition == "student"

    def figure_suffix(self, printer: str, allowed: tuple[FigureFormat, ...]) -> str:
        """The figures' file suffix for printer (its name, for the message), which can show the
        formats allowed, its own first: the format asked for, or its own when none was; a
        format it cannot show is a ValueError.

        >>> RenderOptions().figure_suffix("LaTeX", ("pdf", "png"))
        '.pdf'
        >>> RenderOptions(figure_format="svg").figure_suffix("LaTeX", ("pdf", "png"))
        Traceback (most recent call last):
        ...
        ValueError: figure_format must be 'pdf' or 'png' for the LaTeX notes, got 'svg'
        """
        if self.figure_format is None:
            return "." + allowed[0]
        if self.figure_format not in allowed:
            choices = " or ".join(repr(f) for f in allowed)
            raise ValueError(
                f"figure_format must be {choices} for the {printer} notes, "
                f"got {self.figure_format!r}"
            )
        return "." + self.figure_format

    def require_katex(self, printer: str) -> Path:
        """KaTeX's dist folder, or ValueError when it was not given (printer: for the message)."""
        if self.katex is None:
            raise ValueError(f"katex must be KaTeX's dist folder for the {printer} notes, got None")
        return self.katex
