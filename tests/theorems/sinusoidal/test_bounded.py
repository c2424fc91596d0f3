"""The boundedness theorem, its checked inequality facts, and its numeric twin."""

import pytest
import sympy as sp

from numeric.checks.bounded import bounds_and_norms_table
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import NonNegative
from proofs.theorems.sinusoidal import bounded
from proofs.theorems.sinusoidal.definitions import D_MODEL, POS, I, omega, pe_vector

X = POS * omega()


@pytest.mark.slow
def test_bounded_theorem_is_proved():
    result = bounded.build().verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


def test_pair_statement_is_symbolic_in_i_and_d_model():
    derivation = bounded.pair_norm_derivation()
    assert {I, D_MODEL, POS} <= derivation.symbols
    assert derivation.verify().proved


def test_each_bound_is_a_proved_fact_in_general():
    for fact in bounded.bound_facts():
        assert {I, D_MODEL} <= fact.expr.free_symbols
        assert fact.verify().proved, fact.title


@pytest.mark.parametrize("d_model", [2, 6, 4096])
def test_norm_for_other_d_model(d_model):
    fact = bounded.vector_norm_fact(d_model)
    assert fact.verify().proved
    assert len(fact.statement.rhs.terms) == d_model // 2
    if d_model <= 16:  # the dense vector costs a SymPy power per entry
        assert fact.statement.lhs.left.dense() == pe_vector(POS, d_model)


def test_wrong_norm_is_refuted():
    pe = pe_vector(POS, 4)
    wrong = Derivation("claim", "‖PE‖² = d_model", (Step((pe.T * pe)[0]), Step(sp.Integer(4))))
    assert wrong.verify().status == "refuted"


def test_nonnegative_with_a_wrong_witness_is_refuted():
    fact = NonNegative(
        "claim",
        "1 − sin x = (sin(x/2) + cos(x/2))²",
        1 - sp.sin(X),
        (sp.sin(X / 2) + sp.cos(X / 2)) ** 2,
    )
    assert fact.verify().status == "refuted"


def test_nonnegative_with_a_negative_witness_is_refuted():
    fact = NonNegative("claim", "−1 − sin² x ≥ 0", -1 - sp.sin(X) ** 2, -1 - sp.sin(X) ** 2)
    assert fact.verify().status == "refuted"


def test_nonnegative_with_an_unsigned_witness_is_undecided_not_proved():
    fact = NonNegative("claim", "sin x ≥ 0", sp.sin(X), sp.sin(X))
    assert fact.verify().status == "undecided"


def test_twin_passes_and_reports_each_d_model():
    table = bounded.build().run_twin()
    assert table.passed is True
    assert [row[0] for row in table.rows] == [2, 8, 64, 512]
    for d, _, lo, hi, half, err, tol, ok in table.rows:
        assert -1 - 1e-14 <= lo < 0 < hi <= 1 + 1e-14 and half == d / 2 and err <= tol and ok


@pytest.mark.parametrize(
    "kwargs", [{"max_len": 0}, {"d_models": (3,)}, {"d_models": ()}, {"max_len": -5}]
)
def test_twin_rejects_bad_input(kwargs):
    with pytest.raises(ValueError):
        bounds_and_norms_table(**kwargs)
