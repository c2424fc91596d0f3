"""The relative dot-product theorem, the wrong variants that must fail, and its numeric twin."""

import numpy as np
import pytest
import sympy as sp

from numeric.checks.dot_product import closed_form, dot_product_table, dot_products
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import Refutation
from proofs.theorems.sinusoidal import dot_product
from proofs.theorems.sinusoidal.definitions import D_MODEL, POS, I, K, omega, pe_pair

W = omega()


@pytest.mark.parametrize(
    "derivation",
    [
        dot_product.pair_dot_derivation,
        dot_product.pair_distance_derivation,
        lambda: dot_product.pair_even_derivation(dot_product.pair_dot_derivation()),
    ],
    ids=["pair_dot", "pair_distance", "pair_dot_even"],
)
def test_pair_statements_are_proved_with_i_and_d_model_symbolic(derivation):
    d = derivation()
    assert {I, D_MODEL, POS, K} <= d.symbols
    assert d.verify().proved


@pytest.mark.slow
def test_dot_product_theorem_is_proved():
    result = dot_product.build().verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


@pytest.mark.parametrize("d_model", [2, 4, 4096])
def test_whole_vector_statements_for_other_d_model(d_model):
    for make in (
        dot_product.vector_dot_fact,
        dot_product.vector_distance_fact,
        dot_product.vector_even_fact,
        dot_product.not_odd_fact,
    ):
        assert make(d_model).verify().proved, make.__name__


def test_not_odd_is_refuted_at_k_0_for_the_given_d_model():
    theorem = dot_product.build(d_model=4)
    fact = theorem.parts[-1]
    assert fact.name == "not_odd" and dict(fact.at) == {D_MODEL: 4, K: 0}
    verdict = fact.verify()
    assert verdict.proved and "[4.0000, 4.0000]" in verdict.reason


def test_an_odd_function_is_not_refuted_where_not_odd_is():
    # The same claim for sin(kω_i), which is odd: at k = 0 both sides are 0, so no refutation.
    fact = dot_product.not_odd_refutation(8)
    odd = fact.claim.replace(sp.cos, sp.sin)
    assert not Refutation("odd", "t", odd, fact.at).verify().proved


@pytest.mark.parametrize(
    "wrong_rhs",
    [sp.sin(K * W), 2 - 2 * sp.cos(K * W)],
    ids=["sin", "distance"],
)
def test_wrong_pair_dot_products_are_refuted(wrong_rhs):
    a, b = pe_pair(POS, W), pe_pair(POS + K, W)
    claim = Derivation("claim", "wrong", (Step((a.T * b)[0]), Step(wrong_rhs)))
    assert claim.verify().status == "refuted"


def test_odd_claim_is_refuted():
    odd = Derivation(
        "claim",
        "f(−k) = −f(k)",
        (Step(dot_product.offset_sum(-K, 2)), Step(-dot_product.offset_sum(K, 2))),
    )
    assert odd.verify().status == "refuted"


def test_twin_passes_and_is_even():
    table = dot_product.build().run_twin()
    assert table.passed is True
    k0 = table.rows[0]
    assert k0[0] == 0 and k0[1] == pytest.approx(4.0)


def test_dot_products_do_not_depend_on_p_and_match_the_closed_form():
    ks = [-7, -1, 0, 3, 250]
    values = dot_products(ks, d_model=16, bases=(0, 5, 999, 31337))
    assert np.ptp(values, axis=0).max() < 1e-13
    assert np.abs(values - closed_form(ks, d_model=16)).max() < 1e-13


def test_twin_fails_for_a_non_sinusoidal_claim():
    # The closed form for another d_model is the wrong value: the check must notice.
    ks = [1, 2, 3]
    assert np.abs(dot_products(ks, d_model=8)[0] - closed_form(ks, d_model=16)).max() > 0.1


@pytest.mark.parametrize("kwargs", [{"ks": ()}, {"ks": (1.5,)}, {"d_model": 3}, {"bases": ()}])
def test_twin_rejects_bad_input(kwargs):
    with pytest.raises(ValueError):
        dot_product_table(**kwargs)
