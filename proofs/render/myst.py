"""The lesson as MyST Markdown pages: a page per section, theorems, proofs and exercises as the
directives of sphinx-proof and sphinx-exercise (which Jupyter Book 2 reads too).

The lesson comes built for its edition (proofs.render.lesson.build_lesson): the author notes
are there or not, and each answer is a Solution block. This printer only sets them: an exercise
(a heading whose Solution follows before the next heading) is an exercise directive and its
solution a solution directive; an answer without a heading of its own (the challenge's model
answer, the quiz's answers) an admonition under its title. The student edition folds every
one of them away (class dropdown); the author's shows them open.

Math is $…$ and $$…$$ (MyST's dollarmath), set by the same SymPy printer as the PDF; a chain is
an aligned block. A theorem is a prf:theorem with its label, its proof (from the "Proof." lead
to the proof's end) a prf:proof. Cross-references are links to labels, [Theorem 4](#thm-rotation),
which Sphinx and mystmd both resolve.

One module because it is one printer: one handler per block and piece type (singledispatch);
the project around the pages (conf.py, the table of contents) is proofs.render.myst_project.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import sympy as sp

from proofs.render.block_printer import block_printer
from proofs.render.latex_lesson import math
from proofs.render.latex_tables import is_number
from proofs.render.lesson_blocks import (
    AppendixStart,
    Block,
    Chain,
    Code,
    Emph,
    Equations,
    Exercise,
    Figure,
    Heading,
    Items,
    Lesson,
    Link,
    Listing,
    Mono,
    NotebookOnly,
    Para,
    Piece,
    ProofEnd,
    ProseTable,
    Quote,
    Ref,
    Section,
    Solution,
    TableBlock,
    TheoremStatement,
)
from proofs.render.markdown_lesson import (
    FIGURE_FORMATS,
    anchor,
    cell_md,
    chain_rows,
    md_text,
    pieces_of,
    section_number,
)
from proofs.render.options import RenderOptions

# A figure's width in the lesson is a fraction of the PDF's text width; the book's column is
# narrower, so a figure takes this much more of it (as a percentage, at most all).
COLUMN_SCALE = 150
# sphinx-exercise numbers the exercises itself: the lesson's "Exercise 2 — " goes.
_EXERCISE_NUMBER = re.compile(r"^Exercise \d+\s*[—-]\s*")
_PROOF = Emph("Proof.")


def page_stem(lesson: Lesson, section: Section) -> str:
    """The document name of a section: NN-name, in the lesson's order."""
    return f"{lesson.sections.index(section) + 1:02d}-{section.name}"


def text(words: str) -> str:
    """Prose escaped for MyST: Markdown's characters, and a line that would start a comment."""
    escaped = md_text(words)
    return "\\" + escaped if escaped.startswith("%") else escaped


piece_myst = block_printer("piece_myst", "piece")
piece_myst.__doc__ = """One piece of running text in MyST (piece_myst(piece)); a cross-reference
is a link to its label, which Sphinx and mystmd resolve."""


@piece_myst.register
def _(piece: str) -> str:
    return text(piece)


@piece_myst.register
def _(piece: Ref) -> str:
    return f"[{piece.text}](#{anchor(piece.label)})"


@piece_myst.register
def _(piece: Emph) -> str:
    words = text(piece.text)
    return f"*{words.strip()}*" + (" " if words.endswith(" ") else "")


@piece_myst.register
def _(piece: Mono) -> str:
    return f"`{piece.text}`"


@piece_myst.register
def _(piece: Link) -> str:
    return f"<{piece.url}>"


@piece_myst.register
def _(piece: sp.Basic) -> str:
    return f"${math(piece, fold=True)}$"


def inline(pieces: Sequence[Piece]) -> str:
    """Prose, $inline math$, emphasis, code, links and cross-references."""
    return "".join(piece_myst(piece) for piece in pieces)


def display(tex: str) -> str:
    return f"$$\n{tex}\n$$"


