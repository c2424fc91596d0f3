"""Theorem (rope_layouts): RoPE is relative in every layout, and the conversion permute is exact.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves.

Numeric twin: numeric.checks.rope_layouts.rope_layouts_table.

One file because a theorem module reads as its derivation (statement, parts, done): its
length is its 14 parts, each a short named function.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.blocks import (
    BlockEquation,
    BlockSum,
    BlockVector,
    Inner,
    Label,
    Permutation,
    Permuted,
    Product,
)
from proofs.engine.citation import Lemma
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import Blockwise, Refutation
from proofs.engine.rules import (
    ALGEBRA,
    ANGLE_SUBTRACTION,
    COMPLEX_FORM,
    MATRIX_PRODUCT,
)
from proofs.engine.theorem import Theorem
from proofs.theorems.rope.definitions import (
    K1,
    K2,
    K_VEC,
    Q1,
    Q2,
    Q_VEC,
    THETA,
    X_VEC,
    B,
    M,
    N,
    family,
    frequency,
    interleaved_supports,
    pair_bindings,
    pair_components,
    relative_form,
    rope_blocks,
    rope_rotation,
    rotate_half_supports,
    score_form,
    vector_blocks,
)

NAME = "rope_layouts"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "The score depends on n − m only in the interleaved, rotate_half and complex layouts. "
    "Converting layouts permutes W_q per query head and W_k per key-value head; permuting "
    "W_k per query head, or pairing an interleaved cache as rotate_half, changes scores."
)


def _scalar(expr: sp.Expr) -> sp.ImmutableMatrix:
    return sp.ImmutableMatrix([[expr]])


def pair_relative_derivation() -> Derivation:
    """⟨G(mθ)q, G(nθ)κ⟩ = ⟨q, G((n − m)θ)κ⟩ for one pair."""
    cm, sm, cn, sn = sp.cos(M * THETA), sp.sin(M * THETA), sp.cos(N * THETA), sp.sin(N * THETA)
    c, s = sp.cos((N - M) * THETA), sp.sin((N - M) * THETA)
    expanded = (Q1 * cm - Q2 * sm) * (K1 * cn - K2 * sn) + (Q1 * sm + Q2 * cm) * (K1 * sn + K2 * cn)
    grouped = sp.Add(
        Q1 * K1 * (cn * cm + sn * sm),
        -Q1 * K2 * (sn * cm - cn * sm),
        Q2 * K1 * (sn * cm - cn * sm),
        Q2 * K2 * (cn * cm + sn * sm),
        evaluate=False,
    )
    subtracted = sp.Add(Q1 * K1 * c, -Q1 * K2 * s, Q2 * K1 * s, Q2 * K2 * c, evaluate=False)
    return Derivation(
        "pair_relative",
        "One pair: ⟨G(mθ)q, G(nθ)κ⟩ = ⟨q, G((n − m)θ)κ⟩",
        (
            Step(score_form(M, N)),
            Step(_scalar(expanded), by=MATRIX_PRODUCT, note="the two rotated pairs, multiplied"),
            Step(_scalar(grouped), by=ALGEBRA, note="regroup by q_a·κ_b"),
            Step(
                _scalar(subtracted),
                by=ANGLE_SUBTRACTION,
                note="cos nθ cos mθ + sin nθ sin mθ = cos((n − m)θ), "
                "sin nθ cos mθ − cos nθ sin mθ = sin((n − m)θ)",
            ),
            Step(relative_form(N - M), by=MATRIX_PRODUCT, note="read back as qᵀ·G((n − m)θ)·κ"),
        ),
    )


def complex_score(q_pair: tuple, k_pair: tuple, theta: sp.Expr) -> sp.Expr:
    """Re[(q_1 + iq_2)e^{imθ} · conj((κ_1 + iκ_2)e^{inθ})]: the pair's term of Meta's score."""
    rotated_q = sp.Mul(q_pair[0] + sp.I * q_pair[1], sp.exp(sp.I * M * theta), evaluate=False)
    rotated_k = sp.Mul(k_pair[0] + sp.I * k_pair[1], sp.exp(sp.I * N * theta), evaluate=False)
    return sp.re(
        sp.Mul(rotated_q, sp.conjugate(rotated_k, evaluate=False), evaluate=False), evaluate=False
    )


def complex_pair_derivation(pair: Derivation) -> Derivation:
    """Meta's complex form of one pair is the real rotation: Re[q_c e^{imθ}·conj(κ_c e^{inθ})]."""
    cm, sm, cn, sn = sp.cos(M * THETA), sp.sin(M * THETA), sp.cos(N * THETA), sp.sin(N * THETA)
    expanded = (Q1 * cm - Q2 * sm) * (K1 * cn - K2 * sn) + (Q1 * sm + Q2 * cm) * (K1 * sn + K2 * cn)
    return Derivation(
        "complex_pair_relative",
        "Meta's complex form, one pair: Re[(q_1 + iq_2)e^{imθ}·conj((κ_1 + iκ_2)e^{inθ})] "
        "= ⟨q, G((n − m)θ)κ⟩",
        (
            Step(_scalar(complex_score((Q1, Q2), (K1, K2), THETA))),
            Step(
                _scalar(expanded),
                by=COMPLEX_FORM,
                note="e^{iφ} = cos φ + i sin φ; the real part of the product",
            ),
            Step(relative_form(N - M), by=Lemma(pair), note="the pair identity"),
        ),
    )


