"""The appendix "How each step was checked": per theorem, each part's checks and its twin.

The only place in the notes where the checker's machinery (SymPy, mpmath, function names) is
named; the lesson itself speaks of algebra and of random points.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from proofs.engine.derivation import Derivation, Verdict
from proofs.engine.pointwise import MAX_BITS, START_BITS
from proofs.engine.theorem import TheoremRun
from proofs.render.lesson_blocks import Block, Heading, Items, Para, Piece

METHOD = (
    "Each link of each chain is an equation between two expressions. It was checked twice. "
    "Symbolically, SymPy reduced the difference of the two sides to exactly 0; the rule that "
    "did it is named below (expand, angle addition, …); a zero reached only by SymPy's "
    "trigsimp or simplify counts only when ball arithmetic confirms it at further points. "
    "Numerically, python-flint's arb ball arithmetic evaluated both sides at seeded random "
    "points that respect the symbols' hypotheses, with a rigorous error bound, from "
    f"{START_BITS} up to {MAX_BITS} bits: a ball of the difference that excludes 0 is a "
    "certified counterexample, one within 2^-160 of 0 counts as agreement, anything else "
    "leaves the link undecided. A link counts only if both checks pass. Statements that are "
    "not equations (an expression is free of a symbol, is nonzero, a linear system has no "
    "solution) were decided from the symbols' assumptions with one certified zero test for "
    "constants, keeping every equation of a system. Each theorem "
    "also has a numeric twin: a NumPy function that recomputes the property in double "
    "precision without reusing the proof."
)


def _links(verdict: Verdict) -> str:
    rules = ", ".join(
        f"({j}) {link.symbolic.rule or 'not reduced'}" for j, link in enumerate(verdict.links, 1)
    )
    points = sorted({link.numeric.points for link in verdict.links})
    worst = max(link.numeric.max_relative for link in verdict.links)
    return (
        f"rules {rules}; {'/'.join(map(str, points))} points per link, "
        f"largest relative difference {worst:.1e}"
    )


def _reason(reason: str) -> str:
    """A verdict's reason for print: a contradiction's constant, written by SymPy in its own
    syntax (10**(1/7)*sigma*…), is named rather than quoted."""
    reason = re.sub(
        r"the equations force 0 = .*, which is false",
        "the equations force 0 = c for a constant c ≠ 0, which is false",
        reason,
    )
    return reason.replace("**", "^")


def _part_item(title: str, kind: str, verdict: Verdict) -> tuple[Piece, ...]:
    how = _links(verdict) if verdict.links else _reason(verdict.reason)
    return (f"{title} ({kind}, {verdict.status}): {how}.",)


def appendix_blocks(checked: Sequence[TheoremRun]) -> list[Block]:
    """The appendix's blocks: the method, then one list per theorem."""
    out: list[Block] = [Para((METHOD,))]
    for c in checked:
        th = c.theorem
        items = [
            _part_item(
                pr.part.title,
                "chain" if isinstance(pr.part, Derivation) else type(pr.part).__name__,
                pr.verdict,
            )
            for pr in c.parts
        ]
        twin = f"Numeric twin {th.twin}"
        if c.table is not None:
            outcome = {True: "passed", False: "failed", None: "computed"}[c.table.passed]
            note = c.table.note or "No tolerance stated"
            twin += f" ({outcome}): {_sentence(c.table.title)} {_sentence(note)}"
        items.append((twin,))
        out.append(Heading(3, (f"{th.title} ({th.name}: {c.status})",)))
        out.append(Items(tuple(items)))
    return out


def _sentence(text: str) -> str:
    """text as a sentence: a capital first letter (a Latin one: ω_0 must not become Ω_0) and a
    closing period."""
    text = text.strip()
    first = text[:1].upper() if text[:1].isascii() else text[:1]
    return first + text[1:] + ("" if text.endswith(".") else ".")