def directive(name: str, argument: str, options: dict[str, str], body: str, depth: int) -> str:
    """A colon-fenced directive; depth: how many directives it holds inside (their fences are
    shorter, as MyST requires)."""
    fence = ":" * (3 + depth)
    head = f"{fence}{{{name}}}" + (f" {argument}" if argument else "")
    lines = [head, *(f":{key}:" + (f" {value}" if value else "") for key, value in options.items())]
    return "\n".join(lines) + "\n\n" + body + "\n" + fence


def table_myst(block: TableBlock) -> str:
    """A computed table as a MyST table directive: caption, the rows, the note under it."""
    table = block.table
    specs = table.formats or ("",) * len(table.columns)
    numeric = [
        bool(table.rows) and all(is_number(r[c]) for r in table.rows)
        for c in range(len(table.columns))
    ]
    header = [inline(h) for h in block.header] or [text(c) for c in table.columns]
    rows = [
        "| " + " | ".join(h.replace("|", "\\|") for h in header) + " |",
        "| " + " | ".join("---:" if n else ":---" for n in numeric) + " |",
    ]
    for j, row in enumerate(table.rows):
        cells = [cell_md(c, s) for c, s in zip(row, specs, strict=True)]
        if block.labels:
            cells[0] = inline(block.labels[j]).replace("|", "\\|")
        rows.append("| " + " | ".join(cells) + " |")
    note = inline(pieces_of(table.note if block.note is None else block.note)).strip()
    if table.passed is False:
        note += " **(check FAILED)**"
    title = inline(pieces_of(block.caption))
    body = directive("table", title, {"align": "center"}, "\n".join(rows), 0)
    return body + (f"\n\n{note}" if note else "")


def prose_table_myst(block: ProseTable) -> str:
    """A pipe table of prose and $math$."""

    def row(cells: Sequence[Sequence[Piece]]) -> str:
        return "| " + " | ".join(inline(c).replace("|", "\\|") for c in cells) + " |"

    lines = [row(block.header), "| " + " | ".join(":---" for _ in block.header) + " |"]
    return "\n".join(lines + [row(r) for r in block.rows])


@dataclass(frozen=True)
class MystContext:
    """What a block's printer needs besides the block: the section's heading levels (lesson's ->
    Markdown's) and the printer of the lesson's exercises and answers."""

    levels: Mapping[int, int]
    printer: _Printer


block_myst = block_printer("block_myst")
block_myst.__doc__ = """One block of the lesson in MyST (block_myst(block, context)); an empty
string for a block the pages do not show. Theorems' proofs and exercises: _Printer.section_body."""


@block_myst.register
def _(block: Heading, context: MystContext) -> str:
    return f"{'#' * context.levels[block.level]} {inline(block.text)}"


@block_myst.register
def _(block: Para, context: MystContext) -> str:
    return inline(block.pieces)


@block_myst.register
def _(block: Quote, context: MystContext) -> str:
    return f"> {inline(block.pieces)}"


@block_myst.register
def _(block: Equations, context: MystContext) -> str:
    return "\n\n".join(display(math(e, block.display)) for e in block.lines)


@block_myst.register
def _(block: Chain, context: MystContext) -> str:
    tex = display("\\begin{aligned}\n" + " \\\\\n".join(chain_rows(block)) + "\n\\end{aligned}")
    return (inline(block.intro) + "\n\n" if block.intro else "") + tex


@block_myst.register
def _(block: TheoremStatement, context: MystContext) -> str:
    body = [inline(block.pieces), *(display(math(f, block.display)) for f in block.formulas)]
    # Labelled twice: sphinx-proof files its :label: where a [Theorem 4](#thm-rotation)
    # link does not look, and the target before the directive is where it does.
    label = anchor(block.label)
    theorem = directive("prf:theorem", text(block.title), {"label": label}, "\n\n".join(body), 0)
    return f"({label})=\n" + theorem


