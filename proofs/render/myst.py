"""The lesson as MyST Markdown pages: a page per section, theorems, proofs and exercises as the
directives of sphinx-proof and sphinx-exercise (which Jupyter Book 2 reads too).

Math is $…$ and $$…$$ (MyST's dollarmath), set by the same SymPy printer as the PDF; a chain is
an aligned block. A theorem is a prf:theorem with its label, the blocks up to the end of its
proof a prf:proof; an exercise is an exercise directive followed by its solution, which the
student edition folds away (class dropdown). Cross-references are links to labels,
[Theorem 4](#thm-rotation), which Sphinx and mystmd both resolve.
"""

from __future__ import annotations

from collections.abc import Sequence

from numeric.result_table import Table
from proofs.render.latex_chains import derivation_rows
from proofs.render.latex_lesson import math
from proofs.render.latex_tables import is_number
from proofs.render.lesson_blocks import (
    AppendixStart,
    Block,
    Chain,
    Code,
    Emph,
    Equations,
    Figure,
    Heading,
    Items,
    Lesson,
    Link,
    Para,
    Piece,
    ProofEnd,
    Quote,
    Ref,
    Section,
    TableBlock,
    TheoremStatement,
)
from proofs.render.lesson_parts import SUBTITLE
from proofs.render.markdown_lesson import anchor, cell_md, md_text, section_number
from proofs.render.myst_edition import Edition, Practice

# A figure's width in the lesson is a fraction of the PDF's text width; the book's column is
# narrower, so a figure takes this much more of it (as a percentage, at most all).
COLUMN_SCALE = 150


def page_stem(lesson: Lesson, section: Section) -> str:
    """The document name of a section: NN-name, in the lesson's order."""
    return f"{lesson.sections.index(section) + 1:02d}-{section.name}"


def text(words: str) -> str:
    """Prose escaped for MyST: Markdown's characters, and a line that would start a comment."""
    escaped = md_text(words)
    return "\\" + escaped if escaped.startswith("%") else escaped


def inline(pieces: Sequence[Piece]) -> str:
    """Prose, $inline math$, emphasis, links and cross-references."""
    out = []
    for piece in pieces:
        if isinstance(piece, str):
            out.append(text(piece))
        elif isinstance(piece, Ref):
            out.append(f"[{piece.text}](#{anchor(piece.label)})")
        elif isinstance(piece, Emph):
            words = text(piece.text)
            out.append(f"*{words.strip()}*" + (" " if words.endswith(" ") else ""))
        elif isinstance(piece, Link):
            out.append(f"<{piece.url}>")
        else:
            out.append(f"${math(piece)}$")
    return "".join(out)


def display(tex: str) -> str:
    return f"$$\n{tex}\n$$"


def directive(name: str, argument: str, options: dict[str, str], body: str, depth: int) -> str:
    """A colon-fenced directive; depth: how many directives it holds inside (their fences are
    shorter, as MyST requires)."""
    fence = ":" * (3 + depth)
    head = f"{fence}{{{name}}}" + (f" {argument}" if argument else "")
    lines = [head, *(f":{key}:" + (f" {value}" if value else "") for key, value in options.items())]
    return "\n".join(lines) + "\n\n" + body + "\n" + fence


def table_myst(table: Table, caption: str | Sequence[Piece], note: str | None) -> str:
    """A module table as a MyST table directive: caption, the rows, the note under it."""
    specs = table.formats or ("",) * len(table.columns)
    align = [
        "---:" if table.rows and all(is_number(r[c]) for r in table.rows) else ":---"
        for c in range(len(table.columns))
    ]
    rows = [
        "| " + " | ".join(c.replace("|", "\\|") for c in table.columns) + " |",
        "| " + " | ".join(align) + " |",
        *(
            "| " + " | ".join(cell_md(c, s) for c, s in zip(row, specs, strict=True)) + " |"
            for row in table.rows
        ),
    ]
    words = table.note if note is None else note
    if table.passed is False:
        words += " (check FAILED)"
    title = inline((caption,) if isinstance(caption, str) else caption)
    body = directive("table", title, {"align": "center"}, "\n".join(rows), 0)
    return body + (f"\n\n{text(words.strip())}" if words.strip() else "")


def block_myst(block: Block, levels: dict[int, int]) -> str:
    """One block of the lesson in MyST (a theorem's proof is set by section_body)."""
    if isinstance(block, Heading):
        return f"{'#' * levels[block.level]} {inline(block.text)}"
    if isinstance(block, Para):
        return inline(block.pieces)
    if isinstance(block, Quote):
        return f"> {inline(block.pieces)}"
    if isinstance(block, Equations):
        return "\n\n".join(display(math(e, block.display)) for e in block.lines)
    if isinstance(block, Chain):
        rows = derivation_rows(block.derivation, justify="text")
        tex = display("\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}")
        return (inline(block.intro) + "\n\n" if block.intro else "") + tex
    if isinstance(block, TheoremStatement):
        body = [inline(block.pieces), *(display(math(f, block.display)) for f in block.formulas)]
        # Labelled twice: sphinx-proof files its :label: where a [Theorem 4](#thm-rotation)
        # link does not look, and the target before the directive is where it does.
        label = anchor(block.label)
        options = {"label": label}
        theorem = directive("prf:theorem", text(block.title), options, "\n\n".join(body), 0)
        return f"({label})=\n" + theorem
    if isinstance(block, TableBlock):
        return table_myst(block.table, block.caption, block.note)
    if isinstance(block, Figure):
        width = min(100, round(block.width * COLUMN_SCALE))
        options = {"name": anchor(block.label), "width": f"{width}%"}
        return directive("figure", f"{block.stem}.svg", options, inline(block.caption), 0)
    if isinstance(block, Items):
        return "\n".join(
            (f"{j}. " if block.numbered else "- ") + inline(item)
            for j, item in enumerate(block.items, 1)
        )
    if isinstance(block, AppendixStart | Code | ProofEnd):
        return ""
    raise TypeError(f"cannot print a block of type {type(block).__name__}")