# ── Whole heads, by structure ─────────────────────────────────────────────────────────────


def head_relative_fact(layout: str, d: int, lemma: Derivation) -> Blockwise:
    """⟨RoPE(q, m), RoPE(κ, n)⟩ = ⟨q, RoPE(κ, n − m)⟩ for a head of width d in the layout."""
    q, k = vector_blocks(Q_VEC, layout, d), vector_blocks(K_VEC, layout, d)
    where = "(2i, 2i+1)" if layout == "interleaved" else "(i, i + d/2)"
    return Blockwise(
        f"head_relative_{layout}",
        f"The whole head, {layout} layout (d = {d}, pair i on components {where}): "
        "⟨RoPE(q, m), RoPE(κ, n)⟩ = ⟨q, RoPE(κ, n − m)⟩, a sum of pair identities",
        BlockEquation(
            Inner(Product((rope_blocks(M, layout, d), q)), Product((rope_blocks(N, layout, d), k))),
            Inner(q, Product((rope_blocks(N - M, layout, d), k))),
        ),
        lemma,
        pair_bindings(layout, d),
    )


def complex_head_fact(d: int, lemma: Derivation) -> Blockwise:
    """Re Σ_i (q_(i)e^{imθ_i})·conj(κ_(i)e^{inθ_i}) = ⟨q, RoPE(κ, n − m)⟩, pairs (2i, 2i+1)."""
    q_pair = pair_components(Q_VEC, "interleaved")
    k_pair = pair_components(K_VEC, "interleaved")
    terms = family(_scalar(complex_score(q_pair, k_pair, frequency())), d)
    label = Label(
        "Re[q_c,{i} e^(imθ_{i}) conj(κ_c,{i} e^(inθ_{i}))]",
        r"\operatorname{Re}\left[q_{c,{i}}\,e^{i m\theta_{{i}}}\,"
        r"\overline{\kappa_{c,{i}}\,e^{i n\theta_{{i}}}}\right]",
    )
    q, k = vector_blocks(Q_VEC, "interleaved", d), vector_blocks(K_VEC, "interleaved", d)
    return Blockwise(
        "head_relative_complex",
        f"The whole head in Meta's complex form (d = {d}, q_c,i = q_2i + i·q_2i+1): "
        "Re Σ_i (q_c,i·e^{imθ_i})·conj(κ_c,i·e^{inθ_i}) = ⟨q, RoPE(κ, n − m)⟩",
        BlockEquation(
            BlockSum(terms, label),
            Inner(q, Product((rope_blocks(N - M, "interleaved", d), k))),
        ),
        lemma,
        pair_bindings("interleaved", d),
    )


# ── The conversion permute ────────────────────────────────────────────────────────────────


def rotate_half_index(j: int, d: int) -> int:
    """Where P sends interleaved component j: 2i → i, 2i + 1 → i + d/2."""
    return j // 2 if j % 2 == 0 else d // 2 + j // 2


def permutation(d: int) -> Permutation:
    """P by its index map, for one head of width d."""
    return Permutation(tuple(rotate_half_index(j, d) for j in range(d)))


