"""Course notes: lay out the files of a notes folder from verified theorems.

The LaTeX and Markdown backends render one theorem each; this module decides which files a
notes folder holds (one per theorem, an index, figures) and what the introduction says. It
takes theorems already verified (proofs.cli.verify builds them) and returns file name -> bytes;
proofs.cli.files writes them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sympy as sp

from numeric.table import Table
from proofs.definitions import OMEGA_I, POS, I, omega
from proofs.engine.derivation import Derivation
from proofs.engine.pointwise import MAX_BITS, START_BITS
from proofs.engine.theorem import TheoremResult
from proofs.render import latex_document, markdown

TITLE = "The sinusoidal positional encoding: verified derivations"


@dataclass(frozen=True)
class Checked:
    """One theorem, verified, with its numeric twin's table and its figure (PNG bytes)."""

    result: TheoremResult
    table: Table | None
    figure: bytes | None = None
    figure_skipped: str = ""

    @property
    def name(self) -> str:
        return self.result.theorem.name

    @property
    def ok(self) -> bool:
        """Proved, and the twin did not fail."""
        return self.result.status == "proved" and (
            self.table is None or self.table.passed is not False
        )


def _counts(checked: Sequence[Checked]) -> tuple[int, int, int]:
    links = points = 0
    for c in checked:
        for pr in c.result.parts:
            links += len(pr.verdict.links)
            points = max([points, *(link.numeric.points for link in pr.verdict.links)])
    facts = sum(not isinstance(pr.part, Derivation) for c in checked for pr in c.result.parts)
    return links, points, facts


def introduction(checked: Sequence[Checked]) -> list[list[str | sp.Basic]]:
    """The introduction's paragraphs: prose pieces and SymPy formulas (set as inline math)."""
    links, points, facts = _counts(checked)
    proved = sum(c.result.status == "proved" for c in checked)
    pe = sp.Function("PE")
    return [
        [
            f"These notes prove {len(checked)} statements about the sinusoidal positional encoding "
            "of the Transformer, ",
            sp.Eq(pe(POS, 2 * I), sp.sin(POS * OMEGA_I), evaluate=False),
            " and ",
            sp.Eq(pe(POS, 2 * I + 1), sp.cos(POS * OMEGA_I), evaluate=False),
            ", with the frequency ",
            sp.Eq(OMEGA_I, omega(), evaluate=False),
            f". {proved} of {len(checked)} are proved.",
        ],
        [
            "Each proof is a chain of equalities. Every link of every chain "
            f"({links} links in all) was checked twice, independently: symbolically, by reducing "
            "the difference of its two sides to exactly 0 (the rule that did it is named under "
            f"each chain), and numerically, by evaluating both sides at {points} seeded random "
            f"points that respect the symbols' hypotheses, in certified ball arithmetic (from "
            f"{START_BITS} up to {MAX_BITS} bits). A link counts only if both checks pass. "
            f"The {facts} statements that are not equalities (an expression is free of pos, is "
            "nonzero, a linear system has no solution) were checked by SymPy from the symbols' "
            "assumptions, with every equation of a system kept."
        ],
        [
            "Each theorem ends with a numeric cross-check computed separately with NumPy in "
            "double precision, which does not reuse the symbolic proof."
        ],
    ]


def latex_files(
    checked: Sequence[Checked], *, standalone: bool = False, index: bool = True
) -> dict[str, bytes]:
    """The LaTeX notes: NAME.tex per theorem, NAME.png figures, and main.tex when index."""
    files: dict[str, bytes] = {}
    for c in checked:
        figure = f"{c.name}.png" if c.figure is not None else None
        body = latex_document.theorem_tex(
            c.result, c.table, figure=figure, skipped=c.figure_skipped
        )
        files[f"{c.name}.tex"] = (
            latex_document.standalone_fragment(body) if standalone else body
        ).encode("utf-8")
        if c.figure is not None:
            files[f"{c.name}.png"] = c.figure
    if index:
        intro = [latex_document.inline_tex(p) for p in introduction(checked)]
        main = latex_document.main_document(TITLE, intro, [c.name for c in checked])
        files["main.tex"] = main.encode("utf-8")
    return files


def markdown_files(checked: Sequence[Checked], *, index: bool = True) -> dict[str, bytes]:
    """The Markdown notes: NAME.md per theorem, NAME.png figures, and README.md when index."""
    files: dict[str, bytes] = {}
    for c in checked:
        figure = f"{c.name}.png" if c.figure is not None else None
        page = markdown.theorem_markdown(c.result, c.table, figure=figure, skipped=c.figure_skipped)
        files[f"{c.name}.md"] = page.encode("utf-8")
        if c.figure is not None:
            files[f"{c.name}.png"] = c.figure
    if index:
        entries = [(c.name, c.result.theorem.title, c.result.status) for c in checked]
        files["README.md"] = markdown.index_markdown(TITLE, introduction(checked), entries).encode(
            "utf-8"
        )
    return files
