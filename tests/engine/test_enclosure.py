"""Certified enclosures: the ends come from the ball, rounded outward, and always hold the value."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from proofs.engine.enclosure import Enclosure, decimal, enclose


@pytest.mark.parametrize(
    ("value", "digits"),
    [
        (sp.sqrt(2), 5),
        (sp.pi - 3, 3),
        (-sp.exp(-20), 4),
        (sp.Integer(10) ** 8 + sp.sqrt(3), 12),
        (sp.log(2) / 1000, 6),
    ],
)
def test_the_enclosure_holds_the_value_and_is_one_or_two_units_wide(value, digits) -> None:
    found = enclose(value, digits)
    with mpmath.workdps(60):
        exact = mpmath.mpf(sp.N(value, 60))
        assert (
            mpmath.mpf(found.low.p) / found.low.q
            <= exact
            <= mpmath.mpf(found.high.p) / found.high.q
        )
        magnitude = mpmath.floor(mpmath.log10(abs(exact)))
    unit = sp.Integer(10) ** int(magnitude - digits + 1)
    assert 0 < found.high - found.low <= 2 * unit
    assert found.sign == (1 if value.is_positive else -1)


def test_an_exact_rational_is_a_point_interval() -> None:
    found = enclose(sp.Rational(1, 2), 5)
    assert (found.low, found.high) == (sp.Rational(1, 2), sp.Rational(1, 2))
    assert found.text() == "[0.50000, 0.50000]"


def test_a_value_at_a_point() -> None:
    x = sp.Symbol("x", real=True)
    assert enclose(sp.sin(x), 4, {x: sp.Integer(1)}).text() == "[0.8414, 0.8415]"


def test_zero_and_bad_digits_are_refused() -> None:
    with pytest.raises(ValueError, match="could not be enclosed"):
        enclose(sp.sin(sp.pi), 3, budget_bits=512)
    with pytest.raises(ValueError, match="digits must be an int from 1 to 50"):
        enclose(sp.sqrt(2), 0)
    with pytest.raises(ValueError, match="not a real number"):
        enclose(sp.sqrt(-2), 3)


def test_decimals_read_as_written() -> None:
    assert decimal(sp.Rational(14800, 10**7), 5) == "0.0014800"
    assert decimal(sp.Rational(-14801, 10**8), 5) == "-1.4801e-4"
    assert decimal(sp.Integer(597780), 5) == "5.9778e5"
    assert Enclosure(sp.Rational(-1), sp.Rational(1), 2).sign == 0
