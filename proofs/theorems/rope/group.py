"""Theorem (rope_group): RoPE's rotations compose by adding positions, so a KV-cache shift is exact.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves.

Numeric twin: numeric.checks.rope_group.rope_group_table.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.blocks import BlockEquation, Product
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import Blockwise
from proofs.engine.rules import ALGEBRA, ANGLE_ADDITION, MATRIX_PRODUCT
from proofs.engine.theorem import Theorem
from proofs.theorems.rope.definitions import (
    K1,
    K2,
    K_VEC,
    KEY,
    THETA,
    THETA_I,
    frequency,
    rope_blocks,
    rope_rotation,
    vector_blocks,
)
from proofs.theorems.rope.definitions import (
    pair_bindings as layout_bindings,
)

NAME = "rope_group"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "G(nθ_i)·G(Δθ_i) = G((n + Δ)θ_i) for all real n, Δ, so a key cached at n and rotated "
    "by Δ is exactly the key at n + Δ, in either layout."
)

DELTA = sp.Symbol("Delta", real=True)
N = sp.Symbol("n", real=True)


def _sum_entries(a: sp.Expr, c: sp.Expr) -> sp.ImmutableMatrix:
    """G(a)·G(c) written out: the angle-sum formulas in G's shape."""
    cos_sum = sp.cos(a) * sp.cos(c) - sp.sin(a) * sp.sin(c)
    sin_sum = sp.sin(a) * sp.cos(c) + sp.cos(a) * sp.sin(c)
    return sp.ImmutableMatrix([[cos_sum, -sin_sum], [sin_sum, cos_sum]])


def compose_derivation() -> Derivation:
    """G(nθ)·G(Δθ) = G((n + Δ)θ)."""
    a, c = N * THETA, DELTA * THETA
    return Derivation(
        "pair_compose",
        "One pair: rotating by nθ after Δθ is rotating by (n + Δ)θ: G(nθ)·G(Δθ) = G((n + Δ)θ)",
        (
            Step(sp.MatMul(rope_rotation(a), rope_rotation(c), evaluate=False)),
            Step(_sum_entries(a, c), by=MATRIX_PRODUCT, note="both rows have G's shape"),
            Step(
                sp.ImmutableMatrix(
                    [[sp.cos(a + c), -sp.sin(a + c)], [sp.sin(a + c), sp.cos(a + c)]]
                ),
                by=ANGLE_ADDITION,
                note="cos a cos c − sin a sin c = cos(a + c), sin a cos c + cos a sin c = sin(a + c)",
            ),
            Step(rope_rotation((N + DELTA) * THETA), by=ALGEBRA, note="nθ + Δθ = (n + Δ)θ"),
        ),
    )


def cache_shift_derivation() -> Derivation:
    """G(Δθ)·(G(nθ)κ) = G((n + Δ)θ)κ: a cached key rotated once more."""
    a, c = N * THETA, DELTA * THETA
    cached = sp.MatMul(rope_rotation(a), KEY, evaluate=False)
    ca, sa, cc, sc = sp.cos(a), sp.sin(a), sp.cos(c), sp.sin(c)
    product = sp.ImmutableMatrix(
        [
            cc * (ca * K1 - sa * K2) - sc * (sa * K1 + ca * K2),
            sc * (ca * K1 - sa * K2) + cc * (sa * K1 + ca * K2),
        ]
    )
    summed = sp.ImmutableMatrix(
        [
            sp.cos(a + c) * K1 - sp.sin(a + c) * K2,
            sp.sin(a + c) * K1 + sp.cos(a + c) * K2,
        ]
    )
    return Derivation(
        "pair_cache_shift",
        "One pair of a cached key: G(Δθ)·(G(nθ)κ) = G((n + Δ)θ)κ, the key at n moved to n + Δ",
        (
            Step(sp.MatMul(rope_rotation(c), cached, evaluate=False)),
            Step(product, by=MATRIX_PRODUCT, note="rotate the cached pair by Δθ"),
            Step(summed, by=ANGLE_ADDITION, note="the angles add"),
            Step(
                sp.MatMul(rope_rotation((N + DELTA) * THETA), KEY, evaluate=False),
                by=MATRIX_PRODUCT,
                note="read back as G((n + Δ)θ)κ",
            ),
        ),
    )


