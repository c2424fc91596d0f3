"""The exercises with worked solutions computed live, the independent challenge with its model
answer, and the checkpoint quiz with answers that point to the theorems.
"""

from __future__ import annotations

import sympy as sp

from numeric.result_table import Table
from proofs.definitions import D_MODEL, OMEGA_I, POS, I, K, L, omega, rotation_matrix
from proofs.render.lesson_blocks import (
    Emph,
    Equations,
    Figure,
    Heading,
    Items,
    Para,
    Piece,
    Section,
)
from proofs.render.lesson_parts import (
    FIGURE_NUMBER,
    M_K,
    OMEGA_1,
    PE,
    P,
    R,
    eq,
    fig,
    module_table,
    named,
    quote,
    r,
    thm,
)

# ── Exercises, challenge, quiz ───────────────────────────────────────────────────────────────


def exercises_section(tables: dict[str, Table]) -> Section:
    w1 = omega(1, 8)
    theta = 3 * w1
    # Exercise 3's answer, read off the tables: the last position (exercise 1's table has the
    # module's max_len rows) and the full turns counted for each dim.
    last = int(tables["exercise_1"].rows[0][0]) - 1
    turns = ", ".join(f"{row[5]} for dim {row[0]}" for row in tables["exercise_3"].rows)
    return Section(
        "exercises",
        "Exercises with worked solutions",
        (
            Heading(2, ("Exercise 1 — the full table at a larger ", D_MODEL)),
            quote(
                "Compute sinusoidal_pe(max_len, d_model) for your own choice of max_len and "
                "d_model (try a larger d_model, like 64), and confirm all rows are unique and "
                "all values fall within [-1, 1]."
            ),
            Para(
                (
                    Emph("Solution."),
                    " ",
                    thm("bounded"),
                    " and ",
                    thm("unique"),
                    " hold for every ",
                    D_MODEL,
                    " and every table length, so the outcome is known before computing: every "
                    "value lies in ",
                    sp.Interval(-1, 1),
                    " and no two rows coincide. The computation at ",
                    eq(D_MODEL, 64),
                    " agrees:",
                ),
            ),
            module_table(tables, "exercise_1", ("Exercise 1 recomputed at ", eq(D_MODEL, 64), ".")),
            Heading(2, ("Exercise 2 — another pair and another offset",)),
            quote(
                "Repeat the rotation-matrix check using a different dimension pair (e.g., dims "
                "2-3) and a different offset k."
            ),
            Para(
                (
                    Emph("Solution."),
                    " Dims 2 and 3 are pair ",
                    eq(I, 1),
                    ". With ",
                    eq(D_MODEL, 8),
                    " its frequency is ",
                    eq(OMEGA_1, w1),
                    ", so for ",
                    eq(K, 3),
                    " ",
                    thm("rotation"),
                    " gives the single matrix",
                ),
            ),
            Equations((eq(R(theta), rotation_matrix(theta)),)),
            Para(
                (
                    "which moves the pair from every ",
                    POS,
                    " to ",
                    POS + 3,
                    ". The table confirms it at the module's five positions:",
                ),
            ),
            module_table(
                tables,
                "exercise_2",
                "Exercise 2: one R(3/10) on dims 2-3.",
                "The same R(3/10) at every pos; match: predicted equals actual to the module's tolerance.",
            ),
            Heading(2, ("Exercise 3 — the frequency spectrum",)),
            quote(
                "Plot PE(pos, dim) as a function of pos, for several fixed dimension indices "
                "spanning low to high i. Confirm the lower dimension indices oscillate visibly "
                "faster."
            ),
            Para(
                (
                    Emph("Solution."),
                    " By ",
                    thm("frequencies"),
                    ", pair ",
                    I,
                    " has period ",
                    2 * sp.pi / OMEGA_I,
                    ", so across positions ",
                    sp.Integer(0),
                    " to ",
                    sp.Integer(last),
                    " it makes ",
                    sp.floor(last * OMEGA_I / (2 * sp.pi)),
                    " full turns: ",
                    turns,
                    " (",
                    fig("spectrum"),
                    "). The curves are drawn through many points between the integer positions, "
                    "so what you see is the wave itself, not an artefact of sampling.",
                ),
            ),
            module_table(
                tables, "exercise_3", "Exercise 3: periods and full turns over 50 positions."
            ),
            Figure(
                "spectrum",
                FIGURE_NUMBER["spectrum"],
                "fig:spectrum",
                (
                    PE(POS, named("dim")),
                    " against ",
                    POS,
                    " for ",
                    eq(D_MODEL, 8),
                    ", dims ",
                    sp.Integer(0),
                    ", ",
                    sp.Integer(2),
                    ", ",
                    sp.Integer(4),
                    ", ",
                    sp.Integer(6),
                    " (pairs ",
                    sp.Integer(0),
                    " to ",
                    sp.Integer(3),
                    "); dots mark the integer positions the table holds.",
                ),
            ),
        ),
    )