@block_myst.register
def _(block: TableBlock, context: MystContext) -> str:
    return table_myst(block)


@block_myst.register
def _(block: ProseTable, context: MystContext) -> str:
    return prose_table_myst(block)


@block_myst.register
def _(block: Figure, context: MystContext) -> str:
    width = min(100, round(block.width * COLUMN_SCALE))
    options = {"name": anchor(block.label), "width": f"{width}%"}
    file = block.stem + context.printer.options.figure_suffix("MyST", FIGURE_FORMATS)
    return directive("figure", file, options, inline(block.caption), 0)


@block_myst.register
def _(block: Items, context: MystContext) -> str:
    return "\n".join(
        (f"{j}. " if block.numbered else "- ") + inline(item)
        for j, item in enumerate(block.items, 1)
    )


@block_myst.register
def _(block: Solution, context: MystContext) -> str:
    return context.printer.answer(block, context)


@block_myst.register
def _(block: Listing, context: MystContext) -> str:
    intro = f"{inline(block.intro)}\n\n" if block.intro else ""
    return f"{intro}```python\n{block.source}\n```\n\nOutput:\n\n```text\n{block.output}\n```"


@block_myst.register(AppendixStart)
@block_myst.register(Code)
@block_myst.register(Exercise)
@block_myst.register(NotebookOnly)
@block_myst.register(ProofEnd)
def _(block: Block, context: MystContext) -> str:
    # The appendix is its section's number; code is the notebook's; a proof's end closes the
    # prf:proof directive (section_body).
    return ""


def _nested(blocks: Sequence[Block]) -> int:
    """How deep the directives among blocks go (a table or figure inside a solution: 1)."""
    return int(any(isinstance(b, TableBlock | Figure | TheoremStatement) for b in blocks))


def _joined(blocks: Sequence[Block], context: MystContext) -> str:
    return "\n\n".join(t for t in (block_myst(b, context) for b in blocks) if t)


@dataclass(frozen=True)
class _Practice:
    """An exercise: its heading's words, the task under it and the lesson's Solution to it."""

    title: tuple[Piece, ...]
    task: tuple[Block, ...]
    solution: Solution


def _practice(blocks: Sequence[Block]) -> list[Block | _Practice]:
    """blocks with each exercise gathered: a heading, what follows it, and the Solution whose
    topic it is, when that comes before the next heading."""
    out: list[Block | _Practice] = []
    heading: Heading | None = None  # the last heading, while no Solution has answered it
    task: list[Block] = []

    for block in blocks:
        if isinstance(block, Heading):
            out += [heading, *task] if heading else []
            heading, task = block, []
        elif heading and isinstance(block, Solution) and block.topic == heading.text:
            title = list(block.topic)
            if title and isinstance(title[0], str):
                title[0] = _EXERCISE_NUMBER.sub("", title[0])
            out.append(_Practice(tuple(title), tuple(task), block))
            heading, task = None, []
        elif heading:
            task.append(block)
        else:
            out.append(block)
    return out + ([heading, *task] if heading else [])