def _theta_bindings(d: int):
    size = sp.Integer(d)
    return lambda i: {THETA: frequency(sp.sympify(i), size)}


def head_compose_fact(layout: str, d: int, lemma: Derivation) -> Blockwise:
    """RoPE(·, n)∘RoPE(·, Δ) = RoPE(·, n + Δ) for a head of width d in the layout."""
    where = "(2i, 2i+1)" if layout == "interleaved" else "(i, i + d/2)"
    return Blockwise(
        f"head_compose_{layout}",
        f"The whole head, {layout} layout (d = {d}, pair i on {where}): "
        "RoPE(n)·RoPE(Δ) = RoPE(n + Δ)",
        BlockEquation(
            Product((rope_blocks(N, layout, d), rope_blocks(DELTA, layout, d))),
            rope_blocks(N + DELTA, layout, d),
        ),
        lemma,
        _theta_bindings(d),
    )


def head_cache_shift_fact(layout: str, d: int, lemma: Derivation) -> Blockwise:
    """RoPE(RoPE(κ, n), Δ) = RoPE(κ, n + Δ) for a head of width d in the layout."""
    where = "(2i, 2i+1)" if layout == "interleaved" else "(i, i + d/2)"
    keys = vector_blocks(K_VEC, layout, d)
    size = sp.Integer(d)

    def bindings(i: sp.Expr) -> dict[sp.Symbol, sp.Expr]:
        at = layout_bindings(layout, d)(i)
        return {THETA: frequency(sp.sympify(i), size), K1: at[K1], K2: at[K2]}

    return Blockwise(
        f"head_cache_shift_{layout}",
        f"A cached key, {layout} layout (d = {d}, pair i on {where}): "
        "RoPE(RoPE(κ, n), Δ) = RoPE(κ, n + Δ) — the cache shift is exact",
        BlockEquation(
            Product((rope_blocks(DELTA, layout, d), rope_blocks(N, layout, d), keys)),
            Product((rope_blocks(N + DELTA, layout, d), keys)),
        ),
        lemma,
        bindings,
    )


def build(d_model: int = 8) -> Theorem:
    """The RoPE group theorem; d_model sets the head width of the whole-head statements."""
    d = d_model
    compose, shift = compose_derivation(), cache_shift_derivation()
    return Theorem(
        name=NAME,
        title="RoPE's rotations add: re-rotating cached keys is exact",
        statement=STATEMENT,
        formulas=(
            sp.Eq(
                sp.MatMul(
                    rope_rotation(N * THETA_I), rope_rotation(DELTA * THETA_I), evaluate=False
                ),
                rope_rotation((N + DELTA) * THETA_I),
                evaluate=False,
            ),
        ),
        parts=(
            compose,
            head_compose_fact("interleaved", d, compose),
            head_compose_fact("rotate_half", d, compose),
            shift,
            head_cache_shift_fact("interleaved", d, shift),
            head_cache_shift_fact("rotate_half", d, shift),
        ),
        twin="numeric.checks.rope_group.rope_group_table",
        # The default run checks positions below 8192; tests/numeric/test_rope_twins_at_full_length.py
        # runs each twin at 131072 (slow).
        twin_kwargs={"max_position": 8192, "samples": 512, "shifts": (1, -1000, -8000)},
        remarks=(
            "The pair identities hold for all real angles, so with i, d and b symbolic and for any "
            "real shift Δ, negative (llama.cpp's context shift moves kept keys back by the number of "
            "discarded tokens) or not; the whole-head statements are checked at the head width shown.",
            "Exact in real arithmetic only: in float32 a re-rotated key differs from one rotated "
            "directly by the rounding of two cache rows, which the numeric twin bounds.",
        ),
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
