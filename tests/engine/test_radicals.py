"""Radicals of one rational base as powers of one symbol."""

import sympy as sp

from proofs.engine.radicals import radicals_as_powers


def test_radicals_of_one_base_share_one_symbol_and_keep_their_value() -> None:
    x = sp.Symbol("x")
    r = sp.Integer(10) ** sp.Rational(1, 7)
    expr = r * x + r**2 - r**5 / 1000 + sp.sqrt(3) * x + sp.Rational(1, 2) ** sp.Rational(2, 3)
    radicals, back = radicals_as_powers([expr])
    written = expr.xreplace(radicals)
    assert len(back) == 3  # one symbol for 10, one for 3, one for 2 ((1/2)**(2/3) is 2**(1/3)/2)
    assert {str(v) for v in back.values()} == {"10**(1/7)", "sqrt(3)", "2**(1/3)"}
    assert not written.atoms(sp.Pow) - {p for p in written.atoms(sp.Pow) if p.exp.is_Integer}
    assert sp.expand(written.xreplace(back) - expr) == 0


def test_negative_bases_symbols_and_integer_powers_are_left_alone() -> None:
    x = sp.Symbol("x")
    expr = (-8) ** sp.Rational(1, 3) + x ** sp.Rational(1, 2) + sp.Integer(2) ** 5
    radicals, back = radicals_as_powers([expr])
    assert radicals == {} and back == {}
