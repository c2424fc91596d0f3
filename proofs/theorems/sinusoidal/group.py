"""Theorem (group): the shift maps form a group — M_j·M_k = M_{j+k}, M_k orthogonal, M_{−k} = M_kᵀ = M_k⁻¹.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves.

Numeric twin: numeric.checks.group.group_table.
"""

from __future__ import annotations

import functools

import sympy as sp

from proofs.engine.blocks import BlockEquation, Product
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import Blockwise
from proofs.engine.rules import (
    ALGEBRA,
    ANGLE_ADDITION,
    MATRIX_PRODUCT,
    PARITY,
    PYTHAGOREAN,
    TRANSPOSE,
)
from proofs.engine.rules.matrices import explicit
from proofs.engine.theorem import Theorem
from proofs.theorems.sinusoidal.definitions import (
    OMEGA_I,
    J,
    K,
    identity_blocks,
    omega,
    pair_bindings,
    rotation_matrix,
    shift_blocks,
)

NAME = "group"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "For all real j and k: M_j·M_k = M_(j+k), M_k·M_kᵀ = I, and M_(−k) = M_kᵀ = M_k⁻¹; "
    "each law holds blockwise for every pair i and every d_model."
)


def _rotation_entries(cos_entry: sp.Expr, sin_entry: sp.Expr) -> sp.ImmutableMatrix:
    """[[c, s], [−s, c]]: the shape of R(θ) with its two entries given as expressions."""
    return sp.ImmutableMatrix([[cos_entry, sin_entry], [-sin_entry, cos_entry]])


def _product_entries(a: sp.Expr, b: sp.Expr) -> sp.ImmutableMatrix:
    """R(a)·R(b) written out: it has the rotation's shape, with angle-sum entries."""
    return _rotation_entries(
        sp.cos(a) * sp.cos(b) - sp.sin(a) * sp.sin(b),
        sp.sin(a) * sp.cos(b) + sp.cos(a) * sp.sin(b),
    )


def _rotation_at(theta: sp.Expr) -> sp.ImmutableMatrix:
    """R(θ) with its entries kept as written: R(−kω_i) shows cos(−kω_i), which only the parity
    rule may turn into cos(kω_i)."""
    c, s = sp.cos(theta, evaluate=False), sp.sin(theta, evaluate=False)
    return _rotation_entries(c, s)


def composition_derivation() -> Derivation:
    """R(jω_i)·R(kω_i) = R((j+k)ω_i), with i and d_model symbolic."""
    w = omega()
    a, b = J * w, K * w
    return Derivation(
        "compose",
        "Composition: shifting by j and then by k is shifting by j + k",
        (
            Step(sp.MatMul(rotation_matrix(a), rotation_matrix(b), evaluate=False)),
            Step(
                _product_entries(a, b),
                by=MATRIX_PRODUCT,
                note="both rows have the rotation's shape",
            ),
            Step(
                _rotation_entries(sp.cos(a + b), sp.sin(a + b)),
                by=ANGLE_ADDITION,
                note="cos a cos b − sin a sin b = cos(a+b), sin a cos b + cos a sin b = sin(a+b)",
            ),
            Step(
                rotation_matrix((J + K) * w),
                by=ALGEBRA,
                note="factor out ω_i: jω_i + kω_i = (j + k)ω_i",
            ),
        ),
        display=((w, OMEGA_I),),
    )


def orthogonality_derivation() -> Derivation:
    """R(kω_i)·R(kω_i)ᵀ = I."""
    w = omega()
    t = K * w
    rot = rotation_matrix(t)
    c, s = sp.cos(t), sp.sin(t)
    return Derivation(
        "orthogonal",
        "Orthogonality: R(kω_i)·R(kω_i)ᵀ = I",
        (
            Step(sp.MatMul(rot, rot.T, evaluate=False)),
            Step(
                sp.ImmutableMatrix([[c**2 + s**2, -c * s + s * c], [-s * c + c * s, s**2 + c**2]]),
                by=MATRIX_PRODUCT,
                note="with the transpose",
            ),
            Step(sp.ImmutableMatrix(sp.eye(2)), by=PYTHAGOREAN, note="cos² + sin² = 1"),
        ),
        display=((w, OMEGA_I),),
    )


def transpose_derivation() -> Derivation:
    """R(−kω_i) = R(kω_i)ᵀ: cos is even and sin is odd."""
    w = omega()
    t = K * w
    minus_t = sp.Mul(-1, t, evaluate=False)
    return Derivation(
        "minus_is_transpose",
        "Shifting back is the transpose: R(−kω_i) = R(kω_i)ᵀ",
        (
            # Built unevaluated so the parity step shows; SymPy would apply it on sight. No
            # display substitution here for the same reason: substituting re-evaluates.
            Step(_rotation_at(minus_t)),
            Step(
                _rotation_entries(sp.cos(t), -sp.sin(t)),
                by=PARITY,
                note="cos(−θ) = cos θ, sin(−θ) = −sin θ",
            ),
            Step(
                sp.Transpose(rotation_matrix(t)),
                by=TRANSPOSE,
                note="swap the off-diagonal entries",
            ),
        ),
    )


