"""Beyond the module (full notes only): the dot product, the group laws, layouts and frequency
schedules (with the conventions of real implementations), and the bridge to RoPE.
"""

from __future__ import annotations

import sympy as sp

from numeric.checks.layouts import conventions_table
from proofs.definitions import D_MODEL, OMEGA_I, POS, I, K
from proofs.render.lesson_blocks import Block, Emph, Para, ProofEnd, Section, TableBlock
from proofs.render.lesson_parts import M_K, THETA, P, Parts, R, eq, fig, named, theorem, thm

# ── Beyond the module (full notes) ───────────────────────────────────────────────────────────


def dot_product_section(parts: Parts) -> Section:
    blocks: list[Block] = [
        Para(
            (
                "The sinusoidal half of ",
                thm("similarity"),
                " has two more consequences: the distance between two encodings depends on "
                "the offset alone, and the dot product cannot tell an offset before from one "
                "after.",
            ),
        ),
        theorem(
            "dot_product",
            "Distance depends on the offset, and the dot product is even",
            "For all real ",
            POS,
            " and ",
            K,
            ":",
            formulas=(
                eq(
                    named("dist"),
                    sp.Sum(2 - 2 * sp.cos(K * OMEGA_I), (I, 0, D_MODEL / 2 - 1)),
                ),
                eq(named("dot_back"), named("dot_ahead")),
            ),
        ),
        parts.chain("dot_product", "pair_distance", Emph("Proof."), " One pair:"),
        parts.chain("dot_product", "distance_sum", "Summed over the pairs:"),
        parts.chain("dot_product", "pair_dot_even", "And the pair k before:"),
        ProofEnd(),
    ]
    blocks += parts.twin("dot_product", "Dot products read off the table at several positions.")
    blocks.append(
        Para(
            (
                Emph("What this means."),
                " ",
                "The left panel of ",
                fig("similarity"),
                " is the same curve for every ",
                P,
                ". It is symmetric in ",
                K,
                ", so a dot product of encodings alone says how far, not which way; "
                "direction has to come from a learned map such as ",
                M_K,
                ".",
            ),
        )
    )
    return Section("dot_product", "The dot product and the distance", tuple(blocks))


def group_section(parts: Parts) -> Section:
    j = sp.Symbol("j", real=True)
    blocks: list[Block] = [
        theorem(
            "group",
            "The shifts form a group of rotations",
            "For all real ",
            j,
            " and ",
            K,
            ", and blockwise for every ",
            D_MODEL,
            ":",
            formulas=(
                eq(named("M_j") * M_K, named("M_jk")),
                eq(M_K * named("M_kT"), named("Id")),
                eq(named("M_minus_k"), named("M_kT")),
            ),
        ),
        parts.chain("group", "compose", Emph("Proof."), " Composition, block by block:"),
        parts.chain("group", "orthogonal", "Orthogonality:"),
        parts.chain("group", "minus_is_transpose", "Shifting back:"),
        Para(
            (
                "Each law holds for every block, and products and transposes of block-diagonal "
                "matrices are taken block by block, so it holds for ",
                M_K,
                ".",
            ),
        ),
        ProofEnd(),
    ]
    blocks += parts.twin("group", "The group laws checked in floating point.")
    blocks.append(
        Para(
            (
                Emph("What this means."),
                " ",
                "Shifting by ",
                j,
                " and then by ",
                K,
                " is shifting by ",
                j + K,
                "; shifting back is the transpose, and no shift changes lengths. The offsets "
                "behave like numbers under addition, exactly as positions should.",
            ),
        )
    )
    return Section("group", "Group laws", tuple(blocks))


