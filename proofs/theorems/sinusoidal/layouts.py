"""Theorem (layouts): the shift property survives every layout and schedule, and odd d_model if padded.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves.

Numeric twin: numeric.checks.layouts.layout_table.

One file because a theorem module reads as its derivation (statement, parts, done): its
length is the number of parts (14), each a short named function.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.blocks import (
    BlockEquation,
    BlockMatrix,
    BlockVector,
    Permutation,
    Permuted,
    Product,
)
from proofs.engine.citation import Lemma
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import Blockwise, FreeOf, LinearSystem
from proofs.engine.rules import ALGEBRA, ANGLE_ADDITION, HALF_PERIOD, MATRIX_PRODUCT
from proofs.engine.rules.matrices import explicit
from proofs.engine.theorem import Theorem
from proofs.theorems.sinusoidal.definitions import (
    BASE,
    D_MODEL,
    POS,
    I,
    K,
    identity_blocks,
    omega,
    omegas,
    pair_bindings,
    pairs,
    pe_blocks,
    pe_pair,
    rotation_matrix,
    shift_blocks,
)
from proofs.theorems.sinusoidal.rotation import pair_statement

NAME = "layouts"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "The [sin | cos] layout is P·PE for a permutation P, so P·M_k·Pᵀ shifts it by k; the pair "
    "identity holds for any frequency, so for every schedule; for odd d_model zero padding "
    "keeps a pos-independent map and an unpaired last sine admits none when sin(kω_last) ≠ 0."
)

# An arbitrary real frequency: the schedule-free form of the pair identity.
W = sp.Symbol("omega", real=True)
# Stands for sin(k·ω_n) in the unpaired-sine argument; its hypothesis is the theorem's.
SIGMA = sp.Symbol("sigma", real=True, nonzero=True)
N_INT = sp.Symbol("n", integer=True)
# The odd size of item 3. Fixed rather than tied to --d-model: the impossibility is a
# Vandermonde system in algebraic numbers, exact row reduction of which grows fast with n.
ODD_D_MODEL = 7


# ── 1. Layout ─────────────────────────────────────────────────────────────────────────────


def concatenated_index(j: int, d_model: int) -> int:
    """Where interleaved column j (sin of pair j//2 if j is even, else its cos) sits in [sin | cos]."""
    return j // 2 if j % 2 == 0 else d_model // 2 + j // 2


def permutation_matrix(d_model: int) -> sp.ImmutableMatrix:
    """P as a dense matrix, P[concatenated_index(j), j] = 1 (the reference permutation() is tested
    against)."""
    p = sp.zeros(d_model, d_model)
    for j in range(d_model):
        p[concatenated_index(j, d_model), j] = 1
    return sp.ImmutableMatrix(p)


def concatenated_vector(pos: sp.Expr, d_model: int) -> sp.ImmutableMatrix:
    """The [sin | cos] encoding as a dense column, from its own definition (not from P); the
    dense reference concatenated_blocks is tested against."""
    ws = omegas(d_model)
    return sp.ImmutableMatrix([sp.sin(pos * w) for w in ws] + [sp.cos(pos * w) for w in ws])


def permutation(d_model: int) -> Permutation:
    """P by its index map: interleaved component j goes to concatenated_index(j)."""
    return Permutation(tuple(concatenated_index(j, d_model) for j in range(d_model)))


def concatenated_supports(d_model: int) -> tuple[tuple[int, ...], ...]:
    """Where pair i sits in [sin | cos]: its sine at i, its cosine at d_model/2 + i."""
    half = d_model // 2
    return tuple((i, half + i) for i in range(half))


def concatenated_blocks(pos: sp.Expr, d_model: int) -> BlockVector:
    """The [sin | cos] encoding by structure, from its own definition: pair i at (i, d/2 + i)."""
    return BlockVector(
        pairs(pe_pair(pos, omega()), d_model),
        concatenated_supports(d_model),
        d_model,
        pe_blocks(pos, d_model).label,
    )


def concatenated_shift_blocks(k: sp.Expr, d_model: int) -> BlockMatrix:
    """[[C, S], [−S, C]], C = diag(cos kω_i), S = diag(sin kω_i): R(kω_i) on components (i, d/2 + i)."""
    m_k = shift_blocks(k, d_model)
    return BlockMatrix(m_k.blocks, concatenated_supports(d_model), d_model, m_k.label)


def permutation_fact(d_model: int) -> Blockwise:
    """P·Pᵀ = I: P moves the blocks of I_d to other components and leaves them I_2."""
    eye = identity_blocks(d_model)
    moved = BlockMatrix(eye.blocks, concatenated_supports(d_model), d_model, eye.label)
    return Blockwise(
        "permutation_orthogonal",
        f"P is orthogonal (d_model = {d_model}): P·Pᵀ = P·I·Pᵀ = I, P a permutation "
        "(each row and each column of P holds one 1), so Pᵀ·P = I too",
        BlockEquation(Permuted(permutation(d_model), eye), moved),
    )


def layout_fact(d_model: int) -> Blockwise:
    """P·PE(pos) = [sin | cos](pos): P moves pair i from (2i, 2i+1) to (i, d/2 + i)."""
    return Blockwise(
        "concatenated_is_permuted",
        f"The concatenated layout is P times the interleaved one (d_model = {d_model}): P moves "
        "pair i from components (2i, 2i+1) to (i, d/2 + i), sines first, then cosines",
        BlockEquation(
            Permuted(permutation(d_model), pe_blocks(POS, d_model)),
            concatenated_blocks(POS, d_model),
        ),
    )


def block_form_fact(d_model: int) -> Blockwise:
    """P·M_k·Pᵀ = [[C, S], [−S, C]] with C = diag(cos kω_i), S = diag(sin kω_i)."""
    return Blockwise(
        "concatenated_shift_map",
        f"The concatenated shift map (d_model = {d_model}): P·M_k·Pᵀ = [[C, S], [−S, C]], "
        "C = diag(cos kω_i), S = diag(sin kω_i): block R(kω_i) moved to rows and columns (i, d/2 + i)",
        BlockEquation(
            Permuted(permutation(d_model), shift_blocks(K, d_model)),
            concatenated_shift_blocks(K, d_model),
        ),
    )


def concatenated_shift_fact(d_model: int, lemma: Derivation | None = None) -> Blockwise:
    """P·M_k·Pᵀ·concat(pos) = concat(pos + k), on components (i, d/2 + i) the pair identity."""
    return Blockwise(
        "concatenated_shift",
        f"P·M_k·Pᵀ shifts the concatenated encoding by k (d_model = {d_model}): on components "
        "(i, d/2 + i) it is the paper-schedule pair identity",
        BlockEquation(
            Product((concatenated_shift_blocks(K, d_model), concatenated_blocks(POS, d_model))),
            concatenated_blocks(POS + K, d_model),
        ),
        lemma or paper_pair_derivation(any_frequency_derivation()),
        pair_bindings(d_model),
    )


# ── 2. Any frequency schedule ─────────────────────────────────────────────────────────────


def tensor2tensor_omega(
    i: sp.Expr = I, d_model: sp.Expr = D_MODEL, base: sp.Expr = BASE
) -> sp.Expr:
    """tensor2tensor's spacing base**(−i/max(d_model/2 − 1, 1)) (its guard keeps d_model = 2 defined)."""
    return base ** (-sp.sympify(i) / sp.Max(d_model / 2 - 1, 1))


def any_frequency_derivation() -> Derivation:
    """R(kω)·pair(pos) = pair(pos + k) for every real ω: the matrix product and angle addition."""
    w = W
    product = sp.ImmutableMatrix(
        [
            sp.sin(POS * w) * sp.cos(K * w) + sp.cos(POS * w) * sp.sin(K * w),
            sp.cos(POS * w) * sp.cos(K * w) - sp.sin(POS * w) * sp.sin(K * w),
        ]
    )
    return Derivation(
        "any_frequency_shift",
        "Any frequency: R(kω) shifts the pair at frequency ω, for every real ω",
        (
            Step(sp.MatMul(rotation_matrix(K * w), pe_pair(POS, w), evaluate=False)),
            Step(product, by=MATRIX_PRODUCT),
            Step(
                sp.ImmutableMatrix([sp.sin(POS * w + K * w), sp.cos(POS * w + K * w)]),
                by=ANGLE_ADDITION,
            ),
            Step(pe_pair(POS + K, w), by=ALGEBRA, note="factor out the frequency"),
        ),
    )


def schedule_instance(name: str, w: sp.Expr, title: str, lemma: Derivation) -> Derivation:
    """The any-frequency identity at the frequency w, cited, not proved again."""
    return Derivation(
        name,
        title,
        (
            Step(sp.MatMul(rotation_matrix(K * w), pe_pair(POS, w), evaluate=False)),
            Step(pe_pair(POS + K, w), by=Lemma(lemma, {W: w}), note="the any-frequency identity"),
        ),
    )


def paper_pair_derivation(lemma: Derivation) -> Derivation:
    """The any-frequency identity at the paper's ω_i = 10000^(−2i/d_model)."""
    return schedule_instance(
        "paper_schedule_shift",
        omega(),
        "Instance: the paper's schedule ω_i = 10000^(−2i/d_model), i and d_model symbolic",
        lemma,
    )


def tensor2tensor_pair_derivation(lemma: Derivation) -> Derivation:
    """The any-frequency identity at tensor2tensor's ω_i = 10000^(−i/max(d_model/2 − 1, 1))."""
    return schedule_instance(
        "tensor2tensor_schedule_shift",
        tensor2tensor_omega(),
        "Instance: tensor2tensor's ω_i = 10000^(−i/max(d_model/2 − 1, 1)), i and d_model symbolic",
        lemma,
    )


# ── 3. Odd d_model ────────────────────────────────────────────────────────────────────────


def odd_frequencies(d_odd: int) -> list[sp.Expr]:
    """ω_j = base**(−2j/d_odd) for j = 0 .. n, with n = (d_odd − 1)/2."""
    return [omega(j, d_odd) for j in range(d_odd // 2 + 1)]


def _pairs(pos: sp.Expr, ws: list[sp.Expr]) -> list[sp.Expr]:
    return [e for w in ws for e in pe_pair(pos, w)]


def zero_padded_vector(pos: sp.Expr, d_odd: int) -> sp.ImmutableMatrix:
    """n interleaved pairs, then a constant 0."""
    return sp.ImmutableMatrix([*_pairs(pos, odd_frequencies(d_odd)[:-1]), sp.Integer(0)])


def unpaired_sine_vector(pos: sp.Expr, d_odd: int) -> sp.ImmutableMatrix:
    """n interleaved pairs, then sin(pos·ω_n) with no cosine."""
    ws = odd_frequencies(d_odd)
    return sp.ImmutableMatrix([*_pairs(pos, ws[:-1]), sp.sin(pos * ws[-1])])


def padded_shift_matrix(k: sp.Expr, d_odd: int) -> sp.ImmutableMatrix:
    """diag(R(kω_0), …, R(kω_{n−1}), 1)."""
    blocks = [rotation_matrix(k * w) for w in odd_frequencies(d_odd)[:-1]]
    return sp.ImmutableMatrix(sp.diag(*blocks, sp.Integer(1)))


def zero_padding_derivation(d_odd: int) -> Derivation:
    product = sp.MatMul(
        padded_shift_matrix(K, d_odd), zero_padded_vector(POS, d_odd), evaluate=False
    )
    shifted = zero_padded_vector(POS + K, d_odd)
    return Derivation(
        "zero_padding",
        f"Zero padding keeps the property (d_model = {d_odd}): diag(M_k, 1) shifts the padded encoding",
        (
            Step(product),
            Step(explicit(product), by=MATRIX_PRODUCT, note="the padded 0 stays 0"),
            Step(shifted, by=ANGLE_ADDITION, note="each pair, at its frequency"),
        ),
    )


def row_unknowns(d_odd: int) -> tuple[sp.Symbol, ...]:
    """a_0 … a_{d−1}: the last row of a candidate matrix A."""
    return tuple(sp.Symbol(f"a_{j}", real=True) for j in range(d_odd))


def last_row_residual(d_odd: int) -> sp.Expr:
    """f(pos) = a·PE(pos) − sin((pos + k)·ω_n): zero for all pos if the last row of A works."""
    a = sp.ImmutableMatrix([row_unknowns(d_odd)])
    w_last = odd_frequencies(d_odd)[-1]
    return (a * unpaired_sine_vector(POS, d_odd))[0, 0] - sp.sin((POS + K) * w_last)


def last_row_derivation(d_odd: int) -> Derivation:
    w_last = odd_frequencies(d_odd)[-1]
    unknowns = row_unknowns(d_odd)
    rest = sum(a * e for a, e in zip(unknowns[:-1], unpaired_sine_vector(POS, d_odd), strict=False))
    split = sp.Add(
        rest,
        sp.Mul(unknowns[-1] - sp.cos(K * w_last), sp.sin(POS * w_last), evaluate=False),
        -sp.sin(K * w_last) * sp.cos(POS * w_last),
        evaluate=False,
    )
    return Derivation(
        "unpaired_last_row",
        f"Unpaired last sine (d_model = {d_odd}): the last row a of a candidate A must make "
        "f(pos) = a·PE(pos) − sin((pos + k)ω_n) vanish for all pos",
        (
            Step(last_row_residual(d_odd)),
            Step(
                split,
                by=ANGLE_ADDITION,
                note="the target needs the missing cos(pos·ω_n), with weight sin(kω_n)",
            ),
        ),
    )


def even_derivative_equations(d_odd: int) -> tuple[sp.Expr, ...]:
    """f^(m)(0) for m = 0, 2, …, 2n, computed by differentiation, sin(k·ω_n) written as sigma."""
    f = last_row_residual(d_odd)
    w_last = odd_frequencies(d_odd)[-1]
    n = d_odd // 2
    equations = []
    for m in range(n + 1):
        f = sp.diff(f, POS, 2) if m else f  # each derivative from the one before
        equations.append(sp.expand(f.subs(POS, 0)).xreplace({sp.sin(K * w_last): SIGMA}))
    return tuple(equations)


def period_edge_derivation(d_odd: int) -> Derivation:
    """When k·ω_n = n·π the unpaired sine only changes sign: the hypothesis sin(kω_n) ≠ 0 is needed."""
    w_last = odd_frequencies(d_odd)[-1]
    k_edge = sp.pi * N_INT / w_last
    return Derivation(
        "edge_at_half_periods",
        f"Edge (d_model = {d_odd}): at k = nπ/ω_n, sin(kω_n) = 0 and the sine only changes sign, "
        "so there the last row ±e_last (with the pairs rotated) is a map",
        (
            Step(sp.sin((POS + k_edge) * w_last)),
            Step(
                (-1) ** N_INT * sp.sin(POS * w_last),
                by=HALF_PERIOD,
                note="sin(x + nπ) = (−1)ⁿ sin x",
            ),
        ),
    )


def _cosine_weights(n: int) -> str:
    names = [f"a_{2 * j + 1}" for j in range(n)]
    return ", ".join(names) if n <= 4 else f"{names[0]}, {names[1]}, …, {names[-1]}"


# ── The theorem ───────────────────────────────────────────────────────────────────────────


def build(d_model: int = 8) -> Theorem:
    """The layouts theorem; d_model sets the layout size (the odd size is ODD_D_MODEL)."""
    d_odd = ODD_D_MODEL
    n = d_odd // 2
    any_frequency = any_frequency_derivation()
    paper = paper_pair_derivation(any_frequency)
    return Theorem(
        name=NAME,
        title="Layouts and schedules keep the shift property; an odd width needs zero padding",
        statement=STATEMENT,
        formulas=(pair_statement(W),),
        parts=(
            permutation_fact(d_model),
            layout_fact(d_model),
            block_form_fact(d_model),
            concatenated_shift_fact(d_model, paper),
            FreeOf(
                "concatenated_map_free_of_pos",
                f"P·M_k·Pᵀ (d_model = {d_model}) does not depend on pos",
                concatenated_shift_blocks(K, d_model),
                (POS,),
            ),
            any_frequency,
            FreeOf(
                "any_frequency_map_free_of_pos",
                "R(kω) does not depend on pos, for any ω",
                rotation_matrix(K * W),
                (POS,),
            ),
            paper,
            tensor2tensor_pair_derivation(any_frequency),
            zero_padding_derivation(d_odd),
            FreeOf(
                "padded_map_free_of_pos",
                f"diag(M_k, 1) (d_model = {d_odd}) does not depend on pos",
                padded_shift_matrix(K, d_odd),
                (POS,),
            ),
            last_row_derivation(d_odd),
            LinearSystem(
                "unpaired_no_map",
                f"If f vanished for all pos, so would f, f'', …, f^({2 * n}) at pos = 0. Those even "
                f"derivatives involve only the cosine weights {_cosine_weights(n)} and form a "
                f"Vandermonde system in ω_0², …, ω_{n}² (distinct) with right side ∝ σ = sin(kω_{n}) ≠ 0: "
                "no solution, so no matrix A exists",
                even_derivative_equations(d_odd),
                row_unknowns(d_odd),
                "inconsistent",
            ),
            period_edge_derivation(d_odd),
        ),
        twin="numeric.checks.layouts.layout_table",
        twin_kwargs={"d_model": d_model, "d_odd": d_odd},
        remarks=(
            "Layout, zero padding and the unpaired sine are checked at the concrete sizes shown; "
            "the any-frequency pair identity and both schedule instances hold with i and d_model symbolic.",
            "The unpaired-sine impossibility assumes sin(k·ω_last) ≠ 0 (σ). That holds for every k with "
            "0 < |k| < π/ω_last, and — since ω_last is algebraic and π is transcendental — for every "
            "nonzero rational k; that last step (Lindemann) is not checked by the engine.",
            "Only the last row is needed for the impossibility, so it holds whatever the other rows of A are; "
            "the derivative argument does not assume the sines and cosines are linearly independent.",
        ),
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
