"""The precision grade holds each entry to its own pair's cap at its own position (issue 34.3).

The tables are built here in float64 from the paper's formula, sin/cos of pos·b^(-2i/d), with
one pair's base changed; the expected verdicts come from the angle error of that pair alone,
worked out by hand (or with mpmath) as each test says, never from the audit.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from numeric.audit.grading import SOUND, cap
from numeric.table_audit import audit

D = 16


def table(rows: int, bases: list[float], dtype: type = np.float64) -> np.ndarray:
    """The paper's (interleaved) table with pair i at base bases[i]."""
    pos = np.arange(rows, dtype=np.float64)[:, None]
    omega = np.array([b ** (-2.0 * i / D) for i, b in enumerate(bases)])
    out = np.empty((rows, D))
    out[:, 0::2], out[:, 1::2] = np.sin(pos * omega), np.cos(pos * omega)
    return out.astype(dtype)


@pytest.mark.parametrize(("rows", "slow_base"), [(2000, 9990.0), (200, 9999.0)])
def test_a_slowest_pair_at_the_wrong_base_is_not_sound(rows, slow_base):
    # By mpmath at 50 digits: the slowest pair's angle at the last row is off by
    # (rows - 1)·|10000^(-7/8) − slow_base^(-7/8)|: 4.4e-4 at (2000, 9990), 5.5e-6 at
    # (200, 9999). float32 code moves that angle θ (0.63 or 0.063 rad) by the rounding of θ
    # (2^-24·θ), of ω = exp(-(7/8)·ln 10000) (about 3·|ln ω|·2^-24·θ = 24·2^-24·θ) and of sin
    # and cos (a few 2^-24): under 2^-24·(33·θ + 4). The error is over 10 times that.
    with mpmath.workdps(50):
        off = (rows - 1) * abs(
            mpmath.mpf(10000) ** (-7 / mpmath.mpf(8))
            - mpmath.mpf(slow_base) ** (-7 / mpmath.mpf(8))
        )
        angle = (rows - 1) * mpmath.mpf(10000) ** (-7 / mpmath.mpf(8))
    assert off > 10 * 2.0**-24 * (33 * angle + 4)
    result = audit(table(rows, [10000.0] * 7 + [slow_base], np.float32))
    assert not result.clean
    assert result.accuracy["grade"] not in SOUND
    # The shift identity with the paper's ω, k = rows // 3: the slow pair's residual is
    # k·|Δω| (1.8e-4 and 1.8e-6), beyond (1 + √2) times its float32 cap at those positions.
    k = rows // 3
    with mpmath.workdps(50):
        residual = k * off / (rows - 1)
    assert residual > 2 * (1 + math.sqrt(2)) * 2.0**-24 * (33 * angle + 4)
    assert result.rotation["passed"] is False


@pytest.mark.parametrize("pair", range(1, D // 2))
def test_a_base_off_by_what_float32_can_see_is_caught_on_every_pair(pair):
    # Mutation check: pair i's base is b(1 + ε), which moves its angle a at position p by
    # e = p·ω_i·(2i/d)·ε to first order, and its entries by e·|cos a| and e·|sin a|. ε is
    # chosen so that at the last row the larger of the two is 1.5 times the float32 cap of
    # that pair there: no float32 computation explains it (and a cap twice too wide would).
    rows = 2000
    omega = 10000.0 ** (-2.0 * pair / D)
    last = (rows - 1) * omega
    seen = float(cap("float32", 0.0, 1.0, np.array(last), math.log(omega)))
    slope = max(abs(math.cos(last)), abs(math.sin(last)))
    eps = 1.5 * seen / slope / (last * 2 * pair / D)
    bases = [10000.0] * (D // 2)
    bases[pair] *= 1 + eps
    result = audit(table(rows, bases))
    assert not result.clean
    assert result.accuracy["grade"] not in SOUND


@pytest.mark.parametrize("pair", [1, D // 2 - 1])
def test_a_base_off_by_less_than_float32_makes_is_graded_float32(pair):
    # The other side: an angle error of 0.3 times the float32 cap is what float32 code can
    # make, so the table is sound, computed in float32 (it is not float64-accurate).
    rows = 2000
    omega = 10000.0 ** (-2.0 * pair / D)
    last = (rows - 1) * omega
    seen = float(cap("float32", 0.0, 1.0, np.array(last), math.log(omega)))
    bases = [10000.0] * (D // 2)
    bases[pair] *= 1 + 0.3 * seen / (last * 2 * pair / D)
    result = audit(table(rows, bases))
    assert result.clean
    assert result.accuracy["grade"] == "computed in float32"


def test_an_exact_table_stays_rounded_once():
    # The formula itself, rounded once to float32: within half an ulp of every value.
    result = audit(table(2000, [10000.0] * (D // 2), np.float32))
    assert result.clean and result.accuracy["grade"] == "rounded once"
