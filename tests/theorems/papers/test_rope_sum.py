"""The sweep that decides Men et al.'s criterion: its float64 error bound's one assumption about
the machine (the library cos), and its verdicts against mpmath at 40 digits."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from flint import arb, fmpq

from proofs.engine.balls import precision
from proofs.theorems.papers import ledger
from proofs.theorems.papers.common.balls import decided_sign
from proofs.theorems.papers.common.rope_sum import COS_ERROR, REDUCTION, Criterion


def big_b(base: int, m: int) -> mpmath.mpf:
    """B(m) at 40 digits (set here, not on mpmath's global context: other tests share it)."""
    with mpmath.workdps(40):
        return sum(mpmath.cos(m * mpmath.power(base, mpmath.mpf(-2 * i) / 128)) for i in range(64))


def test_the_library_cos_and_sin_are_within_the_allowance_at_the_largest_arguments():
    rng = np.random.default_rng(7)
    x = np.concatenate([rng.uniform(0, 1.1e6, 2000), rng.uniform(0, 10, 200), [1048576.0]])
    with precision(128):
        for value, c, s in zip(x, np.cos(x), np.sin(x), strict=True):
            exact = arb(float(value))  # float(value) is exact: the double itself
            allowance = COS_ERROR + abs(value) * REDUCTION
            assert abs(float(exact.cos().mid()) - c) <= allowance
            assert abs(float(exact.sin().mid()) - s) <= allowance


def test_the_first_failure_is_certified_and_is_the_first_by_mpmath():
    criterion = Criterion(fmpq(10000))
    m, value = criterion.first_failure(5000)
    assert m == 1707 and value < 0
    assert big_b(10000, m) < 0
    assert all(big_b(10000, k) >= 0 for k in range(m))


def test_a_base_that_holds_is_swept_to_the_end_and_extended_incrementally():
    criterion = Criterion(fmpq(4300))
    assert criterion.decide(500) == ("holds", None)
    assert criterion.holds_to == 500
    assert criterion.decide(1000) == ("holds", None)
    assert criterion.holds_to == 1000


def test_the_error_bound_grows_with_m_and_stays_far_below_one():
    criterion = Criterion(fmpq(500000000))
    assert criterion.error_bound(10) < criterion.error_bound(2**20) < 1e-6


def test_bad_dimensions_and_bases_are_refused():
    with pytest.raises(ValueError, match="dim must be an even integer"):
        Criterion(fmpq(10000), 127)
    with pytest.raises(ValueError, match="base must be positive"):
        Criterion(fmpq(0))


def test_a_ball_that_keeps_zero_leaves_the_sign_undecided():
    assert decided_sign(lambda: arb(0)) == (None, arb(0))
    assert decided_sign(lambda: arb(2).sqrt() - arb(2).sqrt())[0] is None
    assert decided_sign(lambda: arb(2).sqrt() - 1)[0] == 1


def test_the_ledger_refuses_an_unknown_module():
    with pytest.raises(ValueError, match="only must name a claim module"):
        ledger("nope")
