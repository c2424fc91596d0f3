"""The lesson's opening: the introduction and the definitions, once, before they are used."""

from __future__ import annotations

import sympy as sp

from proofs.definitions import BASE, D_MODEL, OMEGA_I, POS, I, K, L, omega, rotation_matrix
from proofs.render.lesson_blocks import Equations, Para, Section
from proofs.render.lesson_parts import (
    M_K,
    MAX_LEN,
    OMEGA_0,
    OMEGA_LAST,
    PE,
    PE_I,
    THETA,
    R,
    eq,
    named,
    pair,
    r,
)

# ── Front matter ─────────────────────────────────────────────────────────────────────────────


def introduction(brief: bool) -> Section:
    last = (
        ""
        if brief
        else " The appendix says, step by step, how each check was made and what it found."
    )
    return Section(
        "introduction",
        "Introduction",
        (
            Para(
                (
                    "Module 09 showed that attention on its own cannot tell word orders apart: "
                    "it compares tokens, not places, so position has to be added to each token's "
                    "embedding before attention runs. Module 10 builds the scheme of the original "
                    "Transformer, fixed sines and cosines at different frequencies, and checks "
                    "it numerically on a table of 50 positions with ",
                    eq(D_MODEL, 8),
                    ": every value lies in ",
                    sp.Interval(-1, 1),
                    ", all 50 rows are different, and one rotation matrix, which depends on the "
                    "offset ",
                    K,
                    " only, moves the encoding of ",
                    POS,
                    " to that of ",
                    POS + K,
                    " at five tested positions.",
                ),
            ),
            Para(
                (
                    "These notes prove the same properties for every position, every offset and "
                    "every ",
                    D_MODEL,
                    ", so the checks at a few points become facts. Each proof is a short chain "
                    "of equalities with the rule of each step written beside it. Every step was "
                    "checked twice, independently: once by exact algebra, and once by "
                    "evaluating both sides at random points to many digits. The tables are the "
                    "module's own, recomputed when these notes were made, so their digits are "
                    "the module's. One section goes beyond the module: the independent "
                    "challenge, where the notes prove what a linear ramp really loses." + last,
                ),
            ),
        ),
    )


def definitions() -> Section:
    return Section(
        "definitions",
        "Definitions",
        (
            Para(
                (
                    "Dimensions come in pairs, one sine and one cosine at the same frequency. "
                    "For a position ",
                    POS,
                    " and a pair index ",
                    I,
                    " from ",
                    sp.Integer(0),
                    " to ",
                    D_MODEL / 2 - 1,
                    ":",
                ),
            ),
            Equations(
                (
                    eq(PE(POS, 2 * I), sp.sin(POS * OMEGA_I)),
                    eq(PE(POS, 2 * I + 1), sp.cos(POS * OMEGA_I)),
                    eq(OMEGA_I, omega()),
                )
            ),
            Para(
                (
                    "Since ",
                    eq(OMEGA_I, sp.Pow(BASE ** (2 * I / D_MODEL), -1, evaluate=False)),
                    ", the angle ",
                    POS * OMEGA_I,
                    " is the module's ",
                    POS,
                    " divided by ",
                    BASE ** (2 * I / D_MODEL),
                    ". We call ",
                    OMEGA_I,
                    " the frequency of pair ",
                    I,
                    ", and write ",
                    eq(PE_I(POS), sp.Tuple(*pair(POS))),
                    " for pair ",
                    I,
                    " and ",
                    PE(POS),
                    " for the whole column of ",
                    D_MODEL,
                    " values. A dot product is ",
                    eq(named("u_dot_v"), named("uT_v")),
                    ". The module's rotation matrix and the block-diagonal matrix that applies it "
                    "to every pair are",
                ),
            ),
            Equations(
                (
                    eq(R(THETA), rotation_matrix(THETA)),
                    eq(M_K, block_shift()),
                )
            ),
            Para(
                (
                    "Each ",
                    sp.Integer(0),
                    " is a ",
                    sp.Integer(2),
                    "-by-",
                    sp.Integer(2),
                    " block of zeros. The module's alternative, the linear ramp, is one "
                    "number per position: ",
                    eq(r(POS), POS / L),
                    " with ",
                    eq(L, MAX_LEN),
                    ".",
                ),
            ),
        ),
    )


def block_shift() -> sp.ImmutableMatrix:
    """M_k by its blocks: R(kω_0), …, R(kω_last) on the diagonal, zero blocks elsewhere."""
    dots = named("ddots")
    return sp.ImmutableMatrix([[R(K * OMEGA_0), 0, 0], [0, dots, 0], [0, 0, R(K * OMEGA_LAST)]])
