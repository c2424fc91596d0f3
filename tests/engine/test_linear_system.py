"""solve_linear keeps every equation and reports certificates."""

import pytest
import sympy as sp

from proofs.engine.linear_system import solve_linear

a, b = sp.symbols("a b")
c = sp.Symbol("c", positive=True)


def test_unique_solution():
    result = solve_linear([a + b - 3, a - b - 1], [a, b])
    assert result.status == "solved"
    assert result.solution == {a: 2, b: 1}


def test_inconsistent_system_has_certificate():
    result = solve_linear([a - 1, a - 2], [a])
    assert result.status == "inconsistent"
    _, constant = result.certificate
    assert constant != 0


def test_equation_without_unknowns_is_kept():
    result = solve_linear([a - 1, c], [a])
    assert result.status == "inconsistent"


def test_undetermined_parameter_condition_is_undecided():
    x = sp.Symbol("x")
    result = solve_linear([a - 1, x], [a])
    assert result.status == "undecided"
    assert "x = 0" in result.reason


def test_free_unknowns_are_reported():
    result = solve_linear([a + b], [a, b])
    assert result.status == "solved"
    assert result.free == (b,)


def test_nonlinear_system_is_refused():
    with pytest.raises(ValueError, match="not linear"):
        solve_linear([a * b - 1], [a, b])
