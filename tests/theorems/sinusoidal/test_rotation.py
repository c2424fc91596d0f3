"""The rotation theorem, and the wrong variants of it that must be refuted."""

import pytest
import sympy as sp

from proofs import prove_identity, registry
from proofs.theorems.sinusoidal import rotation
from proofs.theorems.sinusoidal.definitions import (
    D_MODEL,
    POS,
    I,
    K,
    dense_shift_matrix,
    omega,
    pe_pair,
    pe_vector,
    rotation_matrix,
)


def test_rotation_theorem_is_proved():
    result = rotation.build().verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


def test_pair_statement_is_symbolic_in_i_and_d_model():
    derivation = rotation.pair_derivation()
    assert {I, D_MODEL, POS, K} <= derivation.symbols
    assert derivation.verify().status == "proved"


@pytest.mark.parametrize("d_model", [2, 6, 16, 4096])
def test_whole_vector_for_other_d_model(d_model):
    assert rotation.vector_fact(d_model).verify().status == "proved"


@pytest.mark.parametrize("d_model", [2, 6])
def test_the_structured_statement_is_the_dense_one(d_model):
    statement = rotation.vector_fact(d_model).statement
    m_k, pe = statement.lhs.factors
    assert m_k.dense() == dense_shift_matrix(K, d_model)
    assert pe.dense() == pe_vector(POS, d_model)
    assert statement.rhs.dense() == pe_vector(POS + K, d_model)


def test_rotation_is_free_of_pos_as_a_checked_fact():
    result = rotation.build().verify()
    free_of = [p for p in result.parts if type(p.part).__name__ == "FreeOf"]
    assert free_of and all(p.verdict.proved for p in free_of)


W = omega()
TARGET = pe_pair(POS + K, W)

WRONG = {
    "wrong rotation sign": sp.Matrix(
        [[sp.cos(K * W), -sp.sin(K * W)], [sp.sin(K * W), sp.cos(K * W)]]
    ),
    "transposed R": rotation_matrix(K * W).T,
    "angle uses pos": rotation_matrix(POS * W),
    "frequency exponent i instead of 2i": rotation_matrix(K * sp.Integer(10000) ** (-I / D_MODEL)),
    "frequency off by one": rotation_matrix(K * omega(I + 1)),
    "wrong base": rotation_matrix(K * omega(base=sp.Integer(1000))),
}


@pytest.mark.parametrize("name", sorted(WRONG))
def test_wrong_rotations_are_refuted(name):
    verdict = prove_identity(WRONG[name] * pe_pair(POS, W), TARGET)
    assert verdict.status == "refuted"
    assert verdict.counterexample is not None


def test_sin_and_cos_swapped_is_refuted():
    swapped = sp.Matrix([sp.cos(POS * W), sp.sin(POS * W)])
    verdict = prove_identity(rotation_matrix(K * W) * swapped, TARGET)
    assert verdict.status == "refuted"


def test_wrong_block_order_of_m_k_is_refuted():
    m = dense_shift_matrix(K, 4)
    permuted = sp.diag(m[2:, 2:], m[:2, :2])
    assert prove_identity(permuted * pe_vector(POS, 4), pe_vector(POS + K, 4)).status == "refuted"


def test_the_d_model_cap_is_at_least_65536():
    assert registry.MAX_D_MODEL >= 65536
    assert registry.check_d_model(65536) == 65536
    with pytest.raises(ValueError, match="at most 65536"):
        registry.check_d_model(65538)


def test_rotation_is_proved_at_the_cap():
    result = registry.build("rotation", d_model=registry.MAX_D_MODEL).verify()
    assert result.status == "proved"
