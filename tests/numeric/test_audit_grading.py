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

from numeric.audit.grading import SOUND, cap, grade, needed_roundoff, sixteen_bit_format
from numeric.audit.precision import EPS
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


# Mutation killers (docs/mutation-testing.md, "The audits' grading"): the grade's arithmetic and
# thresholds on numbers worked out by hand, so that a cap made wider, a threshold moved or a
# branch taken on the wrong condition cannot let a faulty table through unnoticed.
U32 = 2.0**-24  # float32's unit roundoff


def test_the_cap_is_the_documented_formula():
    # rounding + A·u·((8 + 3·|ln ω|)·θ + 4), by hand: at θ = 0 only the 4 is left; at θ = 10
    # with ln ω = -2, (8 + 6)·10 + 4 = 144. ln ω = +1.5 counts by its size: (8 + 4.5)·3 + 4.
    got = cap("float32", 1e-8, 2.0, np.array([0.0, 10.0]), -2.0)
    assert got == pytest.approx([1e-8 + 2 * U32 * 4, 1e-8 + 2 * U32 * 144], rel=1e-12)
    got = cap("float64", 0.0, 1.0, np.array(3.0), 1.5)
    assert got == pytest.approx(2.0**-53 * 41.5, rel=1e-12)
    # Without ln ω the pair is the fastest (ω = 1): 8·10 + 4 = 84.
    assert cap("float32", 0.0, 1.0, np.array(10.0)) == pytest.approx(U32 * 84, rel=1e-12)


def test_the_needed_roundoff_is_each_rows_worst_pair():
    # Growth by hand: row 0, pair 0: 8·100 + 4 = 804; pair 1 (ln ω = -4): (8 + 12)·2 + 4 = 44;
    # row 1: 4 and 24. Each entry needs (error − rounding)/(A·growth); the row its largest.
    errors = np.array([[3e-7, 1e-7], [1e-9, 5e-9]])
    angles = np.array([[100.0, 2.0], [0.0, 1.0]])
    got = needed_roundoff(errors, angles, np.array([0.0, -4.0]), 1e-9, 2.0)
    want = [(1e-7 - 1e-9) / (2 * 44), (5e-9 - 1e-9) / (2 * 24)]  # the slow pair, twice
    assert got == pytest.approx(want, rel=1e-12)
    # An amplitude below 1 scales the caps down, so the same errors need more: twice at A = 0.5.
    got = needed_roundoff(errors, angles, np.array([0.0, -4.0]), 1e-9, 0.5)
    assert got == pytest.approx([4 * w for w in want], rel=1e-12)


def test_a_sixteen_bit_computation_is_taken_in_the_stored_format():
    # float16 and bfloat16 have different spacings (2^-10, 2^-7): the wider one never stands in.
    assert [sixteen_bit_format(p) for p in ("float16", "bfloat16", "float32")] == [
        "float16",
        "bfloat16",
        "float16",
    ]


def test_the_envelope_bounds_every_row_by_hand():
    # Angles |pos|·ω_max = 0, 4, 8, 10, 20 (ω_max = 2). Rows at angles up to 8 set the constant:
    # a = max(rounding, 1e-8, 3e-8, 5e-8) = 5e-8; beyond, b = max((9e-8 − a)/10,
    # (2.5e-7 − a)/20) = max(4e-9, 1e-8) = 1e-8. The envelope is the rotation check's tolerance
    # for a table computed in 16 bits (numeric.table_audit.identify), so a wider one lets more by.
    errors = np.array([1e-8, 3e-8, 5e-8, 9e-8, 2.5e-7])
    accuracy = grade(
        errors, np.zeros(5), np.array([0, 2, 4, 5, 10.0]), 2.0, 1e-8, "float32", "float16", "no"
    )
    assert accuracy.envelope_a == pytest.approx(5e-8, rel=1e-12)
    assert accuracy.envelope_b == pytest.approx(1e-8, rel=1e-12)
    assert np.all(accuracy.envelope(np.array([0, 4, 8, 10, 20.0])) >= errors)
    # No row beyond angle 8: the error does not grow, b = 0.
    short = grade(errors[:3], np.zeros(3), np.array([0, 2, 4.0]), 2.0, 1e-8, "float32", "f", "no")
    assert (short.envelope_a, short.envelope_b) == (5e-8, 0.0)


def graded(needed: list[float], precision: str = "float32", **kw):
    """grade() of rows whose largest errors are 2e-8 (twice the rounding, so never 'rounded
    once' by the errors alone) and whose needed roundoffs are given."""
    rows = len(needed)
    return grade(
        np.asarray(kw.get("errors", [2e-8] * rows), dtype=float),
        np.asarray(needed, dtype=float),
        np.arange(rows, dtype=float),
        0.01,
        1e-8,
        precision,
        kw.get("sixteen", "float16"),
        "unfit",
        kw.get("slack", 0.0),
    )


@pytest.mark.parametrize(
    ("needed", "precision", "sixteen", "expected", "computed_in"),
    [
        # Each format's half-ulp is its own bound, inclusive; 1 % beyond it is the next one.
        ([0.0, EPS["float32"] / 2], "float32", "float16", "computed in float32", "float32"),
        ([0.0, EPS["float32"] / 2 * 1.01], "float32", "float16", "computed in 16 bits", "float16"),
        ([EPS["float16"] / 2], "float16", "float16", "computed in 16 bits", "float16"),
        ([EPS["float16"] / 2 * 1.01], "float16", "float16", "unfit", None),
        # bfloat16's half-ulp (2^-8) is wider than float16's (2^-11): what fits one only.
        ([2.0**-9], "bfloat16", "bfloat16", "computed in 16 bits", "bfloat16"),
        ([2.0**-9], "float16", "float16", "unfit", None),
        ([1.0], "float32", "float16", "unfit", None),
        # Stored in float64: float64's own half-ulp, then float32's.
        ([EPS["float64"] / 2], "float64", "float16", "computed in float64", "float64"),
        ([EPS["float64"] / 2 * 1.01], "float64", "float16", "computed in float32", "float32"),
        # Stored coarser: a float64 computation rounded once; beyond float64's half-ulp it is not.
        ([EPS["float64"] / 2], "float32", "float16", "rounded once", "float64"),
        ([EPS["float64"] / 2], "bfloat16", "bfloat16", "rounded once", None),
        ([EPS["float64"] / 2 * 1.01], "float32", "float16", "computed in float32", "float32"),
    ],
)
def test_the_grade_is_the_narrowest_format_that_explains_the_rows(
    needed, precision, sixteen, expected, computed_in
):
    accuracy = graded(needed, precision, sixteen=sixteen)
    assert (accuracy.grade, accuracy.computed_in) == (expected, computed_in)
    assert accuracy.sound == (expected in SOUND)


def test_rounded_once_is_every_row_within_the_rounding_and_slack():
    # Errors exactly at rounding + slack are rounded once whatever the needed roundoff says; a
    # row 0.1 % beyond, or one large row among zeros, is graded by its needed roundoff (unfit).
    assert graded([1.0], errors=[1e-8]).grade == "rounded once"
    assert graded([1.0], errors=[1.5e-8], slack=0.5e-8).grade == "rounded once"
    assert graded([1.0], errors=[1.5015e-8], slack=0.5e-8).grade == "unfit"
    faulty = graded([0.0, 1.0], errors=[0.0, 1.0])
    assert faulty.grade == "unfit"
    assert (faulty.max_error, faulty.worst_position) == (1.0, 1.0)
