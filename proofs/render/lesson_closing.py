"""The lesson's close: notes for the course author, references, the summary, and the appendix
on how each step was checked.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp

from proofs.definitions import D_MODEL, POS, K, L
from proofs.engine.theorem import TheoremRun
from proofs.render.lesson_blocks import AppendixStart, Emph, Items, Link, Para, Piece, Section
from proofs.render.lesson_parts import PE, P, eq, named, r, thm


def author_notes_section(brief: bool) -> Section:
    even: tuple[Piece, ...] = ("proved in the full notes",) if brief else (thm("dot_product"),)
    return Section(
        "author_notes",
        "Notes for the course author",
        (
            Para(
                (
                    "Places where the module's text is imprecise or wrong, with what to write instead.",
                )
            ),
            Items(
                (
                    (
                        Emph("The ramp (Discussion of the challenge, quiz answer 5)."),
                        " ",
                        "The module says a ramp's relationship between two positions \u201cdepends on "
                        "where those positions are relative to max_len\u201d and that no single "
                        "transformation maps the ramp value at ",
                        P,
                        " to that at ",
                        P + K,
                        " independent of ",
                        P,
                        ". But the affine map ",
                        named("affine"),
                        " does exactly that (",
                        thm("ramp"),
                        "); only a linear map is impossible. What the ramp really loses is "
                        "that its similarity ",
                        eq(sp.Mul(r(P), r(P + K), evaluate=False), P * (P + K) / L**2),
                        " depends on ",
                        P,
                        ", while ",
                        named("dot_pk"),
                        " depends on ",
                        K,
                        " alone (",
                        thm("similarity"),
                        "). Suggested wording: \u201cThe ramp has no linear shift, and the dot "
                        "product of two ramp values depends on where the positions are, not only "
                        "on how far apart they are.\u201d",
                    ),
                    (
                        Emph("\u201cNo natural linear relationship\u201d for the raw index."),
                        " ",
                        "The raw index shifts by adding ",
                        K,
                        " (an affine map), and with a constant feature appended even linearly. "
                        "Its real problems are that it is unbounded and that its dot products "
                        "depend on the positions. Suggested wording: \u201cno bounded encoding "
                        "whose similarity depends on the offset alone\u201d.",
                    ),
                    (
                        Emph("Uniqueness."),
                        " ",
                        "\u201c50 of 50 tested\u201d is true for every table length, for integer "
                        "positions (",
                        thm("unique"),
                        "). Over real positions it fails: for ",
                        eq(D_MODEL, 8),
                        ", ",
                        eq(PE(POS + 2000 * sp.pi), PE(POS)),
                        ". Worth one sentence, since the rotation argument works for real positions.",
                    ),
                    (
                        Emph("\u201cThe same transformation regardless of pos\u201d."),
                        " ",
                        "Right, and it also needs no integer offset; but the dot product it "
                        "induces is even in ",
                        K,
                        " (",
                        *even,
                        "), so similarity alone cannot tell \u201c",
                        K,
                        " before\u201d from \u201c",
                        K,
                        " after\u201d. Worth a sentence in the section on the rotation.",
                    ),
                    (
                        Emph("Bounded."),
                        " ",
                        "The printed minimum \u201c-0.9999...\u201d is right for 50 positions; the "
                        "bound itself is exact for every position (",
                        thm("bounded"),
                        "), and every row has length ",
                        sp.Pow(D_MODEL / 2, sp.Rational(1, 2), evaluate=False),
                        ".",
                    ),
                )
            ),
        ),
    )


REFERENCES = (
    "Vaswani, A. et al. (2017). Attention Is All You Need. NeurIPS. Section 3.5, \u201cPositional "
    "Encoding\u201d: the formula and the relative-position property. https://arxiv.org/abs/1706.03762",
    "Rush, A. et al. The Annotated Transformer (Harvard NLP): a line-by-line implementation "
    "matching the module's sinusoidal_pe. https://nlp.seas.harvard.edu/annotated-transformer/",
    "Kazemnejad, A. (2019). Transformer Architecture: The Positional Encoding: a visual "
    "derivation of the rotation property. "
    "https://kazemnejad.com/blog/transformer_architecture_positional_encoding/",
    "Track 02, Module 09: Why Positional Information Is Needed.",
    "Track 02, Module 11: Rotary Position Embeddings (RoPE).",
)


def references_section() -> Section:
    items = []
    for ref in REFERENCES:
        text, _, url = ref.partition(" https://")
        items.append((text, " ", Link("https://" + url)) if url else (text,))
    return Section("references", "References", (Items(tuple(items), numbered=True),))


def conclusion_section(brief: bool) -> Section:
    more = (
        ""
        if brief
        else " The full notes go on to distances, the group laws of the shifts, other layouts "
        "and schedules, and the bridge to RoPE."
    )
    return Section(
        "summary",
        "Summary",
        (
            Para(
                (
                    "The sinusoidal encoding is bounded (",
                    thm("bounded"),
                    "), gives every position its own vector (",
                    thm("unique"),
                    "), and moves by ",
                    K,
                    " positions under one rotation that ignores the starting position (",
                    thm("rotation"),
                    "). Its dot products see only offsets, which a ramp's do not (",
                    thm("similarity"),
                    ")." + more,
                ),
            ),
        ),
    )


# ── Appendix: how each step was checked ──────────────────────────────────────────────────────


def appendix_section(checked: Sequence[TheoremRun]) -> Section:
    from proofs.render.lesson_appendix import appendix_blocks

    return Section(
        "appendix",
        "How each step was checked",
        (AppendixStart(), *appendix_blocks(checked)),
    )
