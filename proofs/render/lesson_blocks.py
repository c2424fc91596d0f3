"""The lesson as data: headings, paragraphs with inline math, chains, tables and figures.

proofs.render.lesson writes the course notes once in these blocks; each format (LaTeX,
Markdown, HTML, notebook) prints them its own way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, get_args

import sympy as sp

from numeric.result_table import Table
from proofs.engine.derivation import Derivation
from proofs.render.options import RenderOptions

if TYPE_CHECKING:
    from proofs.render.lesson_parts import ShownChain


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
class Mono:
    """Code in running text, set in a fixed-width font: sinusoidal_pe(max_len, d_model)."""

    text: str


@dataclass(frozen=True)
class Link:
    """A web address, shown as itself."""

    url: str


class Tex(sp.Symbol):
    """Inline math given as LaTeX (a theorem's Unicode statement set as math, run by run): a
    SymPy atom, so every printer sets it as it sets any inline math.

    >>> print(sp.latex(Tex(r"d_{\\mathrm{model}}")))
    d_{\\mathrm{model}}
    """

    def _latex(self, printer: object) -> str:
        return self.name


Piece = str | sp.Basic | Ref | Emph | Mono | Link
# Every piece type: each printer registers a handler for each (proofs.render.block_printer).
PIECE_TYPES: tuple[type, ...] = get_args(Piece)


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
    """A verified derivation, shown as a chain of equalities with its short rules.

    lead: a name for the chain's first expression, shown before it ("‖v‖² = vᵀv = …"): the
    definition the first step writes out, not a checked step.
    """

    derivation: Derivation | ShownChain
    intro: tuple[Piece, ...] = ()
    lead: sp.Basic | None = None


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
    """A table computed live, with a caption in words.

    note: replaces the table's own note when given. source: the Python expression that
    recomputes it (for the notebook). header: the column headings in prose and math (the
    table's own when empty). labels: the first column's cells in prose and math (as computed
    when empty).
    """

    table: Table
    caption: str | tuple[Piece, ...]
    note: str | tuple[Piece, ...] | None = None
    source: str = ""
    header: tuple[tuple[Piece, ...], ...] = ()
    labels: tuple[tuple[Piece, ...], ...] = ()


@dataclass(frozen=True)
class ProseTable:
    """A table written in the prose: a header row and body rows of prose and math."""

    header: tuple[tuple[Piece, ...], ...]
    rows: tuple[tuple[tuple[Piece, ...], ...], ...]


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
class Solution:
    """An answer or a worked solution: title ("Answers", "Solution", "Model answer"), what it
    answers (topic: the exercise or section heading) and its blocks. The author edition prints it
    in place; the student edition keeps it apart (an answer key at the end of the PDF, a
    collapsed <details> in Markdown and HTML)."""

    title: str
    topic: tuple[Piece, ...]
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Exercise:
    """An exercise the notebook leaves to the student: the code cell they complete (answer:
    the author's filled-in version) and the cell that checks it."""

    source: str
    answer: str
    check: str


@dataclass(frozen=True)
class NotebookOnly:
    """Blocks only the notebook prints: prose that introduces its code cells, and the cells."""

    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Code:
    """A notebook code cell; other formats skip it."""

    source: str


@dataclass(frozen=True)
class Listing:
    """The module's code as the module prints it, shown in every format but the notebook (which
    runs its own cells): the source, verbatim, the output it prints, and a sentence that leads
    to it (intro, prose and math)."""

    source: str
    output: str
    intro: tuple[Piece, ...] = ()


Block = (
    Heading
    | Para
    | Quote
    | Equations
    | Chain
    | TheoremStatement
    | ProofEnd
    | TableBlock
    | ProseTable
    | Figure
    | Items
    | AppendixStart
    | Solution
    | Exercise
    | NotebookOnly
    | Code
    | Listing
)
# Every block type: each printer registers a handler for each (proofs.render.block_printer).
BLOCK_TYPES: tuple[type, ...] = get_args(Block)


@dataclass(frozen=True)
class Section:
    """A section of the lesson: a name (its file stem in Markdown/HTML), title and blocks."""

    name: str
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Lesson:
    """The whole lesson: title, subtitle, sections, the figures (stem -> drawing function and
    its keyword arguments), and the options it was built for (its edition: brief or full, for a
    student or an author; the figures' format; KaTeX's folder)."""

    title: str
    sections: tuple[Section, ...]
    figures: dict[str, tuple[str, dict[str, object]]] = field(default_factory=dict)
    subtitle: str = ""
    options: RenderOptions = field(default_factory=RenderOptions)

    @property
    def student(self) -> bool:
        """Whether answers and solutions are kept apart from the questions."""
        return self.options.student