def challenge_section() -> Section:
    return Section(
        "challenge",
        "The independent challenge",
        (
            quote(
                "A teammate suggests replacing sinusoidal positional encoding with a simple "
                "linear ramp (position / max_len, one single number appended to each token's "
                "embedding). Write two or three sentences on what specific capability this "
                "simplification would lose."
            ),
            Para(
                (
                    Emph("Model answer."),
                    " The ramp does encode position, and even its shift has a rule "
                    "that ignores where you are: ",
                    eq(r(POS + K), r(POS) + K / L),
                    " (",
                    thm("ramp"),
                    "); what it lacks is a linear one, and with it the property that matters "
                    "to attention. Attention compares positions by dot products, and ",
                    eq(named("dot_pk"), sp.Sum(sp.cos(K * OMEGA_I), (I, 0, D_MODEL / 2 - 1))),
                    " depends on the offset ",
                    K,
                    " alone, whereas ",
                    eq(sp.Mul(r(P), r(P + K), evaluate=False), P * (P + K) / L**2),
                    " depends on where ",
                    P,
                    " sits (",
                    thm("similarity"),
                    ", ",
                    fig("similarity"),
                    "). So with the ramp, \u201cthree tokens back\u201d looks different at every "
                    "position, and the model must learn relative position from scratch instead "
                    "of getting it from the encoding.",
                ),
            ),
        ),
    )


QUIZ = (
    "What are the two formulas defining sinusoidal positional encoding, and what varies across dimension pairs?",
    "What did the verified uniqueness check confirm, and why does that matter given module 09's findings?",
    "What specific mathematical property did the rotation-matrix verification confirm, and why is it the real justification for choosing sine/cosine specifically?",
    "What real problem does a raw, unbounded position integer have that sinusoidal encoding avoids?",
    "Why would a simple linear ramp value lose real capability compared to sinusoidal encoding, even though it does encode absolute position?",
)


def quiz_section() -> Section:
    answers: tuple[tuple[Piece, ...], ...] = (
        (
            eq(PE(POS, 2 * I), sp.sin(POS * OMEGA_I)),
            " and ",
            eq(PE(POS, 2 * I + 1), sp.cos(POS * OMEGA_I)),
            " with ",
            eq(OMEGA_I, omega()),
            ". The frequency varies: it falls with ",
            I,
            ", so low pairs turn fast and high pairs slowly (",
            thm("frequencies"),
            ").",
        ),
        (
            "Every position gets its own encoding: 50 of 50 rows in the module, and every "
            "integer position whatever the table length (",
            thm("unique"),
            "). Module 09 showed that without a distinguishing signal attention cannot tell "
            "word orders apart.",
        ),
        (
            "For each offset ",
            K,
            " one matrix ",
            M_K,
            ", built from ",
            K,
            " and the frequencies only, maps ",
            PE(POS),
            " to ",
            PE(POS + K),
            " at every position (",
            thm("rotation"),
            "). So relative position is a linear map a layer can learn once and use everywhere.",
        ),
        (
            "It grows without bound and swamps token embeddings at large positions; the "
            "sinusoidal values stay in ",
            sp.Interval(-1, 1),
            " (",
            thm("bounded"),
            ").",
        ),
        (
            "Not because its shift depends on the position: ",
            named("affine"),
            " works everywhere (",
            thm("ramp"),
            "). It has no linear shift, and the dot product of two ramp values depends on "
            "where the positions are, not only on their offset, unlike the sinusoidal dot "
            "product (",
            thm("similarity"),
            ").",
        ),
    )
    items = tuple(
        (Emph(question), " ", *answer) for question, answer in zip(QUIZ, answers, strict=True)
    )
    return Section("quiz", "Checkpoint quiz", (Items(items, numbered=True),))
