"""The appendix's tables (author edition): for each theorem, a row per part with its claim in
words and math, how it was checked and the outcome (a refuted claim reads "refuted"); its
numeric twin last. The prose around them (what each kind of check is) lives in each module's
appendix.md.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import sympy as sp

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
from proofs.render.lesson_blocks import Block, Heading, Piece, TableBlock, Tex
from proofs.render.lesson_parts import citation_words
from proofs.render.tex_prose import prose_runs

COLUMNS = ("claim", "how it was checked", "outcome")


def counted(n: int, thing: str) -> str:
    """n things, the noun pluralised as English does for these nouns.

    >>> counted(1, "random point"), counted(24, "random point"), counted(2, "link")
    ('1 random point', '24 random points', '2 links')
    """
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def claim_pieces(title: str) -> tuple[Piece, ...]:
    """A part's title as prose and math: its subscripts, powers and symbols set by the
    printers' math (M_(j+k) as M with subscript j+k, e^{imθ} as a power), never as raw text.

    >>> [str(piece) for piece in claim_pieces("M_(j+k) holds")]
    ['M_{j+k}', ' holds']
    >>> [str(piece) for piece in claim_pieces("θ′_i = θ_i/s")]
    ["\\\\theta_{i}'", ' = ', '\\\\theta_{i}', '/s']
    >>> [str(piece) for piece in claim_pieces("θ′_(i+1) = b′^0")]
    ["\\\\theta_{i+1}'", ' = ', "b'^{0}"]
    """
    # e^{imθ} in a title is the power e^(imθ), and θ′_i is θ_i′, which prose_runs sets as math.
    text = re.sub(r"\^\{([^{}]*)\}", r"^(\1)", title)
    text = re.sub(r"′_([A-Za-z0-9]+|\([^()\s]{1,8}\))", r"_\1′", text)
    return tuple(
        Tex(run.replace(" \\prime", "'")) if math else run for math, run in prose_runs(text)
    )


def _rules(citations: Sequence[object]) -> str:
    """The citations in words, each once, in order; plain algebra is not named."""
    seen: list[str] = []
    for citation in citations:
        text = citation_words(citation)
        if text and text != "algebra" and text not in seen:
            seen.append(text)
    return ", ".join(seen)


how_checked = block_printer("how_checked", "part")
how_checked.__doc__ = """How a part was checked, in words (how_checked(part, verdict))."""


@how_checked.register
def _(part: Derivation, verdict: Verdict) -> str:
    points = max((link.numeric.points for link in verdict.links), default=0)
    cited = _rules([step.by for step in part.steps[1:]])
    by = f"exact algebra ({cited})" if cited else "exact algebra"
    links = counted(len(verdict.links), "link")
    return f"{links} by {by}; each link also evaluated at {counted(points, 'random point')}"


@how_checked.register
def _(part: FreeOf, verdict: Verdict) -> str:
    return "the expression's symbols read off"


@how_checked.register
def _(part: NonZero, verdict: Verdict) -> str:
    return "nonzero by its symbols' hypotheses, constants enclosed"


@how_checked.register
def _(part: NonNegative, verdict: Verdict) -> str:
    cited = _rules([part.by])
    return f"equal to a square ({cited}), so at least 0" if cited else "equal to a square"


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


def outcome(part: object, verdict: Verdict) -> str:
    """The outcome in words: a refutation that holds reads "refuted" (the claim is false), with
    the point where it fails; any other part reads its status (proved, undecided, refuted)."""
    if not isinstance(part, Refutation):
        return verdict.status
    if verdict.status == "proved":
        at = ", ".join(f"{sp.pretty(symbol)} = {value}" for symbol, value in part.at)
        return f"refuted (false at {at})" if at else "refuted"
    if verdict.status == "undecided":
        return "undecided: no counterexample certified"
    return "not refuted: the claim held at the point tried"


def theorem_table(run: TheoremRun) -> TableBlock:
    """One theorem's table: a row per part (its claim, how it was checked, its outcome), and
    its numeric twin last. The claims are the rows' labels, prose and math."""
    rows: list[tuple[str, str, str]] = []
    labels: list[tuple[Piece, ...]] = []
    for pr in run.parts:
        rows.append((pr.part.title, how_checked(pr.part, pr.verdict), outcome(pr.part, pr.verdict)))
        labels.append(claim_pieces(pr.part.title))
    if run.table is not None:
        agrees = {True: "agrees", False: "disagrees", None: "computed"}[run.table.passed]
        headline = run.table.headline or run.table.title
        rows.append(
            (f"numeric twin: {headline}", "read off the tables in double precision", agrees)
        )
        labels.append(("Numeric twin: ", *claim_pieces(headline)))
    table = Table(title=run.theorem.title, columns=COLUMNS, rows=tuple(rows))
    return TableBlock(table, (), None, "", (), tuple(labels))


def appendix_blocks(runs: Sequence[TheoremRun], numbers: Mapping[str, int]) -> list[Block]:
    """A heading and a table per theorem, in the lesson's numbering and with its title
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
        out.append(theorem_table(run))
    return out
