"""The symbolic encoding, lambdified, equals the numeric table: the two halves describe one thing."""

import numpy as np
import pytest
import sympy as sp

from numeric.tables import sinusoidal_pe
from proofs.theorems.sinusoidal.definitions import POS, pe_vector


@pytest.mark.parametrize(("d_model", "base"), [(8, 10000), (2, 10000), (16, 10000), (6, 500)])
def test_lambdified_symbolic_pe_equals_numeric_table(d_model, base):
    symbolic = sp.lambdify(POS, pe_vector(POS, d_model, sp.Integer(base)), modules="numpy")
    positions = np.arange(200, dtype=np.float64)
    from_symbols = np.stack([np.asarray(symbolic(p), dtype=np.float64).ravel() for p in positions])
    table = sinusoidal_pe(200, d_model, base=float(base))
    assert from_symbols.shape == table.shape
    # Both are float64 evaluations of the same formula; the symbolic one rounds pos*omega first.
    np.testing.assert_allclose(table, from_symbols, rtol=0, atol=1e-12)


def test_interleaved_layout_is_sin_then_cos():
    table = sinusoidal_pe(3, 4)
    symbolic = pe_vector(sp.Integer(2), 4)
    np.testing.assert_allclose(table[2], [float(v) for v in symbolic], atol=1e-15)
