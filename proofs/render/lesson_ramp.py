"""The raw index and the ramp: the module's independent challenge, told right (an affine shift
exists; what the ramp loses is that similarity depends on where the positions are).
"""

from __future__ import annotations

import sympy as sp

from proofs.definitions import D_MODEL, OMEGA_I, POS, I, K, L
from proofs.render.lesson_blocks import Block, Emph, Figure, Para, ProofEnd, Section
from proofs.render.lesson_parts import (
    FIGURE_NUMBER,
    P,
    Parts,
    eq,
    fig,
    named,
    quote,
    r,
    theorem,
    thm,
)


def ramp_section(parts: Parts, brief: bool) -> Section:
    a = sp.Symbol("a", real=True)
    blocks: list[Block] = [
        quote(
            "Raw integers grow unboundedly, and there's no natural linear relationship between "
            "“position 5” and “position 10” the way there is between PE(5) and PE(10)."
        ),
        Para(
            (
                "The raw index ",
                POS,
                " fails the bound of ",
                thm("bounded"),
                ". The ramp ",
                eq(r(POS), POS / L),
                " of the independent challenge is bounded on the table, so the question is "
                "what it loses. Two theorems answer it.",
            ),
        ),
        theorem(
            "ramp",
            "The ramp has no linear shift, but an affine one",
            "For every real ",
            sp.Ne(K, 0),
            " no number ",
            a,
            ", the same for all ",
            POS,
            ", gives ",
            eq(a * r(POS), r(POS + K)),
            ". The affine map ",
            named("affine"),
            " does move ",
            r(POS),
            " to ",
            r(POS + K),
            " for every ",
            POS,
            ".",
        ),
        parts.chain(
            "ramp", "linear_map_residual", Emph("Proof."), " The scalar would have to make"
        ),
        Para(
            (
                "vanish for every ",
                POS,
                ". A polynomial in ",
                POS,
                " that vanishes everywhere has zero coefficients, so ",
                eq(a, 1),
                " and ",
                eq(K / L, 0),
                ", impossible for ",
                sp.Ne(K, 0),
                ". The affine map works at every position:",
            ),
        ),
        parts.chain("ramp", "affine_map"),
        ProofEnd(),
        Para(
            (
                "So the ramp does have a shift that ignores where you are. What it loses shows "
                "in the quantity attention computes, the dot product of two encodings:",
            ),
        ),
        theorem(
            "similarity",
            "Similarity sees the offset under the sinusoids, the position under the ramp",
            "For all real ",
            P,
            " and ",
            K,
            " and every ",
            D_MODEL,
            ", the dot product of the sinusoidal encodings depends on the offset ",
            K,
            " alone, while the ramp's product depends on ",
            P,
            ":",
            formulas=(
                eq(
                    named("dot_pk"),
                    sp.Sum(sp.cos(K * OMEGA_I), (I, 0, D_MODEL / 2 - 1)),
                ),
                eq(sp.Mul(r(P), r(P + K), evaluate=False), P * (P + K) / L**2),
            ),
        ),
        parts.chain("similarity", "pair_similarity", Emph("Proof."), " One pair:"),
        parts.chain("similarity", "dot_sum", "Summing over the pairs, nothing depends on ", P, ":"),
        Para(
            (
                "For the ramp write ",
                eq(named("s_p"), sp.Mul(r(P), r(P + K), evaluate=False)),
                ". A function of ",
                K,
                " alone would have second difference ",
                sp.Integer(0),
                " in ",
                P,
                "; the ramp's is not:",
            ),
        ),
        parts.chain("similarity", "ramp_similarity"),
        parts.chain("similarity", "ramp_second_difference"),
        Para(
            (
                "and ",
                sp.Ne(2 / L**2, 0, evaluate=False),
                " since ",
                sp.StrictGreaterThan(L, 0, evaluate=False),
                ".",
            )
        ),
        ProofEnd(),
    ]
    blocks += parts.twin(
        "similarity", "Both similarities read off the tables, at four positions p."
    )
    blocks += [
        Figure(
            "similarity",
            FIGURE_NUMBER["similarity"],
            "fig:similarity",
            (
                "Left: ",
                named("dot_pk"),
                " against ",
                K,
                " for ",
                eq(P, 0),
                ", ",
                sp.Integer(10),
                ", ",
                sp.Integer(20),
                ", ",
                sp.Integer(30),
                ": the four curves coincide. Right: ",
                sp.Mul(r(P), r(P + K), evaluate=False),
                " for the same ",
                P,
                ": four different lines.",
            ),
        ),
        Para(
            (
                Emph("What this means."),
                " ",
                "Attention scores two positions by a dot product. Under the sinusoidal "
                "encoding that score sees only how far apart the positions are (",
                fig("similarity"),
                ", left); under the ramp it sees where they are (right): positions ",
                sp.Integer(1),
                " apart score ",
                sp.Integer(0),
                " at the start of the table and almost ",
                sp.Integer(1),
                " at its end. A model using the ramp has to learn relative position from scratch.",
            ),
        ),
    ]
    return Section("ramp", "The raw index and the ramp", tuple(blocks))