def _nested(blocks: Sequence[Block]) -> int:
    """How deep the directives among blocks go (a table or figure inside a solution: 1)."""
    return int(any(isinstance(b, TableBlock | Figure | TheoremStatement) for b in blocks))


def practice_myst(practice: Practice, levels: dict[int, int], edition: Edition) -> str:
    """An exercise and its solution, or a task and its answer; what answers it is folded away
    in the student edition."""
    folded = {"class": "dropdown"} if edition == "student" else {}
    body = "\n\n".join(t for t in (block_myst(b, levels) for b in practice.solution) if t)
    depth = _nested(practice.solution)
    if not practice.numbered:
        # The challenge and the quiz's questions stand as they are, with an Answer under each.
        task = "\n\n".join(t for t in (block_myst(b, levels) for b in practice.task) if t)
        if not practice.solution:
            return task
        return task + "\n\n" + directive("admonition", practice.answer, folded, body, depth)
    options = {"label": practice.label}
    # The task is the module's words; inside the exercise box they need no quotation bar.
    task_blocks = [Para(b.pieces) if isinstance(b, Quote) else b for b in practice.task]
    task = "\n\n".join(t for t in (block_myst(b, levels) for b in task_blocks) if t)
    out = directive("exercise", inline(practice.title), options, task, _nested(practice.task))
    if practice.solution:
        out += "\n\n" + directive("solution", practice.label, folded, body, depth)
    return out


def _without_proof_lead(block: Block) -> Block:
    """A paragraph or chain of a proof without its "Proof." lead-in: prf:proof prints its own."""
    pieces = block.pieces if isinstance(block, Para) else getattr(block, "intro", ())
    if not pieces or pieces[0] != Emph("Proof."):
        return block
    rest = list(pieces[1:])
    if rest and isinstance(rest[0], str):
        rest[0] = rest[0].lstrip()
    if isinstance(block, Para):
        return Para(tuple(rest))
    return Chain(block.derivation, tuple(rest))


def section_body(blocks: Sequence[Block], levels: dict[int, int], edition: Edition) -> list[str]:
    """The section's blocks in MyST; the blocks between a theorem and its proof's end form a
    prf:proof."""
    out: list[str] = []
    proof: list[str] | None = None
    for block in blocks:
        if isinstance(block, Practice):
            out.append(practice_myst(block, levels, edition))
            continue
        shown = block_myst(block, levels)
        if isinstance(block, ProofEnd) and proof is not None:
            out.append(directive("prf:proof", "", {}, "\n\n".join(proof), 0))
            proof = None
        elif proof is not None:
            shown = block_myst(_without_proof_lead(block), levels)
            if shown:
                proof.append(shown)
        elif shown:
            out.append(shown)
        if isinstance(block, TheoremStatement):
            proof = []
    if proof:
        out += proof  # a theorem without a proof end: its blocks stay as they are
    return out


def heading_levels(section: Section) -> dict[int, int]:
    """The lesson's heading levels in a section -> Markdown levels under the page's # title,
    consecutive as MyST wants (a section with level-3 headings only sets them as ##)."""
    used = sorted(
        {
            b.level
            for b in (
                *section.blocks,
                *(
                    inner
                    for p in section.blocks
                    if isinstance(p, Practice)
                    for inner in (*p.task, *p.solution)
                ),
            )
            if isinstance(b, Heading)
        }
    )
    return {level: min(2 + j, 6) for j, level in enumerate(used)}


def section_myst(lesson: Lesson, section: Section, edition: Edition) -> str:
    """A section's page: its numbered title and its blocks."""
    body = [f"# {section_number(lesson, section)}. {text(section.title)}"]
    body += section_body(section.blocks, heading_levels(section), edition)
    return "\n\n".join(body) + "\n"


EDITION_WORDS = {
    "student": "Student edition: the solutions are folded away; open one once you have tried.",
    "author": "Author edition: with the solutions open and the notes for the course author.",
}


def index_myst(lesson: Lesson, edition: Edition) -> str:
    """index.md: the title, the edition, and the table of contents (a toctree)."""
    pages = "\n".join(page_stem(lesson, s) for s in lesson.sections)
    return (
        f"# {text(lesson.title)}\n\n*{text(SUBTITLE)}*\n\n{EDITION_WORDS[edition]}\n\n"
        f"```{{toctree}}\n:maxdepth: 1\n\n{pages}\n```\n"
    )


def myst_pages(lesson: Lesson, edition: Edition) -> dict[str, str]:
    """index.md and one page per section, as MyST Markdown."""
    out = {"index.md": index_myst(lesson, edition)}
    for section in lesson.sections:
        out[page_stem(lesson, section) + ".md"] = section_myst(lesson, section, edition)
    return out