def inverse_derivation(name: str, first: sp.Expr, second: sp.Expr, title: str) -> Derivation:
    """R(first·ω_i)·R(second·ω_i) = I where second = −first; −kω_i kept as written."""
    w = omega()
    a, b = (sp.Mul(-1, K, w, evaluate=False) if x == -K else x * w for x in (first, second))
    product = sp.MatMul(_rotation_at(a), _rotation_at(b), evaluate=False)
    multiplied = explicit(product)
    # The same entries with cos(−kω_i) as cos(kω_i) and sin(−kω_i) as −sin(kω_i).
    even = multiplied.xreplace(
        {
            f(sp.Mul(-1, K, w, evaluate=False), evaluate=False): sign * f(K * w)
            for f, sign in ((sp.cos, 1), (sp.sin, -1))
        }
    )
    return Derivation(
        name,
        title,
        (
            Step(product),
            Step(multiplied, by=MATRIX_PRODUCT),
            Step(even, by=PARITY, note="cos(−θ) = cos θ, sin(−θ) = −sin θ"),
            Step(
                sp.ImmutableMatrix(sp.eye(2)),
                by=PYTHAGOREAN,
                note="cos² + sin² = 1; the off-diagonal terms cancel",
            ),
        ),
        display=((w, OMEGA_I),),
    )


def _blockwise(name: str, title: str, lhs, rhs, lemma: Derivation, d_model: int) -> Blockwise:
    return Blockwise(name, title, BlockEquation(lhs, rhs), lemma, pair_bindings(d_model))


def block_composition(d_model: int, lemma: Derivation | None = None) -> Blockwise:
    """M_j·M_k = M_{j+k} for a concrete d_model: block i is R(jω_i)·R(kω_i), the composition law."""
    m = functools.partial(shift_blocks, d_model=d_model)
    return _blockwise(
        "compose_concrete",
        f"The whole map, d_model = {d_model}: M_j·M_k = M_(j+k)",
        Product((m(J), m(K))),
        m(J + K),
        lemma or composition_derivation(),
        d_model,
    )


def block_orthogonality(d_model: int, lemma: Derivation | None = None) -> Blockwise:
    """M_k·M_kᵀ = I for a concrete d_model: block i is R(kω_i)·R(kω_i)ᵀ, orthogonality."""
    m_k = shift_blocks(K, d_model)
    return _blockwise(
        "orthogonal_concrete",
        f"The whole map, d_model = {d_model}: M_k·M_kᵀ = I",
        Product((m_k, m_k.transpose())),
        identity_blocks(d_model),
        lemma or orthogonality_derivation(),
        d_model,
    )


def block_transpose(d_model: int, lemma: Derivation | None = None) -> Blockwise:
    """M_{−k} = M_kᵀ for a concrete d_model: the transpose of a block-diagonal matrix transposes each block."""
    return _blockwise(
        "transpose_concrete",
        f"The whole map, d_model = {d_model}: M_(−k) = M_kᵀ",
        # R(−kω_i) kept as written, and M_kᵀ a transpose of blocks: the two sides differ until
        # the lemma (parity, then transpose) is applied block by block.
        shift_blocks(-K, d_model, as_written=True),
        shift_blocks(K, d_model).transpose(),
        lemma or transpose_derivation(),
        d_model,
    )


def block_inverse(d_model: int, lemma: Derivation | None = None) -> Blockwise:
    """M_k·M_{−k} = I for a concrete d_model (for square matrices a one-sided inverse is two-sided)."""
    return _blockwise(
        "inverse_concrete",
        f"The whole map, d_model = {d_model}: M_k·M_(−k) = I, so M_(−k) = M_k⁻¹",
        Product((shift_blocks(K, d_model), shift_blocks(-K, d_model, as_written=True))),
        identity_blocks(d_model),
        lemma or right_inverse(),
        d_model,
    )


def right_inverse() -> Derivation:
    """R(kω_i)·R(−kω_i) = I."""
    return inverse_derivation("right_inverse", K, -K, "Right inverse: R(kω_i)·R(−kω_i) = I")


def build(d_model: int = 8) -> Theorem:
    """The group theorem; d_model sets the size of the whole-map statements."""
    r = rotation_matrix
    laws = (
        composition_derivation(),
        orthogonality_derivation(),
        transpose_derivation(),
        right_inverse(),
    )
    return Theorem(
        name=NAME,
        title="The shift maps form a group of rotations",
        statement=STATEMENT,
        formulas=(
            sp.Eq(
                sp.MatMul(r(J * OMEGA_I), r(K * OMEGA_I), evaluate=False),
                r((J + K) * OMEGA_I),
                evaluate=False,
            ),
            sp.Eq(
                sp.MatMul(r(K * OMEGA_I), r(K * OMEGA_I).T, evaluate=False),
                sp.ImmutableMatrix(sp.eye(2)),
                evaluate=False,
            ),
            sp.Eq(r(-K * OMEGA_I), r(K * OMEGA_I).T, evaluate=False),
        ),
        parts=(
            *laws,
            inverse_derivation(
                "left_inverse",
                -K,
                K,
                "Left inverse: R(−kω_i)·R(kω_i) = I, so R(−kω_i) = R(kω_i)⁻¹",
            ),
            block_composition(d_model, laws[0]),
            block_orthogonality(d_model, laws[1]),
            block_transpose(d_model, laws[2]),
            block_inverse(d_model, laws[3]),
        ),
        twin="numeric.checks.group.group_table",
        twin_kwargs={"d_model": d_model},
        remarks=(
            "The pair laws are proved with i and d_model symbolic; the block-diagonal laws follow "
            "from them block by block and are checked here at the concrete d_model.",
            "For square matrices a one-sided inverse is two-sided, so M_k·M_kᵀ = I and "
            "M_k·M_(−k) = I also give M_kᵀ·M_k = I and M_(−k)·M_k = I for the whole map.",
            "Together with M_0 = I these laws say k ↦ M_k is a group homomorphism from (ℝ, +) "
            "onto a commutative group of rotations: shifting is reversible and never stretches.",
        ),
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
