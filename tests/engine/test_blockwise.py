"""Blockwise facts: a whole-vector statement proved block by block from a lemma; wrong blocks refuted."""

import sympy as sp

from proofs.engine.blocks import (
    BlockEquation,
    BlockMatrix,
    BlockVector,
    Label,
    Permutation,
    Permuted,
    Product,
    consecutive,
)
from proofs.engine.blockwise import Blockwise
from proofs.theorems.sinusoidal import rotation
from proofs.theorems.sinusoidal.definitions import (
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
    rotation_matrix,
    shift_blocks,
)

LEMMA = rotation.pair_derivation()
NAME = Label("B_{i}", "B_{{i}}")


def _fact(m_k: BlockMatrix, d: int = 8, rhs=None) -> Blockwise:
    rhs = rhs or pe_blocks(POS + K, d)
    statement = BlockEquation(Product((m_k, pe_blocks(POS, d))), rhs)
    return Blockwise("claim", "M_k PE(pos) = PE(pos + k)", statement, LEMMA, pair_bindings(d))


def _explicit(blocks: list[sp.Matrix], d: int = 8) -> BlockMatrix:
    return BlockMatrix(tuple(sp.ImmutableMatrix(b) for b in blocks), consecutive(d), d, NAME)


def test_the_structured_shift_is_proved_from_the_pair_lemma():
    assert _fact(shift_blocks(K, 8)).verify().status == "proved"


def test_explicit_blocks_are_checked_one_by_one():
    blocks = [rotation_matrix(K * w) for w in omegas(8)]
    assert _fact(_explicit(blocks)).verify().status == "proved"


def test_one_wrong_explicit_block_is_refuted():
    blocks = [rotation_matrix(K * w) for w in omegas(8)]
    blocks[3] = rotation_matrix(2 * K * omegas(8)[3])
    verdict = _fact(_explicit(blocks)).verify()
    assert verdict.status == "refuted"
    assert "block 3" in verdict.reason and verdict.counterexample is not None


def test_blocks_in_the_wrong_order_are_refuted():
    blocks = [rotation_matrix(K * w) for w in omegas(8)]
    blocks[0], blocks[1] = blocks[1], blocks[0]
    assert _fact(_explicit(blocks)).verify().status == "refuted"


def test_a_wrong_template_is_refuted_for_every_d_model_at_once():
    wrong = BlockMatrix(
        pairs(rotation_matrix(K * omega(I + 1, D_MODEL)), 4096), consecutive(4096), 4096, NAME
    )
    verdict = _fact(wrong, 4096).verify()
    assert verdict.status == "refuted" and verdict.counterexample is not None


def test_a_transposed_template_is_refuted():
    verdict = _fact(shift_blocks(K, 8).transpose()).verify()
    assert verdict.status == "refuted"


def test_blocks_that_do_not_partition_the_components_are_refuted():
    m = shift_blocks(K, 8)
    overlapping = BlockMatrix(m.blocks, ((0, 1), (1, 2), (4, 5), (6, 7)), 8, NAME)
    assert _fact(overlapping).verify().status == "refuted"
    wrong_size = BlockMatrix(m.blocks, consecutive(10), 10, NAME)
    assert _fact(wrong_size).verify().status == "refuted"


def test_sides_on_different_partitions_are_refuted():
    swap = Permutation((1, 0, 2, 3, 4, 5, 6, 7))
    verdict = _fact(shift_blocks(K, 8), rhs=Permuted(swap, pe_blocks(POS + K, 8))).verify()
    assert verdict.status == "refuted"


def test_a_permutation_that_is_not_a_bijection_is_refuted():
    bad = Permutation((0, 0, 2, 3, 4, 5, 6, 7))
    statement = BlockEquation(Permuted(bad, pe_blocks(POS, 8)), pe_blocks(POS, 8))
    assert Blockwise("claim", "P·PE = PE", statement).verify().status == "refuted"


def test_identity_blocks_are_the_identity():
    assert identity_blocks(6).dense() == sp.eye(6)


def test_a_structured_matrix_knows_its_free_symbols_without_forming_it():
    assert shift_blocks(K, 65536).free_symbols == {K}
    assert pe_blocks(POS, 65536).free_symbols == {POS}


def test_a_lemma_whose_hypotheses_the_blocks_miss_is_not_instantiated():
    # d_model = 8 would be bound to an odd value: the lemma (d_model even) does not apply.
    odd = Blockwise(
        "claim",
        "M_k PE(pos) = PE(pos + k)",
        _fact(shift_blocks(K, 8)).statement,
        LEMMA,
        lambda i: {I: sp.sympify(i), D_MODEL: sp.Integer(7)},
    )
    assert odd.verify().status != "proved"


def test_block_vectors_subtract_block_by_block():
    diff = pe_blocks(POS + K, 4) - pe_blocks(POS, 4)
    assert isinstance(diff, BlockVector)
    assert diff.dense() == pe_blocks(POS + K, 4).dense() - pe_blocks(POS, 4).dense()
