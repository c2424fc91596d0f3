"""The appendix's tables: for each theorem, each part in the words of its statement, how it was
checked, and the outcome; its numeric twin last. The prose around them (what each kind of
check is) lives in proofs/lesson/appendix.md.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from numeric.result_table import Table
from proofs.engine.blockwise import Blockwise
from proofs.engine.derivation import Derivation, Verdict
from proofs.engine.facts import (
    FreeOf,
    LinearSystem,
    NonNegative,
    NonZero,
    Refutation,
    ShiftMapFact,
)
from proofs.engine.theorem import TheoremRun
from proofs.render.block_printer import block_printer
from proofs.render.evidence import heading
from proofs.render.lesson_blocks import Block, Heading, TableBlock
from proofs.render.lesson_parts import citation_words

# Subscripts that Unicode has, for part titles written with underscores (ω_i → ωᵢ).
_SUBSCRIPT = str.maketrans("0123456789+−-()ijkmnp", "₀₁₂₃₄₅₆₇₈₉₊₋₋₍₎ᵢⱼₖₘₙₚ")


def readable(title: str) -> str:
    """A part's title with its subscripts set as subscripts where Unicode has them:
    ω_i → ωᵢ, M_(j+k) → M₍ⱼ₊ₖ₎; d_model stays the name it is.

    >>> readable("M_j·M_k = M_(j+k), ω_0 = 1, d_model = 8")
    'Mⱼ·Mₖ = M₍ⱼ₊ₖ₎, ω₀ = 1, d_model = 8'
    >>> readable("θ′_38 = (73/208)·θ_38, λ_i < L")
    'θ′₃₈ = (73/208)·θ₃₈, λᵢ < L'
    """

    def sub(match: re.Match[str]) -> str:
        text = match.group(1)
        if all(c in "0123456789+−-()ijkmnp" for c in text):
            return text.translate(_SUBSCRIPT)
        return match.group(0)

    return re.sub(r"(?<=[A-Za-zωθκσλ′])_(\([^)]*\)|[0-9]+|[ijkmnp](?![a-z]))", sub, title)


def _rules(citations: Sequence[object]) -> str:
    """The citations in words, each once, in order."""
    seen: list[str] = []
    for citation in citations:
        text = citation_words(citation)
        if text and text not in seen:
            seen.append(text)
    return ", ".join(seen)


how_checked = block_printer("how_checked", "part")
how_checked.__doc__ = """How a part was checked, in words (how_checked(part, verdict))."""


@how_checked.register
def _(part: Derivation, verdict: Verdict) -> str:
    n = len(verdict.links)
    points = max((link.numeric.points for link in verdict.links), default=0)
    links = "1 link" if n == 1 else f"{n} links"
    cited = _rules([step.by for step in part.steps[1:]])
    return f"{links} by algebra ({cited}); each at {points} random points"


@how_checked.register
def _(part: FreeOf, verdict: Verdict) -> str:
    return "the expression's symbols read off"


@how_checked.register
def _(part: NonZero, verdict: Verdict) -> str:
    return "nonzero by its symbols' hypotheses, constants enclosed"


@how_checked.register
def _(part: NonNegative, verdict: Verdict) -> str:
    return f"equal to a square ({_rules([part.by])}), so at least 0"


@how_checked.register
def _(part: LinearSystem, verdict: Verdict) -> str:
    return "exact elimination, every equation kept"


@how_checked.register
def _(part: Blockwise, verdict: Verdict) -> str:
    return "block by block, from the pair identity"


@how_checked.register
def _(part: ShiftMapFact, verdict: Verdict) -> str:
    return "decided by the shift-map search, its answer verified"


@how_checked.register
def _(part: Refutation, verdict: Verdict) -> str:
    return "a counterexample, its difference enclosed by ball arithmetic"


def theorem_table(run: TheoremRun) -> Table:
    """One theorem's compact table: a row per part, and its twin."""
    rows = [
        (readable(heading(pr.part)), how_checked(pr.part, pr.verdict), pr.verdict.status)
        for pr in run.parts
    ]
    if run.table is not None:
        outcome = {True: "agrees", False: "disagrees", None: "computed"}[run.table.passed]
        headline = run.table.headline or run.table.title
        rows.append(
            (
                f"numeric twin: {readable(headline)}",
                "read off the tables in double precision",
                outcome,
            )
        )
    return Table(
        title=run.theorem.title,
        columns=("part", "checked by", "outcome"),
        rows=tuple(rows),
    )


def appendix_blocks(runs: Sequence[TheoremRun], numbers: Mapping[str, int]) -> list[Block]:
    """A heading and a compact table per theorem, in the lesson's numbering and with its title
    (theorems the lesson does not state come last)."""
    ordered = sorted(runs, key=lambda r: (numbers.get(r.name, len(numbers) + 1), r.name))
    out: list[Block] = []
    for run in ordered:
        number = numbers.get(run.name)
        if number:
            heading = f"Theorem {number}: {run.theorem.title}"
        else:
            heading = f"Also checked: {run.theorem.title}"
        out.append(Heading(3, (heading,)))
        table = theorem_table(run)
        out.append(TableBlock(table, (), None, "", (), ()))
    return out
