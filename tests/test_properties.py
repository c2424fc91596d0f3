"""Property-based tests (hypothesis) across d_model, base, pos and k.

Numeric: numeric.tables.sinusoidal_pe satisfies the rotation and dot-product identities to
within a tolerance derived from its documented accuracy_bound. Symbolic: the engine's verdict
on the whole-vector rotation does not depend on which concrete d_model is drawn — the true
statement is proved and a variant with one block transposed is refuted, for every d_model.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric.tables import accuracy_bound, sinusoidal_pe
from proofs.engine.blocks import BlockEquation, BlockMatrix, Label, Product, consecutive
from proofs.engine.derivation import prove_identity
from proofs.engine.facts import Blockwise
from proofs.theorems.sinusoidal.definitions import (
    POS,
    K,
    dense_shift_matrix,
    pe_vector,
    rotation_matrix,
)
from proofs.theorems.sinusoidal.rotation import pair_derivation, vector_fact

# Table entries are within EPS of the exact values; U is the float64 unit roundoff.
EPS = accuracy_bound(np.float64)
U = np.finfo(np.float64).eps / 2

d_models = st.integers(1, 32).map(lambda h: 2 * h)
bases = st.floats(1.5, 1e6, allow_nan=False, allow_infinity=False)
positions = st.integers(0, 10**6)
offsets = st.integers(-(10**4), 10**4)


def _row(pos: int, d_model: int, base: float) -> np.ndarray:
    return sinusoidal_pe(1, d_model, base=base, start=pos)[0]


def rotation_tolerance() -> float:
    """Bound on |R(kω)·p(pos) − p(pos+k)| per entry, every factor read from the table.

    Each entry of R·p is c·a + s·b with |c|, |s|, |a|, |b| <= 1, each within EPS of exact:
    a product errs by at most 2·EPS + EPS², the sum by twice that, p(pos+k) by EPS more, and
    the float64 products, sum and difference add at most 4 unit roundoffs of 2.
    """
    return 5 * EPS + 2 * EPS**2 + 8 * U


def dot_tolerance(d_model: int) -> float:
    """Bound on |PE(pos)·PE(pos+k) − Σ cos(kω_i)|: the per-pair rotation bound, d_model/2
    times, plus the rounding of two float64 sums of d_model terms of magnitude <= 1."""
    return (d_model // 2) * (5 * EPS + 2 * EPS**2) + 2 * d_model * d_model * U


@settings(max_examples=60, deadline=None)
@given(d_model=d_models, base=bases, pos=positions, k=offsets)
def test_rotation_identity_holds_numerically(d_model: int, base: float, pos: int, k: int) -> None:
    p, q, r = _row(pos, d_model, base), _row(pos + k, d_model, base), _row(k, d_model, base)
    for i in range(d_model // 2):
        s, c = r[2 * i], r[2 * i + 1]  # sin(kω_i), cos(kω_i)
        rotated = np.array([[c, s], [-s, c]]) @ p[2 * i : 2 * i + 2]
        assert np.max(np.abs(rotated - q[2 * i : 2 * i + 2])) <= rotation_tolerance()


@settings(max_examples=60, deadline=None)
@given(d_model=d_models, base=bases, pos=positions, k=offsets)
def test_dot_product_depends_only_on_k(d_model: int, base: float, pos: int, k: int) -> None:
    p, q, r = _row(pos, d_model, base), _row(pos + k, d_model, base), _row(k, d_model, base)
    assert abs(p @ q - np.sum(r[1::2])) <= dot_tolerance(d_model)


@settings(max_examples=40, deadline=None)
@given(d_model=d_models, base=bases, pos=positions, k=offsets)
def test_concatenated_layout_is_a_permutation(d_model: int, base: float, pos: int, k: int) -> None:
    interleaved = sinusoidal_pe(1, d_model, base=base, start=pos + k)[0]
    concatenated = sinusoidal_pe(1, d_model, base=base, start=pos + k, layout="concatenated")[0]
    half = d_model // 2
    np.testing.assert_array_equal(concatenated[:half], interleaved[0::2])
    np.testing.assert_array_equal(concatenated[half:], interleaved[1::2])


def _broken_shift(d_model: int, block: int) -> sp.ImmutableMatrix:
    """M_k with block `block` transposed: R(−kω) in place of R(kω) for that one pair."""
    m = dense_shift_matrix(K, d_model).as_mutable()
    j = 2 * block
    m[j : j + 2, j : j + 2] = m[j : j + 2, j : j + 2].T
    return sp.ImmutableMatrix(m)


def _check_d_model_independence(d_model: int, block: int) -> None:
    fact = vector_fact(d_model)
    assert fact.verify().status == "proved"
    # The same statement with M_k given block by block, one block broken: refuted at that block.
    dense = _broken_shift(d_model, block)
    blocks = tuple(dense[2 * b : 2 * b + 2, 2 * b : 2 * b + 2] for b in range(d_model // 2))
    m_k = BlockMatrix(blocks, consecutive(d_model), d_model, Label("B_{i}", "B_{{i}}"))
    statement = BlockEquation(Product((m_k, fact.statement.lhs.factors[1])), fact.statement.rhs)
    structured = Blockwise("claim", "broken", statement, pair_derivation(), fact.bindings).verify()
    assert structured.status == "refuted" and f"block {block} " in structured.reason
    broken = prove_identity(
        _broken_shift(d_model, block) * pe_vector(POS, d_model), pe_vector(POS + K, d_model)
    )
    assert broken.status == "refuted"
    assert broken.counterexample is not None
    # The discrepancy is found in the broken block, not elsewhere.
    assert broken.counterexample.entry[0] in (2 * block, 2 * block + 1)


@st.composite
def _d_model_and_block(draw, top: int) -> tuple[int, int]:
    d_model = draw(st.integers(1, top // 2).map(lambda h: 2 * h))
    return d_model, draw(st.integers(0, d_model // 2 - 1))


@settings(max_examples=2, deadline=None)
@given(case=_d_model_and_block(4))
def test_symbolic_verdicts_do_not_depend_on_d_model(case: tuple[int, int]) -> None:
    _check_d_model_independence(*case)


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(case=_d_model_and_block(16))
def test_symbolic_verdicts_do_not_depend_on_d_model_exhaustive(case: tuple[int, int]) -> None:
    _check_d_model_independence(*case)


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(w=st.fractions(-50, 50).filter(lambda f: f != 0).map(sp.Rational))
def test_pair_identity_verdict_does_not_depend_on_the_frequency(w: sp.Rational) -> None:
    """The pair identity is proved and its transposed variant refuted at any concrete ω."""
    pair = sp.ImmutableMatrix([sp.sin(POS * w), sp.cos(POS * w)])
    shifted = sp.ImmutableMatrix([sp.sin((POS + K) * w), sp.cos((POS + K) * w)])
    assert prove_identity(rotation_matrix(K * w) * pair, shifted).status == "proved"
    assert prove_identity(rotation_matrix(K * w).T * pair, shifted).status == "refuted"