class _Printer:
    """Prints one lesson's sections, numbering the exercises through the whole lesson."""

    def __init__(self, options: RenderOptions) -> None:
        self.options = options
        self.folded = {"class": "dropdown"} if options.student else {}
        self.exercises = 0

    def exercise(self, practice: _Practice, context: MystContext) -> str:
        """The exercise directive and its solution (folded for the student)."""
        self.exercises += 1
        label = f"exercise-{self.exercises}"
        # The task is the module's words; inside the exercise box they need no quotation bar.
        task = [Para(b.pieces) if isinstance(b, Quote) else b for b in practice.task]
        body = _joined(task, context)
        out = directive("exercise", inline(practice.title), {"label": label}, body, _nested(task))
        blocks = practice.solution.blocks
        answer = directive(
            "solution", label, self.folded, _joined(blocks, context), _nested(blocks)
        )
        return out + "\n\n" + answer

    def answer(self, solution: Solution, context: MystContext) -> str:
        """An answer with no exercise heading: an admonition under its title."""
        body = _joined(solution.blocks, context)
        return directive(
            "admonition", text(solution.title), self.folded, body, _nested(solution.blocks)
        )

    def section_body(self, blocks: Sequence[Block], levels: Mapping[int, int]) -> list[str]:
        """The section's blocks in MyST; a proof, from its "Proof." lead to its end, is a
        prf:proof (which prints its own "Proof.")."""
        context = MystContext(levels, self)
        out: list[str] = []
        proof: list[str] | None = None
        for block in _practice(blocks):
            if isinstance(block, _Practice):
                out.append(self.exercise(block, context))
                continue
            if proof is None and _leads_proof(block):
                proof = []
                block = _without_proof_lead(block)
            if isinstance(block, ProofEnd) and proof is not None:
                out.append(directive("prf:proof", "", {}, "\n\n".join(proof), _nested_proof(proof)))
                proof = None
                continue
            shown = block_myst(block, context)
            if shown:
                (out if proof is None else proof).append(shown)
        if proof:
            out += proof  # a proof without its end: its blocks stay as they are
        return out


def _nested_proof(shown: Sequence[str]) -> int:
    return int(any(s.startswith(":::") for s in shown))


def _leads_proof(block: Block) -> bool:
    pieces = block.pieces if isinstance(block, Para) else getattr(block, "intro", ())
    return bool(pieces) and pieces[0] == _PROOF


def _without_proof_lead(block: Block) -> Block:
    """A paragraph or chain of a proof without its "Proof." lead-in: prf:proof prints its own."""
    pieces = block.pieces if isinstance(block, Para) else block.intro  # type: ignore[union-attr]
    rest = list(pieces[1:])
    if rest and isinstance(rest[0], str):
        rest[0] = rest[0].lstrip()
    if isinstance(block, Para):
        return Para(tuple(rest))
    return replace(block, intro=tuple(rest))  # type: ignore[arg-type]


def heading_levels(section: Section) -> dict[int, int]:
    """The lesson's heading levels in a section -> Markdown levels under the page's # title,
    consecutive as MyST wants (a section with level-3 headings only sets them as ##)."""
    inner = [b for s in section.blocks if isinstance(s, Solution) for b in s.blocks]
    used = sorted({b.level for b in (*section.blocks, *inner) if isinstance(b, Heading)})
    return {level: min(2 + j, 6) for j, level in enumerate(used)}


def section_myst(lesson: Lesson, section: Section, printer: _Printer) -> str:
    """A section's page: its numbered title and its blocks."""
    body = [f"# {section_number(lesson, section)}. {text(section.title)}"]
    body += printer.section_body(section.blocks, heading_levels(section))
    return "\n\n".join(body) + "\n"


EDITION_WORDS = {
    "student": "The solutions are folded away: open one once you have tried.",
    "author": "The solutions are open, and the notes for the course author follow the summary.",
}


def index_myst(lesson: Lesson) -> str:
    """index.md: the title, the edition, and the table of contents (a toctree)."""
    pages = "\n".join(page_stem(lesson, s) for s in lesson.sections)
    return (
        f"# {text(lesson.title)}\n\n*{text(lesson.subtitle)}.* {EDITION_WORDS[lesson.options.edition]}\n\n"
        f"```{{toctree}}\n:maxdepth: 1\n\n{pages}\n```\n"
    )


def myst_pages(lesson: Lesson) -> dict[str, str]:
    """index.md and one page per section, as MyST Markdown, for the lesson's edition; figures in
    the format of its options."""
    lesson.options.figure_suffix("MyST", FIGURE_FORMATS)  # a format it cannot show fails first
    out = {"index.md": index_myst(lesson)}
    printer = _Printer(lesson.options)
    for section in lesson.sections:
        out[page_stem(lesson, section) + ".md"] = section_myst(lesson, section, printer)
    return out
