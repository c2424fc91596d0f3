"""The group theorem, wrong group laws that must be refuted, and its numeric twin."""

import numpy as np
import pytest
import sympy as sp

from numeric.checks.group import group_table
from numeric.rotations import rotation_blocks, stacked_rotations
from proofs.engine.blocks import partition
from proofs.engine.derivation import Derivation, Step
from proofs.engine.theorem import Theorem
from proofs.theorems.sinusoidal import group
from proofs.theorems.sinusoidal.definitions import D_MODEL, I, J, K, omega, rotation_matrix


def test_group_theorem_is_proved_at_the_smallest_d_model():
    result = group.build(d_model=2).verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


@pytest.mark.slow
def test_group_theorem_is_proved_at_the_default_d_model():
    result = group.build().verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


def test_pair_laws_are_symbolic_in_i_and_d_model():
    for derivation in (
        group.composition_derivation(),
        group.orthogonality_derivation(),
        group.transpose_derivation(),
    ):
        assert {I, D_MODEL, K} <= derivation.symbols


def test_block_laws_use_the_requested_d_model():
    th = group.build(d_model=4)
    assert isinstance(th, Theorem)
    assert all(partition(p.statement.lhs)[1] == 4 for p in th.parts[-4:])


W = omega()
WRONG = {
    "composition subtracts": (
        sp.MatMul(rotation_matrix(J * W), rotation_matrix(K * W), evaluate=False),
        rotation_matrix((J - K) * W),
    ),
    "R times R is I": (
        sp.MatMul(rotation_matrix(K * W), rotation_matrix(K * W), evaluate=False),
        sp.ImmutableMatrix(sp.eye(2)),
    ),
    "R(-k) is R(k)": (rotation_matrix(-K * W), rotation_matrix(K * W)),
}


@pytest.mark.parametrize("name", sorted(WRONG))
def test_wrong_group_laws_are_refuted(name):
    lhs, rhs = WRONG[name]
    verdict = Derivation("claim", name, (Step(lhs), Step(rhs))).verify()
    assert verdict.status == "refuted"


def test_numeric_twin_passes_and_covers_every_law():
    table = group_table()
    assert table.passed is True
    assert len(table.rows) == 4 and all(row[-1] for row in table.rows)


def test_numeric_blocks_match_the_dense_matrix():
    omegas = np.array([1.0, 0.1, 0.01])
    dense = stacked_rotations(2.5, omegas)
    blocks = rotation_blocks(2.5, omegas)
    for i, block in enumerate(blocks):
        assert np.array_equal(dense[2 * i : 2 * i + 2, 2 * i : 2 * i + 2], block)
    # A wrong law really shows up: M_1·M_1 is not M_1.
    assert (
        np.abs(
            stacked_rotations(1, omegas) @ stacked_rotations(1, omegas)
            - stacked_rotations(1, omegas)
        ).max()
        > 0.1
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"d_model": 3}, "d_model"),
        ({"offsets": ()}, "offsets"),
        ({"offsets": (float("nan"),)}, "offsets"),
    ],
)
def test_numeric_twin_rejects_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        group_table(**kwargs)
