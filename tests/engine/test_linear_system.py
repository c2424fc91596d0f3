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


def test_independent_blocks_are_solved_apart_and_joined() -> None:
    x, y = sp.symbols("x y")
    result = solve_linear([a + b - 3, a - b - 1, x - 2 * y, x + y - 3], [a, x, b, y])
    assert result.status == "solved"
    assert result.solution == {a: 2, b: 1, x: 2, y: 1}
    assert list(result.solution) == [a, x, b, y]


def test_an_inconsistent_block_makes_the_whole_system_inconsistent() -> None:
    x = sp.Symbol("x")
    result = solve_linear([a - 1, x - 1, x - 2], [a, x])
    assert result.status == "inconsistent"
    combination, constant = result.certificate
    # The certificate is a combination of the original equations that is a nonzero constant.
    assert combination.free_symbols == set() and combination == -constant != 0


def test_an_unknown_no_equation_uses_is_free() -> None:
    result = solve_linear([a - 1], [a, b])
    assert result.status == "solved" and result.free == (b,) and result.solution[b] == b


def test_a_relation_between_generators_is_seen_by_the_certified_zero_test() -> None:
    # sin² + cos² - 1 is nonzero as a polynomial in sin k and cos k, but it is 0: a must not
    # be taken as a pivot, and the system is then inconsistent (0 = 1).
    k = sp.Symbol("k", real=True)
    result = solve_linear([(sp.sin(k) ** 2 + sp.cos(k) ** 2 - 1) * a - 1], [a])
    assert result.status == "inconsistent"


def test_radicals_of_one_base_are_related() -> None:
    # Over 10**(1/7) and 10**(2/7) as unrelated generators this has the same solution; as powers
    # of t = 10**(1/7) it is found exactly, and the values are shown with the radicals back.
    r1, r2 = sp.Integer(10) ** sp.Rational(1, 7), sp.Integer(10) ** sp.Rational(2, 7)
    result = solve_linear([a + b - 1, r1 * a + r2 * b], [a, b])
    assert result.status == "solved"
    value_a, value_b = result.solution[a], result.solution[b]
    assert not value_a.atoms(sp.Dummy) and not value_b.atoms(sp.Dummy)
    assert abs(sp.N(value_a + value_b - 1, 50)) < 1e-45
    assert abs(sp.N(r1 * value_a + r2 * value_b, 50)) < 1e-45


def test_a_vandermonde_system_in_radicals_is_inconsistent_with_a_nonzero_certificate() -> None:
    s = sp.Symbol("sigma", nonzero=True)
    w = [sp.Integer(10) ** sp.Rational(-j, 7) for j in (1, 2, 3)]
    equations = [
        sum(wj ** (2 * m) * u for wj, u in zip(w, (a, b, c), strict=True)) - s for m in range(4)
    ]
    result = solve_linear(equations, [a, b, c])
    assert result.status == "inconsistent"
    assert result.certificate[1].has(s) and not result.certificate[1].atoms(sp.Dummy)
    # The long exact right side is kept in the certificate; the message shows it rounded.
    assert result.reason.endswith("·sigma (rounded), which is false"), result.reason


def test_short_right_sides_are_shown_exactly() -> None:
    result = solve_linear([a - 1, a - 2], [a])
    assert result.reason == "the equations force 0 = 1, which is false"


def test_floats_are_their_exact_binary_value() -> None:
    result = solve_linear([sp.Float(0.1) * a - 1], [a])
    assert result.solution[a] == 1 / sp.Rational(sp.Float(0.1))


def test_non_commutative_entries_fall_back_to_expressions() -> None:
    q = sp.Symbol("q", commutative=False)
    result = solve_linear([a - q], [a])
    assert result.status == "solved" and result.solution[a] == q


def test_the_expression_domain_never_takes_sympys_is_zero_for_a_zero() -> None:
    # A non-commutative symbol sends the system to SymPy's EX domain, whose truth test is
    # is_zero: acosh(1 + 10**-20).is_zero is True there, but the coefficient is 1.4e-10.
    tiny = sp.acosh(1 + sp.Rational(1, 10**20))
    q = sp.Symbol("q", commutative=False)
    result = solve_linear([tiny * a - q, tiny * b - 1], [a, b])
    assert result.status == "solved"
    assert result.solution[a] == q / tiny and result.solution[b] == 1 / tiny
