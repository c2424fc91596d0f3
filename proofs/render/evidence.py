"""What each kind of fact shows a reader: (caption, content) pairs, one printer per fact type.

The engine's facts carry their evidence as mathematical objects; the captions, the words about
them, live here. content is a Derivation (a chain, which each printer sets its own way), a
BlockEquation, one formula, or a tuple of formulas. A fact type with nothing to show beyond its
title and verdict shows nothing. heading(part) is the part's title as printed: a refutation's
says "Refuted:" before the claim it states.
"""

from __future__ import annotations

import functools

import sympy as sp

from proofs.engine.blocks import BlockEquation
from proofs.engine.derivation import Derivation
from proofs.engine.facts import Blockwise, Refutation, ShiftMapFact

Content = Derivation | BlockEquation | sp.Basic | tuple[sp.Basic, ...]


@functools.singledispatch
def evidence(part: object) -> list[tuple[str, Content]]:
    """The fact's evidence with its captions; [] for a fact that shows none."""
    return []


@functools.singledispatch
def heading(part: object) -> str:
    """The part's title as the printers head it."""
    return part.title  # type: ignore[attr-defined]


@heading.register
def _refutation_heading(part: Refutation) -> str:
    return f"Refuted: {part.title}"


@evidence.register
def _blockwise(part: Blockwise) -> list[tuple[str, Content]]:
    using = f"block i is an instance of lemma {part.lemma.name}" if part.lemma else "blockwise"
    return [(f"Block by block ({using}):", part.statement)]


@evidence.register
def _shift_map(part: ShiftMapFact) -> list[tuple[str, Content]]:
    found = part.evidence()
    shown: list[tuple[str, Content]] = [("The encoding f(pos):", found.encoding)]
    if found.matrix is not None and found.derivation is not None:
        m_k = sp.Function("M")(part.k)
        shown.append(("The map:", sp.Eq(m_k, found.matrix, evaluate=False)))
        if found.offset is not None:
            b_k = sp.Function("b")(part.k)
            shown.append(("and its offset:", sp.Eq(b_k, found.offset, evaluate=False)))
        shown.append(("Checked link by link:", found.derivation))
    elif found.equations:
        shown.append(
            (
                "A map would need these coefficient equations (each reads ... = 0) to hold:",
                tuple(sp.Eq(eq, 0, evaluate=False) for eq in found.equations),
            )
        )
        shown.append(
            (
                f"Their weighted sum forces a contradiction for {found.holds_for}:",
                sp.Eq(sp.Integer(0), found.value, evaluate=False),
            )
        )
    return shown


def _names(symbols: object) -> str:
    """Symbols as the math shows them (κ_1, μ), joined by commas."""
    return ", ".join(sp.pretty(s, use_unicode=True) for s in symbols)  # type: ignore[attr-defined]


# The relation that breaks each kind of claim.
_BROKEN: dict[type, type] = {
    sp.Equality: sp.Unequality,
    sp.GreaterThan: sp.StrictLessThan,
    sp.StrictGreaterThan: sp.StrictLessThan,
    sp.LessThan: sp.StrictGreaterThan,
    sp.StrictLessThan: sp.StrictGreaterThan,
}


@evidence.register
def _refutation(part: Refutation) -> list[tuple[str, Content]]:
    """The claim, then where it breaks: the point and lhs − rhs's certified enclosure there."""
    found = part.witness()
    point = dict(part.at)
    lhs, rhs = (side.xreplace(point) for side in part.claim.args)
    at = ", ".join(f"{_names([s])} = {v}" for s, v in part.at)
    # A claim whose formula takes more than a few printed lines (RoFormer's average over 64
    # pairs) is named by the part's title only: shown twice, it would fill screens.
    short = _printed_height(part.claim) <= MAX_CLAIM_LINES
    claimed = []
    if part.over:
        said = f"Claimed, for every {_names(part.over)}"
        claimed = [(f"{said}:", part.claim)] if short else [(f"{said}: as the title says.", ())]
    if found.enclosure is None:
        return [*claimed, (f"Not shown false: {found.reason}.", part.claim.func(lhs, rhs))]
    where = f"False at {at}: there l" if at else "False: l"
    caption = f"{where}hs − rhs lies in {found.enclosure.text()}, certified by ball arithmetic"
    if not short:
        return [*claimed, (f"{caption}.", ())]
    broken = _BROKEN[type(part.claim)](lhs, rhs, evaluate=False)
    return [*claimed, (f"{caption}, so", broken)]


# How many lines a refuted claim's formula may take in the terminal's pretty form to be shown.
MAX_CLAIM_LINES = 8


def _printed_height(expr: sp.Basic) -> int:
    """The lines expr takes in SymPy's pretty form, without wrapping."""
    return len(sp.pretty(expr, use_unicode=True, wrap_line=False).splitlines())
