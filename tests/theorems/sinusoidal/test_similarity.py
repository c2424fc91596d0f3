"""The similarity theorem: the sinusoidal dot product sees the offset, the ramp's the position."""

import pytest
import sympy as sp

from numeric.checks.similarity import similarity_table
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import NonZero
from proofs.theorems.sinusoidal import similarity
from proofs.theorems.sinusoidal.definitions import K, L


def test_similarity_theorem_is_proved():
    result = similarity.build().verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


def test_a_wrong_second_difference_is_not_proved():
    p = similarity.P
    wrong = Derivation(
        "claim",
        "wrong",
        (
            similarity.second_difference_derivation().steps[0],
            Step(sp.Integer(0)),
        ),
    )
    assert wrong.verify().status == "refuted"
    assert sp.expand(similarity.ramp_product(p) - p * (p + K) / L**2) == 0


def test_a_zero_obstruction_is_not_claimed_nonzero():
    assert NonZero("claim", "zero", 2 / L**2 - 2 / L**2).verify().status != "proved"


def test_the_twin_sees_the_same_thing():
    table = similarity_table()
    assert table.passed is True
    by_k: dict[int, list[tuple]] = {}
    for row in table.rows:
        by_k.setdefault(row[0], []).append(row)
    for rows in by_k.values():
        assert len({round(r[2], 12) for r in rows}) == 1  # the sinusoidal column: one value
        assert len({r[4] for r in rows}) == len(rows)  # the ramp column: a value per p


def test_the_twin_refuses_shifts_off_the_table():
    with pytest.raises(ValueError, match="positions \\+ ks must stay in"):
        similarity_table(positions=(45,), ks=(10,))
