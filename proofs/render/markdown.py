"""Markdown printer: the same notes as the LaTeX backend, laid out like the course's modules.

Math goes in $$\\begin{aligned} ... \\end{aligned}$$ blocks (no align*, no \\label), which both
MathJax and KaTeX render; the expressions come from the same SymPy printer as the PDF.
Justifications stay out of the math, as a numbered list under each chain, so a wide chain
never has to carry a paragraph of text inside a formula.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from numeric.result_table import Cell, Table, format_cell
from proofs.engine.derivation import Derivation, Verdict
from proofs.engine.facts import Part
from proofs.engine.theorem import TheoremRun
from proofs.render.evidence import heading
from proofs.render.latex_chains import (
    derivation_math_rows,
    link_checks,
    shown_fact,
    theorem_display,
)
from proofs.render.latex_math import Display, latex_math
from proofs.render.latex_tables import is_number
from proofs.render.steps import step_text

MARK = {"proved": "✓", "refuted": "✗", "undecided": "?"}


def md_text(text: str) -> str:
    """Prose with the characters Markdown (and a $-math renderer) would interpret escaped."""
    return re.sub(r"([\\`*_\[\]<>|$])", r"\\\1", text)


def math_block(body: str) -> str:
    """A display-math block that MathJax and KaTeX both render."""
    return f"$$\n{body}\n$$"


def aligned(rows: Sequence[str]) -> str:
    """Rows of an aligned environment inside a display-math block."""
    return math_block("\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}")


def derivation_markdown(derivation: Derivation, verdict: Verdict | None = None) -> str:
    """A chain: its aligned steps tagged (1), (2), ..., then the numbered justifications."""
    steps = derivation_math_rows(derivation)
    tagged = list(steps[0])
    for j, lines in enumerate(steps[1:], 1):
        tagged += [*lines[:-1], rf"{lines[-1]} && \text{{({j})}}"]
    out = [aligned(tagged), ""]
    for j, step in enumerate(derivation.steps[1:], 1):
        check = ""
        if verdict is not None and len(verdict.links) >= j:
            link = verdict.links[j - 1]
            check = f" — {MARK[link.status]} {md_text(link.symbolic.rule or 'not reduced')}"
        out.append(f"{j}. {md_text(step_text(step))}{check}")
    return "\n".join(out)


def _verdict(verdict: Verdict) -> str:
    line = f"{MARK[verdict.status]} **{verdict.status}**: {md_text(verdict.reason)}"
    if verdict.counterexample is not None:
        line += f". Counterexample {md_text(verdict.counterexample.describe())}"
    checks = link_checks(verdict)
    return line + (f". {md_text(checks)}" if checks else "")


def part_markdown(part: Part, verdict: Verdict, number: int, display: Display = ()) -> str:
    """One part: a numbered heading, its chain or fact, and its verdict."""
    out = [f"### {number}. {md_text(heading(part))}", ""]
    if isinstance(part, Derivation):
        out.append(derivation_markdown(part, verdict))
    else:
        for caption, rows in shown_fact(part, display):
            out += [md_text(caption), ""]
            if isinstance(rows, Derivation):
                out += [derivation_markdown(rows, verdict), ""]
            else:
                out += [aligned(rows), ""]
        out.pop()
    out += ["", _verdict(verdict)]
    return "\n".join(out)


def _cell(cell: Cell, spec: str) -> str:
    if isinstance(cell, bool | np.bool_):
        return "✓" if cell else "✗"
    return md_text(format_cell(cell, spec))


def table_markdown(table: Table) -> str:
    """A numeric Table as a Markdown table, numbers right-aligned, title above, note below."""
    specs = table.formats or ("",) * len(table.columns)
    numeric = [
        bool(table.rows) and all(is_number(r[c]) for r in table.rows)
        for c in range(len(table.columns))
    ]
    out = [f"*{md_text(table.title)}*", ""]
    out.append("| " + " | ".join(md_text(c) for c in table.columns) + " |")
    out.append("|" + "|".join(" ---: " if n else " --- " for n in numeric) + "|")
    for row in table.rows:
        out.append("| " + " | ".join(_cell(c, s) for c, s in zip(row, specs, strict=True)) + " |")
    if table.note:
        out += ["", md_text(table.note)]
    if table.passed is not None:
        out += ["", f"Numeric check: **{'✓ passed' if table.passed else '✗ failed'}**."]
    return "\n".join(out)


def theorem_markdown(
    result: TheoremRun, table: Table | None, *, figure: str | None = None, skipped: str = ""
) -> str:
    """One theorem as a course-style Markdown page; figure: a PNG file name beside it;
    skipped: why its figure could not be drawn, or ""."""
    th = result.theorem
    out = [
        f"# {md_text(th.title)}",
        "",
        f"**Theorem ({md_text(th.name)}).** *{md_text(th.statement)}*",
    ]
    if th.formulas:
        out += ["", aligned([latex_math(f) for f in th.formulas])]
    out += ["", "## Proof"]
    for number, pr in enumerate(result.parts, 1):
        out += ["", part_markdown(pr.part, pr.verdict, number, theorem_display(result))]
    proved = sum(pr.verdict.status == "proved" for pr in result.parts)
    out += ["", f"**Status: {result.status}** ({proved} of {len(result.parts)} parts proved)."]
    if th.remarks:
        out += ["", "## Remarks", ""] + [f"- {md_text(r)}" for r in th.remarks]
    if table is not None:
        out += ["", "## Verified: numeric cross-check", ""]
        out += [f"Computed independently with NumPy by `{th.twin}`.", "", table_markdown(table)]
    if figure is not None:
        out += ["", f"![{md_text(th.title)}]({figure})"]
    elif skipped:
        out += ["", f"*Figure skipped: {md_text(skipped)}.*"]
    return "\n".join(out) + "\n"


def result_markdown(result: TheoremRun) -> str:
    """A checked theorem for Jupyter: a one-line summary, then the page without its twin."""
    proved = sum(pr.verdict.status == "proved" for pr in result.parts)
    summary = (
        f"{MARK[result.status]} **{md_text(result.theorem.name)}: {result.status}** "
        f"({proved} of {len(result.parts)} parts proved)"
    )
    return summary + "\n\n" + theorem_markdown(result, None)


def verdict_markdown(verdict: Verdict) -> str:
    """A verdict for Jupyter: its mark and status in bold, then the reason."""
    return f"**{MARK[verdict.status]} {verdict.status}**: {verdict.reason}"
