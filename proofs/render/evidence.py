"""What each kind of fact shows a reader: (caption, content) pairs, one printer per fact type.

The engine's facts carry their evidence as mathematical objects; the captions, the words about
them, live here. content is a Derivation (a chain, which each printer sets its own way), a
BlockEquation, one formula, or a tuple of formulas. A fact type with nothing to show beyond its
title and verdict shows nothing.
"""

from __future__ import annotations

import functools

import sympy as sp

from proofs.engine.blocks import BlockEquation
from proofs.engine.derivation import Derivation
from proofs.engine.facts import Blockwise, ShiftMapFact

Content = Derivation | BlockEquation | sp.Basic | tuple[sp.Basic, ...]


@functools.singledispatch
def evidence(part: object) -> list[tuple[str, Content]]:
    """The fact's evidence with its captions; [] for a fact that shows none."""
    return []


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
