"""The lesson as data: headings, paragraphs with inline math, chains, tables and figures.

proofs.render.lesson writes the course notes once in these blocks; each format (LaTeX,
Markdown, HTML, notebook) prints them its own way.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from numeric.result_table import Table
from proofs.engine.derivation import Derivation


@dataclass(frozen=True)
class Ref:
    """A reference to a numbered thing: kind ("Figure", "Theorem", "Section"), label, number."""

    kind: str
    label: str
    number: int

    @property
    def text(self) -> str:
        return f"{self.kind} {self.number}"


@dataclass(frozen=True)
class Emph:
    """A phrase set in italics (a quotation from the module, say)."""

    text: str


@dataclass(frozen=True)
class Link:
    """A web address, shown as itself."""

    url: str


Piece = str | sp.Basic | Ref | Emph | Link


@dataclass(frozen=True)
class Heading:
    """A section (1), subsection (2) or unnumbered subsection (3) heading; label for links."""

    level: int
    text: tuple[Piece, ...]
    label: str = ""


@dataclass(frozen=True)
class Para:
    """A paragraph of prose and inline math."""

    pieces: tuple[Piece, ...]


@dataclass(frozen=True)
class Quote:
    """The module's words, quoted (prose and inline math)."""

    pieces: tuple[Piece, ...]


@dataclass(frozen=True)
class Equations:
    """Display math: one equation or formula per line. display: printing substitutions."""

    lines: tuple[sp.Basic, ...]
    display: tuple[tuple[sp.Basic, sp.Basic], ...] = ()


@dataclass(frozen=True)
class Chain:
    """A verified derivation, shown as a chain of equalities with its short rules."""

    derivation: Derivation
    intro: tuple[Piece, ...] = ()


@dataclass(frozen=True)
class TheoremStatement:
    """A numbered theorem: its number, label, title, statement and key formulas."""

    number: int
    label: str
    title: str
    pieces: tuple[Piece, ...]
    formulas: tuple[sp.Basic, ...] = ()
    display: tuple[tuple[sp.Basic, sp.Basic], ...] = ()


@dataclass(frozen=True)
class ProofEnd:
    """The end of a proof (□)."""


@dataclass(frozen=True)
class TableBlock:
    """A table computed live, with a caption in words."""

    table: Table
    caption: str | tuple[Piece, ...]
    note: str | None = None  # replaces the table's own note when given
    source: str = ""  # the Python expression that recomputes it (for the notebook)


@dataclass(frozen=True)
class Figure:
    """A numbered figure: the file stem (the format adds .pdf/.svg), its caption and label."""

    stem: str
    number: int
    label: str
    caption: tuple[Piece, ...]
    width: float = 0.62


@dataclass(frozen=True)
class Items:
    """A list of items, numbered or not."""

    items: tuple[tuple[Piece, ...], ...]
    numbered: bool = False


@dataclass(frozen=True)
class AppendixStart:
    """Sections after this are appendices."""


@dataclass(frozen=True)
class Code:
    """A notebook code cell; other formats skip it."""

    source: str


Block = (
    Heading
    | Para
    | Quote
    | Equations
    | Chain
    | TheoremStatement
    | ProofEnd
    | TableBlock
    | Figure
    | Items
    | AppendixStart
    | Code
)


@dataclass(frozen=True)
class Section:
    """A section of the lesson: a name (its file stem in Markdown/HTML), title and blocks."""

    name: str
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Lesson:
    """The whole lesson: title, sections, and the figures (stem -> drawing function kwargs)."""

    title: str
    sections: tuple[Section, ...]
    figures: dict[str, tuple[str, dict[str, object]]] = field(default_factory=dict)
