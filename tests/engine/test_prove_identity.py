"""prove_identity's input handling."""

import pytest
import sympy as sp

from proofs import prove_identity

x = sp.Symbol("x", real=True)


def test_strings_are_refused_not_evaluated():
    with pytest.raises(TypeError, match="parse_expression"):
        prove_identity("__import__('os')", x)


def test_shape_mismatch_is_a_value_error():
    with pytest.raises(ValueError, match="same shape"):
        prove_identity(sp.Matrix([x, x]), sp.Matrix([[x, x]]))


def test_ints_are_accepted():
    assert prove_identity(sp.cos(x) ** 2 + sp.sin(x) ** 2, 1).proved


def test_bool_is_refused():
    with pytest.raises(TypeError):
        prove_identity(True, x)
