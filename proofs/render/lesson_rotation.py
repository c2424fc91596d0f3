"""The rotation, the heart of the module: one R(kω_i) per pair moves the encoding by k."""

from __future__ import annotations

import sympy as sp

from numeric.result_table import Table
from proofs.definitions import OMEGA_I, POS, I, K, rotation_matrix
from proofs.render.lesson_blocks import Emph, Figure, Para, ProofEnd, Section
from proofs.render.lesson_parts import (
    FIGURE_NUMBER,
    M_K,
    PE,
    Parts,
    R,
    eq,
    fig,
    module_table,
    pair,
    quote,
    theorem,
)


def rotation_section(parts: Parts, tables: dict[str, Table]) -> Section:
    return Section(
        "rotation",
        "The rotation",
        (
            quote(
                "For any fixed offset k, there exists a linear transformation that maps PE(pos) "
                "to PE(pos + k), the same transformation regardless of what pos is."
            ),
            theorem(
                "rotation",
                "A fixed rotation shifts the encoding",
                "For all real ",
                POS,
                " and ",
                K,
                " and every pair ",
                I,
                ", the rotation ",
                R(K * OMEGA_I),
                ", which does not contain ",
                POS,
                ", moves pair ",
                I,
                " from ",
                POS,
                " to ",
                POS + K,
                "; so ",
                M_K,
                " moves the whole encoding:",
                formulas=(
                    eq(
                        sp.MatMul(rotation_matrix(K * OMEGA_I), pair(POS), evaluate=False),
                        pair(POS + K),
                    ),
                    eq(sp.Mul(M_K, PE(POS), evaluate=False), PE(POS + K)),
                ),
            ),
            parts.chain(
                "rotation", "pair_shift", Emph("Proof."), " Multiply out and use angle addition:"
            ),
            Para(
                (
                    "Nothing in ",
                    R(K * OMEGA_I),
                    " depends on ",
                    POS,
                    ": its entries are ",
                    sp.cos(K * OMEGA_I),
                    " and ",
                    sp.sin(K * OMEGA_I),
                    ". The matrix ",
                    M_K,
                    " is block diagonal, so its block ",
                    I,
                    " acts on pair ",
                    I,
                    " alone; the pair identity, once per block, gives ",
                    eq(sp.Mul(M_K, PE(POS), evaluate=False), PE(POS + K)),
                    ".",
                ),
            ),
            ProofEnd(),
            module_table(
                tables,
                "rotation",
                "The module's check: one R(5) on dims 0-1 predicts PE(pos+5) from PE(pos).",
                "The same R(5) at every pos; match: predicted equals actual to the module's tolerance.",
            ),
            Figure(
                "circle",
                FIGURE_NUMBER["circle"],
                "fig:circle",
                (
                    "The first pair ",
                    sp.Tuple(*pair(POS, 1)),
                    " on the unit circle at ",
                    eq(POS, 0),
                    ", ",
                    sp.Integer(3),
                    ", ",
                    sp.Integer(7),
                    " (circles) and at ",
                    POS + 5,
                    " (squares). The same rotation by the angle ",
                    eq(K, 5),
                    " takes each circle to its square.",
                ),
                width=0.36,
            ),
            Para(
                (
                    Emph("What this means."),
                    " ",
                    "Moving ",
                    K,
                    " positions on is one matrix multiplication, by the same matrix wherever "
                    "you start (",
                    fig("circle"),
                    "). A layer that has learned ",
                    M_K,
                    " for one offset can apply it at every position, so relative position "
                    "(\u201cthe token three back\u201d) is ordinary linear algebra. The proof "
                    "never used that ",
                    POS,
                    " or ",
                    K,
                    " is an integer.",
                ),
            ),
        ),
    )