def layouts_section(parts: Parts) -> Section:
    w = sp.Symbol("omega", positive=True)
    c, s = sp.MatrixSymbol("C", 2, 2), sp.MatrixSymbol("S", 2, 2)
    blocks: list[Block] = [
        Para(
            (
                "Many implementations store all sines first and all cosines after, "
                "and some use another frequency schedule. Neither change matters.",
            ),
        ),
        theorem(
            "layouts",
            "Layouts and schedules keep the rotation",
            "For every frequency ",
            sp.StrictGreaterThan(w, 0, evaluate=False),
            ", ",
            R(K * w),
            " moves the pair at frequency ",
            w,
            " by ",
            K,
            ". For the layout of all sines then all cosines, the shift matrix is, with ",
            named("C"),
            " and ",
            named("S"),
            " the diagonal matrices of the ",
            sp.cos(K * OMEGA_I),
            " and ",
            sp.sin(K * OMEGA_I),
            ",",
            formulas=(sp.BlockMatrix([[c, s], [-s, c]]),),
        ),
        parts.chain(
            "layouts",
            "any_frequency_shift",
            Emph("Proof."),
            " The rotation identity never used the value of the frequency:",
        ),
        Para(
            (
                "The second layout is a permutation ",
                named("P"),
                " of the first, and a permutation is orthogonal, so ",
                named("P") * M_K * named("P_T"),
                " shifts it. Regrouping rows and columns gathers the cosines in ",
                named("C"),
                " and the sines in ",
                named("S"),
                ". An odd ",
                D_MODEL,
                " leaves one sine without its cosine; padding it with a zero keeps a shift "
                "matrix, while a lone sine admits none.",
            ),
        ),
        ProofEnd(),
    ]
    blocks += parts.twin("layouts", "Layouts and schedules checked in floating point.")
    blocks.append(
        Para(
            (
                "Real implementations use several of these conventions, and they disagree "
                "silently: a checkpoint trained with one is wrong under another. The next table "
                "builds a small encoding in each convention from that convention's formula, "
                "then names the convention again from the numbers alone, by fitting each "
                "column's frequency and phase; the shift check passes on every one, as the "
                "theorem says it must.",
            ),
        )
    )
    if not parts.brief:
        blocks.append(
            TableBlock(
                conventions_table(),
                "The conventions of real implementations, identified from their tables.",
                None,
                "conventions_table()",
            )
        )
    blocks.append(
        Para(
            (
                Emph("What this means."),
                " ",
                "The rotation property belongs to the pairing of each sine with its cosine, "
                "not to the base 10000, the spacing of the frequencies, the order of the "
                "dimensions, the first position or a common scale.",
            ),
        )
    )
    return Section("layouts", "Layouts and frequency schedules", tuple(blocks))


def rope_section(parts: Parts) -> Section:
    m = sp.Symbol("m", real=True)
    q = sp.Symbol("q")
    kappa = named("kappa")
    blocks: list[Block] = [
        Para(
            (
                "Module 11 applies the rotation of ",
                thm("rotation"),
                " to the query and the key themselves instead of adding a vector to the "
                "input. Write ",
                q,
                " for a query at position ",
                P,
                " and ",
                kappa,
                " for a key at position ",
                m,
                " (the letter ",
                K,
                " stays the offset).",
            ),
        ),
        theorem(
            "rope",
            "Rotated scores depend only on the offset",
            "For all real ",
            q,
            ", ",
            kappa,
            ", ",
            THETA,
            ", ",
            P,
            " and ",
            m,
            ":",
            formulas=(eq(named("score"), named("score_rel")),),
        ),
        parts.chain("rope", "pair_relative", Emph("Proof."), " Expand and use angle subtraction:"),
        Para(
            (
                "Whole vectors follow block by block with ",
                M_K,
                " in place of ",
                R(K * OMEGA_I),
                ", using ",
                eq(named("M_pT"), named("M_minus_p")),
                " and ",
                eq(named("M_minus_p") * named("M_m"), named("M_mp")),
                " from ",
                thm("group"),
                ".",
            ),
        ),
        ProofEnd(),
    ]
    blocks.append(
        Para(
            (
                Emph("What this means."),
                " ",
                "With RoPE the score itself, not just a learnable map, depends on the offset ",
                m - P,
                " alone: relative position is built into attention.",
            ),
        )
    )
    return Section("rope", "The bridge to RoPE (module 11)", tuple(blocks))