def conversion_fact(d: int) -> Blockwise:
    """RoPE_rotate_half(P·x, m) = P·RoPE_interleaved(x, m): the same blocks, moved by P."""
    x = vector_blocks(X_VEC, "interleaved", d)
    turned = family(
        sp.MatMul(
            rope_rotation(M * frequency()),
            sp.ImmutableMatrix(pair_components(X_VEC, "interleaved")),
            evaluate=False,
        ),
        d,
    )
    rotated = BlockVector(
        turned, interleaved_supports(d), d, Label("G(mθ_{i})x_({i})", r"G(m\theta_{{i}})x_{({i})}")
    )
    return Blockwise(
        "rotate_half_of_permuted",
        f"Conversion (d = {d}): RoPE_rotate_half(P·x, m) = P·RoPE_interleaved(x, m). P moves pair i "
        "from (2i, 2i+1) to (i, i + d/2), exactly where rotate_half rotates it by G(mθ_i)",
        BlockEquation(
            Product((rope_blocks(M, "rotate_half", d), Permuted(permutation(d), x))),
            Permuted(permutation(d), rotated),
        ),
    )


def converted_scores_fact(d: int) -> Blockwise:
    """⟨RoPE_rh(P·q, m), RoPE_rh(P·κ, n)⟩ = ⟨RoPE_int(q, m), RoPE_int(κ, n)⟩."""
    p = permutation(d)
    q, k = vector_blocks(Q_VEC, "interleaved", d), vector_blocks(K_VEC, "interleaved", d)
    return Blockwise(
        "converted_scores_equal",
        f"Converted scores (d = {d}): ⟨RoPE_rotate_half(P·q, m), RoPE_rotate_half(P·κ, n)⟩ = "
        "⟨RoPE_interleaved(q, m), RoPE_interleaved(κ, n)⟩: pair by pair the same numbers",
        BlockEquation(
            Inner(
                Product((rope_blocks(M, "rotate_half", d), Permuted(p, q))),
                Product((rope_blocks(N, "rotate_half", d), Permuted(p, k))),
            ),
            Inner(
                Product((rope_blocks(M, "interleaved", d), q)),
                Product((rope_blocks(N, "interleaved", d), k)),
            ),
        ),
    )


def hf_permute_matrix(rows: int, n_heads: int) -> sp.ImmutableMatrix:
    """transformers' permute(w, n_heads, rows, cols) as a row permutation Π (w ↦ Π·w):
    w.view(n_heads, rows // n_heads // 2, 2, cols).transpose(1, 2).reshape(rows, cols), so new
    row (h, a, j) is old row (h, j, a)."""
    half = rows // n_heads // 2
    pi = sp.zeros(rows, rows)
    for h in range(n_heads):
        for a in range(2):
            for j in range(half):
                pi[h * 2 * half + a * half + j, h * 2 * half + 2 * j + a] = 1
    return sp.ImmutableMatrix(pi)


# A grouped-query example: 4 query heads share 2 key/value heads of width 4.
GQA_HEADS, GQA_KV_HEADS, GQA_HEAD_DIM = 4, 2, 4
W_ROWS = sp.ImmutableMatrix(sp.symbols(f"w_0:{GQA_KV_HEADS * GQA_HEAD_DIM}", real=True))


def per_head_p_derivation() -> Derivation:
    """permute(W_k, n_kv_heads) = diag(P, P)·W_k for 2 key heads of width 4."""
    p = permutation(GQA_HEAD_DIM).dense()
    return Derivation(
        "permute_k_with_kv_heads",
        f"transformers' permute(W_k, n_kv_heads = {GQA_KV_HEADS}) on W_k's "
        f"{GQA_KV_HEADS * GQA_HEAD_DIM} rows (row r shown as w_r) is P within each key head: "
        "diag(P, P)·W_k",
        (
            Step(
                sp.MatMul(
                    hf_permute_matrix(GQA_KV_HEADS * GQA_HEAD_DIM, GQA_KV_HEADS),
                    W_ROWS,
                    evaluate=False,
                )
            ),
            Step(
                sp.ImmutableMatrix(sp.diag(p, p) * W_ROWS),
                by=MATRIX_PRODUCT,
                note="rows 0, 2, 1, 3 of each head of 4: P·x gathers x_0, x_2, x_1, x_3",
            ),
        ),
    )


