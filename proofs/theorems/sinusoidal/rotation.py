"""Theorem (rotation): one rotation, depending only on k and omega_i, shifts every pair by k.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves.

Numeric twin: numeric.checks.rotation.rotation_table.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.blocks import BlockEquation, Product
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import Blockwise, FreeOf
from proofs.engine.rules import ALGEBRA, ANGLE_ADDITION, MATRIX_PRODUCT
from proofs.engine.theorem import Theorem
from proofs.theorems.sinusoidal.definitions import (
    OMEGA_I,
    POS,
    K,
    omega,
    pair_bindings,
    pe_blocks,
    pe_pair,
    rotation_matrix,
    shift_blocks,
)

NAME = "rotation"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "For all real pos and k and every pair i, R(kω_i)·PE_i(pos) = PE_i(pos + k) with "
    "R(kω_i) free of pos; stacked, M_k·PE(pos) = PE(pos + k)."
)


def pair_statement(w: sp.Expr) -> sp.Eq:
    """R(k·w)·[sin(pos·w), cos(pos·w)]ᵀ = [sin((pos+k)·w), cos((pos+k)·w)]ᵀ, unevaluated for display."""
    return sp.Eq(
        sp.MatMul(rotation_matrix(K * w), pe_pair(POS, w), evaluate=False),
        pe_pair(POS + K, w),
        evaluate=False,
    )


def pair_derivation() -> Derivation:
    """The pair identity, with i and d_model symbolic."""
    w = omega()
    rot = rotation_matrix(K * w)
    product = sp.ImmutableMatrix(
        [
            sp.sin(POS * w) * sp.cos(K * w) + sp.cos(POS * w) * sp.sin(K * w),
            sp.cos(POS * w) * sp.cos(K * w) - sp.sin(POS * w) * sp.sin(K * w),
        ]
    )
    return Derivation(
        "pair_shift",
        "One pair: the rotation R(kω_i) moves the pair at pos to the pair at pos + k",
        (
            Step(sp.MatMul(rot, pe_pair(POS, w), evaluate=False)),
            Step(product, by=MATRIX_PRODUCT),
            Step(
                sp.ImmutableMatrix([sp.sin(POS * w + K * w), sp.cos(POS * w + K * w)]),
                by=ANGLE_ADDITION,
                note="sin(a+b) = sin a cos b + cos a sin b, cos(a+b) = cos a cos b − sin a sin b",
            ),
            Step(
                pe_pair(POS + K, w),
                by=ALGEBRA,
                note="factor out ω_i: pos·ω_i + k·ω_i = (pos + k)·ω_i",
            ),
        ),
        display=((w, OMEGA_I),),
    )


def vector_fact(d_model: int, lemma: Derivation | None = None) -> Blockwise:
    """M_k·PE(pos) = PE(pos + k) for a concrete d_model, block by block from the pair identity."""
    return Blockwise(
        "vector_shift",
        f"The whole vector, d_model = {d_model}: the block-diagonal M_k shifts PE(pos) by k "
        "(block i acts on components 2i, 2i+1 only)",
        BlockEquation(
            Product((shift_blocks(K, d_model), pe_blocks(POS, d_model))),
            pe_blocks(POS + K, d_model),
        ),
        lemma or pair_derivation(),
        pair_bindings(d_model),
    )


def build(d_model: int = 8) -> Theorem:
    """The rotation theorem; d_model sets the size of the whole-vector statement."""
    w = omega()
    pair = pair_derivation()
    return Theorem(
        name=NAME,
        title="A fixed rotation shifts the encoding by k",
        statement=STATEMENT,
        formulas=(pair_statement(OMEGA_I),),
        parts=(
            pair,
            FreeOf(
                "rotation_free_of_pos",
                "R(kω_i) does not depend on pos",
                rotation_matrix(K * w),
                (POS,),
            ),
            vector_fact(d_model, pair),
            FreeOf(
                "shift_map_free_of_pos",
                f"M_k (d_model = {d_model}) does not depend on pos",
                shift_blocks(K, d_model),
                (POS,),
            ),
        ),
        twin="numeric.checks.rotation.rotation_table",
        twin_kwargs={"d_model": d_model},
        remarks=(
            "The argument never uses that pos or k is an integer: the shift works for every real offset.",
        ),
        brief=True,
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
