"""The uniqueness theorem, the facts it rests on, and the exact nearest-rows search."""

import numpy as np
import pytest
import sympy as sp

from numeric.checks.unique import nearest_pair, nearest_rows_table
from numeric.tables import sinusoidal_pe
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import NonZero
from proofs.theorems.sinusoidal import unique
from proofs.theorems.sinusoidal.definitions import POS, pe_vector


def test_unique_theorem_is_proved():
    result = unique.build().verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


def test_nonzero_facts_need_their_hypotheses():
    n_any = sp.Symbol("n", integer=True)
    m_any = sp.Symbol("m", integer=True)
    # n = 0 is allowed here, so cos n = 1 can happen: SymPy must not claim cos n - 1 != 0.
    assert not NonZero("claim", "cos n ≠ 1", sp.cos(n_any) - 1).verify().proved
    # n = m = 0 is allowed here, where n - 2πm vanishes.
    assert not NonZero("claim", "n − 2πm ≠ 0", n_any - 2 * sp.pi * m_any).verify().proved


def test_rational_multiple_of_a_period_is_not_claimed_nonzero():
    # 2000 = 2000·1 is an integer multiple of 1: only π's irrationality makes part 7 true.
    assert not NonZero("claim", "n − 2000m ≠ 0", unique.N - 2000 * unique.M).verify().proved


@pytest.mark.parametrize(
    ("d_model", "period"), [(2, 2 * sp.pi), (4, 200 * sp.pi), (8, 2000 * sp.pi)]
)
def test_real_period_for_rational_frequencies(d_model, period):
    assert unique.real_period(d_model) == period
    assert unique.periodicity_derivation(d_model).verify().proved


@pytest.mark.parametrize("d_model", [6, 16])
def test_no_real_period_for_irrational_ratios(d_model):
    assert unique.real_period(d_model) is None
    with pytest.raises(ValueError, match="irrational"):
        unique.periodicity_derivation(d_model)


def test_wrong_period_is_refuted():
    pe = pe_vector(POS, 8)
    wrong = Derivation(
        "claim", "PE(pos + 200π) = PE(pos)", (Step(pe.subs(POS, POS + 200 * sp.pi)), Step(pe))
    )
    assert wrong.verify().status == "refuted"


def test_build_with_aperiodic_d_model_shows_the_d_model_8_period():
    theorem = unique.build(d_model=6)
    assert any("2000⋅π" in p.title for p in theorem.parts)
    assert theorem.twin_kwargs == {"d_model": 6}


def _brute_force(table):
    d = np.sqrt(((table[:, None, :] - table[None, :, :]) ** 2).sum(-1))
    d[np.diag_indices(len(table))] = np.inf
    return d.min()


@pytest.mark.parametrize(
    ("max_len", "d_model"), [(2, 2), (3, 4), (300, 8), (400, 2), (200, 16), (500, 4)]
)
def test_nearest_pair_matches_brute_force(max_len, d_model):
    table = sinusoidal_pe(max_len, d_model)
    best = nearest_pair(table)
    assert best.distance == pytest.approx(_brute_force(table), rel=1e-12)
    assert 0 <= best.p < best.q < max_len
    assert np.linalg.norm(table[best.p] - table[best.q]) == pytest.approx(best.distance, rel=1e-12)


def test_nearest_pair_finds_a_repeated_row():
    table = sinusoidal_pe(50, 8)
    table[37] = table[5]
    best = nearest_pair(table)
    assert best.distance == 0 and (best.p, best.q) == (5, 37)


def test_twin_reports_positive_minimum_distances():
    table = nearest_rows_table()
    assert table.passed is True
    assert [row[0] for row in table.rows] == [50, 1000, 10000]
    assert all(row[2] > 0.1 for row in table.rows)


@pytest.mark.parametrize("kwargs", [{"max_lens": (1,)}, {"max_lens": ()}, {"d_model": 5}])
def test_twin_rejects_bad_input(kwargs):
    with pytest.raises(ValueError):
        nearest_rows_table(**kwargs)


def test_nearest_pair_rejects_a_single_row():
    with pytest.raises(ValueError, match="rows >= 2"):
        nearest_pair(np.zeros((1, 8)))


@pytest.mark.slow
def test_hundred_thousand_rows():
    table = sinusoidal_pe(10**5, 8)
    best = nearest_pair(table)
    # Independent check: each row q against row 0 is one candidate pair; none may beat the answer.
    from_zero = np.sqrt(((table[1:] - table[0]) ** 2).sum(axis=1)).min()
    assert 0 < best.distance <= from_zero
    assert best.distance == pytest.approx(0.03857, abs=1e-5)