def wrong_count_derivation() -> Derivation:
    """permute(W_k, n_heads) moves no row of W_k: each 'head' it sees has 2 rows."""
    return Derivation(
        "permute_k_with_heads_moves_nothing",
        f"With the wrong count, permute(W_k, n_heads = {GQA_HEADS}) cuts W_k's "
        f"{GQA_KV_HEADS * GQA_HEAD_DIM} rows into {GQA_HEADS} blocks of 2 and leaves every row "
        "where it was: K stays interleaved while Q is converted",
        (
            Step(
                sp.MatMul(
                    hf_permute_matrix(GQA_KV_HEADS * GQA_HEAD_DIM, GQA_HEADS),
                    W_ROWS,
                    evaluate=False,
                )
            ),
            Step(W_ROWS, by=MATRIX_PRODUCT),
        ),
    )


def _dense_rope(position: sp.Expr, layout: str, d: int, base: sp.Expr = B) -> sp.ImmutableMatrix:
    """RoPE at a position as a dense d×d matrix (small heads only)."""
    out = sp.zeros(d, d)
    supports = interleaved_supports(d) if layout == "interleaved" else rotate_half_supports(d)
    for i, (a, c) in enumerate(supports):
        g = rope_rotation(position * frequency(i, d, base))
        out[a, a], out[a, c], out[c, a], out[c, c] = g[0, 0], g[0, 1], g[1, 0], g[1, 1]
    return sp.ImmutableMatrix(out)


def _unit(j: int, d: int) -> sp.ImmutableMatrix:
    return sp.ImmutableMatrix([1 if r == j else 0 for r in range(d)])


def _head_score(m_matrix, n_matrix, q, k) -> sp.MatMul:
    return sp.MatMul(
        sp.Transpose(sp.MatMul(m_matrix, q, evaluate=False)),
        sp.MatMul(n_matrix, k, evaluate=False),
        evaluate=False,
    )


def gqa_before_derivation() -> Derivation:
    """The interleaved model's score with W_q = [I; I; I; I], W_k = [I; I], x = e_1."""
    d, e1 = GQA_HEAD_DIM, _unit(1, GQA_HEAD_DIM)
    return Derivation(
        "gqa_score_before",
        "Counterexample, before conversion (W_q = [I; I; I; I], W_k = [I; I], x = e_1, so every "
        "q and k is e_1, the second component of pair 0): the score is cos((n − m)θ_0)",
        (
            Step(
                _head_score(
                    _dense_rope(M, "interleaved", d), _dense_rope(N, "interleaved", d), e1, e1
                )
            ),
            Step(
                _scalar(sp.sin(M) * sp.sin(N) + sp.cos(M) * sp.cos(N)),
                by=MATRIX_PRODUCT,
                note="θ_0 = b⁰ = 1",
            ),
            Step(_scalar(sp.cos(N - M)), by=ANGLE_SUBTRACTION),
        ),
    )


def gqa_after_derivation() -> Derivation:
    """After permute(W_q, n_heads) and the wrong permute(W_k, n_heads): q = P·e_1 = e_2, k = e_1."""
    d = GQA_HEAD_DIM
    q = sp.MatMul(permutation(d).dense(), _unit(1, d), evaluate=False)
    return Derivation(
        "gqa_score_after_wrong_count",
        "After permute(W_q, n_heads) and the wrong permute(W_k, n_heads), in the rotate_half "
        "layout: q = P·e_1 = e_2 sits in pair 0, k = e_1 in pair 1, and the score is 0",
        (
            Step(
                _head_score(
                    _dense_rope(M, "rotate_half", d),
                    _dense_rope(N, "rotate_half", d),
                    q,
                    _unit(1, d),
                )
            ),
            Step(_scalar(sp.Integer(0)), by=MATRIX_PRODUCT),
        ),
    )


# How far the claim that the mixed layout is relative moves both positions.
SHIFT = sp.Symbol("t", real=True)

# The mixed-layout counterexample: head_dim 4, b = 10⁴ (θ_0 = 1, θ_1 = 1/100).
MIXED_BASE = sp.Integer(10000)


