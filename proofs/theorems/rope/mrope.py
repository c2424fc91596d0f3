"""Theorem (rope_mrope): M-RoPE with equal (t, h, w) positions is 1-D RoPE, and its chunked and
interleaved section layouts differ by a permutation of the pairs and their frequencies.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves.

Numeric twin: numeric.checks.rope_mrope.rope_mrope_table.

M-RoPE (Qwen2-VL) gives every pair i of a head one of three positions, temporal t, height h or
width w, and turns it by that position times θ_i. Qwen2-VL's `mrope_section` (s_t, s_h, s_w)
gives the first s_t pairs t, the next s_h h and the last s_w w (chunked); Qwen3-VL interleaves
them (pair i reads h when i ≡ 1 mod 3 and i < 3·s_h, w when i ≡ 2 mod 3 and i < 3·s_w, t
otherwise). A pair's position is a weighted sum of the three with weights adding to 1
(section_position); the one-hot choice of an axis is one such weighting, and the statements
hold for every real weighting.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.citation import Lemma
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import Refutation
from proofs.engine.rules import ALGEBRA, MATRIX_PRODUCT
from proofs.engine.theorem import Theorem
from proofs.theorems.rope.definitions import (
    KEY,
    QUERY,
    THETA,
    M,
    N,
    relative_form,
    rope_rotation,
    score_form,
)
from proofs.theorems.rope.layouts import pair_relative_derivation

NAME = "rope_mrope"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "An M-RoPE pair turns by (s_t·t + s_h·h + (1 − s_t − s_h)·w)·θ; at equal positions "
    "(p, p, p) this is p·θ, so text tokens get exactly 1-D RoPE, and the score depends on "
    "(Δt, Δh, Δw) alone. The chunked and interleaved section layouts are one rotation up to "
    "a permutation P of the pairs that also permutes their frequencies: "
    "P·R_interleaved(t, h, w; θ)·Pᵀ = R_chunked(t, h, w; θ∘σ); with the same frequencies "
    "their scores differ."
)

S_T, S_H = sp.symbols("s_t s_h", real=True)
T, H, W = sp.symbols("t h w", real=True)
T2, H2, W2 = sp.symbols("t' h' w'", real=True)
# The layouts' example: 6 pairs, mrope_section (2, 2, 2).
PAIRS = 6
SECTIONS = (2, 2, 2)
THETAS = sp.symbols(f"theta_0:{PAIRS}", positive=True)


def _add(*terms: sp.Expr) -> sp.Expr:
    return sp.Add(*terms, evaluate=False)


def _mul(*factors: sp.Expr) -> sp.Expr:
    return sp.Mul(*factors, evaluate=False)


def section_position(t: sp.Expr, h: sp.Expr, w: sp.Expr) -> sp.Expr:
    """s_t·t + s_h·h + (1 − s_t − s_h)·w, unevaluated: the position a pair reads."""
    return _add(_mul(S_T, t), _mul(S_H, h), _mul(_add(1, -S_T, -S_H), w))


def mrope_score(query: tuple, key: tuple) -> sp.MatMul:
    """(G(position(query)·θ)q)ᵀ·(G(position(key)·θ)κ) for one pair, kept as a product."""
    a, b = section_position(*query), section_position(*key)
    return sp.MatMul(
        sp.Transpose(sp.MatMul(rope_rotation(_mul(a, THETA)), QUERY, evaluate=False)),
        sp.MatMul(rope_rotation(_mul(b, THETA)), KEY, evaluate=False),
        evaluate=False,
    )


def equal_positions_derivation(pair: Derivation) -> Derivation:
    """Query at (m, m, m), key at (n, n, n): the pair's score is 1-D RoPE's."""
    return Derivation(
        "equal_positions_are_1d",
        "One pair, any section: with the query at (m, m, m) and the key at (n, n, n) (text "
        "tokens) the M-RoPE score is 1-D RoPE's ⟨q, G((n − m)θ)κ⟩",
        (
            Step(mrope_score((M, M, M), (N, N, N))),
            Step(
                score_form(M, N),
                by=ALGEBRA,
                note="s_t·m + s_h·m + (1 − s_t − s_h)·m = m, whichever axis the pair reads",
            ),
            Step(relative_form(N - M), by=Lemma(pair), note="1-D RoPE is relative"),
        ),
    )


def per_axis_relative_derivation(pair: Derivation) -> Derivation:
    """Query at (t, h, w), key at (t′, h′, w′): the score depends on the differences only."""
    start, end = section_position(T, H, W), section_position(T2, H2, W2)
    return Derivation(
        "relative_per_axis",
        "One pair, any section: with the query at (t, h, w) and the key at (t′, h′, w′) the "
        "score is ⟨q, G(position(t′ − t, h′ − h, w′ − w)·θ)κ⟩, a function of (Δt, Δh, Δw)",
        (
            Step(mrope_score((T, H, W), (T2, H2, W2))),
            Step(
                relative_form(_add(end, -start)),
                by=Lemma(pair, {M: start, N: end}),
                note="1-D RoPE at the pair's two positions",
            ),
            Step(
                relative_form(section_position(T2 - T, H2 - H, W2 - W)),
                by=ALGEBRA,
                note="the position is linear in (t, h, w)",
            ),
        ),
    )


def chunked_axes(sections: tuple[int, int, int] = SECTIONS) -> tuple[int, ...]:
    """Qwen2-VL: the axis (0 = t, 1 = h, 2 = w) of each pair, the sections one after another.

    >>> chunked_axes((2, 2, 2))
    (0, 0, 1, 1, 2, 2)
    """
    return tuple(axis for axis, size in enumerate(sections) for _ in range(size))


def interleaved_axes(sections: tuple[int, int, int] = SECTIONS) -> tuple[int, ...]:
    """Qwen3-VL: pair i reads h if i ≡ 1 (mod 3) and i < 3·s_h, w if i ≡ 2 and i < 3·s_w, else t.

    >>> interleaved_axes((2, 2, 2))
    (0, 1, 2, 0, 1, 2)
    """
    pairs = sum(sections)
    return tuple(i % 3 if i % 3 and i < 3 * sections[i % 3] else 0 for i in range(pairs))


def pair_order(sections: tuple[int, int, int] = SECTIONS) -> tuple[int, ...]:
    """σ: chunked pair j is interleaved pair σ(j), the interleaved pairs sorted by axis, stably.

    >>> pair_order((2, 2, 2))
    (0, 3, 1, 4, 2, 5)
    """
    axes = interleaved_axes(sections)
    return tuple(sorted(range(len(axes)), key=lambda i: axes[i]))


def mrope_matrix(
    axes: tuple[int, ...], thetas: tuple[sp.Expr, ...], positions: tuple[sp.Expr, ...]
) -> sp.ImmutableMatrix:
    """Block-diagonal G(positions[axes[i]]·thetas[i]), pair i on components (2i, 2i + 1)."""
    blocks = [rope_rotation(positions[a] * th) for a, th in zip(axes, thetas, strict=True)]
    return sp.ImmutableMatrix(sp.diag(*blocks))


def pair_permutation(order: tuple[int, ...]) -> sp.ImmutableMatrix:
    """P with (P·x) pair j = x pair order[j]: rows 2j, 2j + 1 pick components 2σ(j), 2σ(j) + 1."""
    size = 2 * len(order)
    entries = sp.zeros(size, size)
    for j, i in enumerate(order):
        entries[2 * j, 2 * i] = 1
        entries[2 * j + 1, 2 * i + 1] = 1
    return sp.ImmutableMatrix(entries)


def layouts_derivation() -> Derivation:
    order = pair_order()
    p = pair_permutation(order)
    positions = (T, H, W)
    interleaved = mrope_matrix(interleaved_axes(), THETAS, positions)
    chunked = mrope_matrix(chunked_axes(), tuple(THETAS[i] for i in order), positions)
    return Derivation(
        "chunked_is_interleaved_permuted",
        "Six pairs, mrope_section (2, 2, 2): interleaved axes (t, h, w, t, h, w), chunked "
        "(t, t, h, h, w, w); with σ = (0, 3, 1, 4, 2, 5), P·R_interleaved(t, h, w; θ)·Pᵀ = "
        "R_chunked(t, h, w; θ_σ(0), …, θ_σ(5))",
        (
            Step(sp.MatMul(p, interleaved, p.T, evaluate=False)),
            Step(chunked, by=MATRIX_PRODUCT, note="P moves pair σ(j) to place j, with its θ"),
        ),
    )


def same_frequencies_refuted() -> Refutation:
    """The two layouts with the same frequencies give the same score."""
    e = sp.ImmutableMatrix([1 if j == 2 else 0 for j in range(2 * PAIRS)])
    positions = (T, H, W)
    chunked = sp.MatMul(e.T, mrope_matrix(chunked_axes(), THETAS, positions), e, evaluate=False)
    inter = sp.MatMul(e.T, mrope_matrix(interleaved_axes(), THETAS, positions), e, evaluate=False)
    one, zero = sp.Integer(1), sp.Integer(0)
    return Refutation(
        "layouts_agree",
        "The section layout does not matter: with the same frequencies θ_i, ⟨q, R_chunked(t, h, "
        "w)κ⟩ = ⟨q, R_interleaved(t, h, w)κ⟩ (at q = κ = e_2, pair 1's first component, which "
        "reads t chunked and h interleaved; t = 1, h = w = 0, every θ_i = 1: cos 1 against 1)",
        sp.Eq(chunked, inter, evaluate=False),
        ((T, one), (H, zero), (W, zero), *((theta, one) for theta in THETAS)),
    )


def build(d_model: int = 8) -> Theorem:
    """The M-RoPE theorem (d_model is unused: pair statements and a six-pair example)."""
    del d_model
    pair = pair_relative_derivation()
    return Theorem(
        name=NAME,
        title="M-RoPE: 1-D RoPE at equal positions; chunked and interleaved sections permuted",
        statement=STATEMENT,
        formulas=(sp.Eq(mrope_score((M, M, M), (N, N, N)), relative_form(N - M), evaluate=False),),
        parts=(
            pair,
            equal_positions_derivation(pair),
            per_axis_relative_derivation(pair),
            layouts_derivation(),
            same_frequencies_refuted(),
        ),
        twin="numeric.checks.rope_mrope.rope_mrope_table",
        remarks=(
            "The pair statements hold for every real s_t, s_h, so for every pair of every "
            "section layout (s_t, s_h one-hot); a head is one such pair per i, with θ_i.",
            "Qwen2-VL applies the sections in the rotate_half layout (mrope_section doubled over "
            "cat(freqs, freqs)); the pairs here are (2i, 2i + 1), and rope_layouts' permutation "
            "converts one layout into the other.",
            "The layouts' permutation σ sorts the interleaved pairs by axis, keeping their order "
            "within an axis; it carries each pair's frequency along, so the two layouts are one "
            "rotation only for frequencies permuted by σ, never for RoPE's decreasing θ_i.",
        ),
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