def mixed_rope_matrix(position: sp.Expr) -> sp.ImmutableMatrix:
    """x·cos + rotate_half(x)·sin with the interleaved cache columns [θ_0, θ_0, θ_1, θ_1]."""
    angles = [position * frequency(j // 2, 4, MIXED_BASE) for j in range(4)]
    cos = sp.diag(*[sp.cos(a) for a in angles])
    sin = sp.diag(*[sp.sin(a) for a in angles])
    rotate_half = sp.Matrix([[0, 0, -1, 0], [0, 0, 0, -1], [1, 0, 0, 0], [0, 1, 0, 0]])
    return sp.ImmutableMatrix(cos + sin * rotate_half)


def mixed_score_derivation() -> Derivation:
    e0 = _unit(0, 4)
    return Derivation(
        "mixed_layout_score",
        "Mixed layout (head_dim 4, b = 10⁴): interleaved cache columns [θ_0, θ_0, θ_1, θ_1] with "
        "rotate_half pairing turn e_0 into (cos mθ_0, 0, sin mθ_1, 0), two different angles",
        (
            Step(_head_score(mixed_rope_matrix(M), mixed_rope_matrix(N), e0, e0)),
            Step(
                _scalar(sp.cos(M) * sp.cos(N) + sp.sin(M / 100) * sp.sin(N / 100)),
                by=MATRIX_PRODUCT,
                note="θ_0 = 1, θ_1 = 10⁴^(−1/2) = 1/100",
            ),
        ),
    )


def build(d_model: int = 8) -> Theorem:
    """The RoPE layouts theorem; d_model sets the head width of the whole-head statements."""
    d = d_model
    pair = pair_relative_derivation()
    complex_pair = complex_pair_derivation(pair)
    before, after = gqa_before_derivation(), gqa_after_derivation()
    mixed_at = mixed_score_derivation().rhs[0, 0]
    return Theorem(
        name=NAME,
        title="RoPE is relative in every layout; converting layouts is a permutation",
        statement=STATEMENT,
        formulas=(sp.Eq(score_form(M, N), relative_form(N - M), evaluate=False),),
        parts=(
            pair,
            head_relative_fact("interleaved", d, pair),
            head_relative_fact("rotate_half", d, pair),
            complex_pair,
            complex_head_fact(d, complex_pair),
            conversion_fact(d),
            converted_scores_fact(d),
            per_head_p_derivation(),
            wrong_count_derivation(),
            before,
            after,
            Refutation(
                "gqa_wrong_count_changes_scores",
                "Permuting W_k with n_heads = 4 when n_kv_heads = 2 keeps the scores: the score "
                "after is the score before at every m, n (at m = n = 0 it is 1 before, 0 after)",
                sp.Eq(after.rhs[0, 0], before.rhs[0, 0], evaluate=False),
                ((M, sp.Integer(0)), (N, sp.Integer(0))),
            ),
            mixed_score_derivation(),
            Refutation(
                "mixed_layout_not_relative",
                "The mixed layout is relative: moving both positions by t keeps the score, "
                "score(m + t, n + t) = score(m, n) (at m = n = 0, t = 1: cos²1 + sin²(1/100) "
                "against 1)",
                sp.Eq(
                    mixed_at.subs({M: M + SHIFT, N: N + SHIFT}, simultaneous=True),
                    mixed_at,
                    evaluate=False,
                ),
                ((M, sp.Integer(0)), (N, sp.Integer(0)), (SHIFT, sp.Integer(1))),
            ),
        ),
        twin="numeric.checks.rope_layouts.rope_layouts_table",
        # The default run checks positions below 8192; tests/numeric/test_rope_twins_at_full_length.py
        # runs each twin at 131072 (slow).
        twin_kwargs={"max_position": 8192, "samples": 512},
        remarks=(
            "The pair identities hold for all real q, κ, θ, m, n, so with i, d and b symbolic; the "
            "whole-head statements are checked at the head width shown, by structure: every pair "
            "is the pair lemma instantiated there.",
            "The layouts are the libraries': transformers' rotate_half and its cos/sin caches "
            "(cat(freqs, freqs)), GPT-J's rotate_every_two, Meta's view_as_complex·e^{imθ}; "
            "permute is transcribed from transformers' convert_llama_weights_to_hf.py "
            "(w.view(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(1, 2).reshape(dim1, dim2)).",
            "Grouped-query attention: query head h reads key head floor(h·n_kv_heads/n_heads), so the "
            "key rows must be permuted within each of the n_kv_heads key heads, as "
            "permute_k_with_kv_heads shows. The failure is llama.cpp #2376 and TinyLlama #24 "
            "(as pe-proofs issue 24 cites them; their text is not checked here).",
        ),
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
