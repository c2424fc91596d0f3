"""The rope_scaling theorem: each method's properties, and the certified paper-against-code
refutations; the claims it refutes must not come back proved."""

import mpmath
import pytest
import sympy as sp

from numeric.rope import exact
from numeric.rope.methods import llama3, yarn
from proofs.engine.certified import to_arb
from proofs.engine.derivation import Derivation, Step, prove_identity
from proofs.engine.enclosure import enclose
from proofs.engine.facts import NonNegative
from proofs.engine.rules import ALGEBRA
from proofs.theorems.rope import scaling as rs


@pytest.fixture(scope="module")
def run():
    return rs.build(d_model=4).verify()


def test_theorem_is_proved(run) -> None:
    assert run.status == "proved", [(p.part.name, str(p.verdict)) for p in run.parts]


def test_ntk_is_symbolic_in_i_d_b_and_s() -> None:
    assert {rs.I, rs.D, rs.B, rs.S} <= rs.ntk_ratio_derivation().symbols


def test_a_wrong_ntk_exponent_is_refuted() -> None:
    wrong = Derivation(
        "claim",
        "d/(d − 1)",
        (
            Step(rs.ntk_ratio_derivation().lhs),
            Step(rs.S ** (-2 * rs.I / (rs.D - 1))),
        ),
    )
    assert wrong.verify().status == "refuted"


def test_yarn_paper_and_code_differ_at_pair_38_and_match_mpmath() -> None:
    c = rs.YARN
    code = rs.yarn_code_derivation().rhs
    paper = rs.paper_value(c["i"], c["d"], c["base"], c["s"], c["length"], 1, 32)
    assert prove_identity(code, paper).status == "refuted"
    with mpmath.workdps(40):
        want_code = yarn.exact_frequency(38, 128, 10000, 16, 4096, 32, 1)
        want_paper = exact.yarn_paper(38, 128, 10000, 16, 4096, 1, 32)
        for value, want in ((code, want_code), (paper, want_paper)):
            ball = to_arb(value, {}, 128)
            assert abs(float(ball.mid()) / float(want) - 1) < 1e-12


def test_llama3_and_hf_yarn_at_pair_33_match_mpmath() -> None:
    c = rs.LLAMA3
    derivation = next(
        p for p in rs.build(d_model=4).parts if getattr(p, "name", "") == "hf_yarn_pair_33"
    )
    llama = rs.paper_value(c["i"], c["d"], c["base"], c["s"], c["length"], 1, 4)
    got = to_arb(derivation.rhs / llama - 1, {}, 128)
    want = (
        yarn.exact_frequency(33, 128, 500000, 8, 8192, 4, 1)
        / llama3.exact_frequency(33, 128, 500000, 8, 1, 4, 8192)
        - 1
    )
    assert abs(float(got.mid()) - float(want)) < 1e-12


def test_a_wrong_certified_interval_is_not_proved() -> None:
    code = rs.yarn_code_derivation().rhs
    # The paper value is 4.8661e-4, not the code's: this enclosure must fail.
    wrong = rs.interval_fact(
        "wrong", "w", code, sp.Rational(486605, 10**9), sp.Rational(486615, 10**9)
    )
    assert wrong.verify().status == "refuted"


def test_a_certified_value_is_enclosed_by_the_engine_and_checked_on_its_own() -> None:
    code = rs.yarn_code_derivation().rhs
    found = enclose(code, 5)
    fact = rs.enclosure_fact("v", "θ′_38 lies in {interval}", code, 5)
    assert fact.title == f"θ′_38 lies in {found.text()}"
    assert fact.verify().status == "proved"
    # The same check refutes the ends one unit in the last digit too high.
    unit = sp.Rational(1, 10**7)
    shifted = rs.interval_fact("w", "w", code, found.low + 2 * unit, found.high + 2 * unit)
    assert shifted.verify().status == "refuted"
    with pytest.raises(ValueError, match="must show the interval"):
        rs.enclosure_fact("v", "no place for it", code, 5)


def test_the_logits_scale_by_mu_squared_not_mu() -> None:
    pair = rs.temperature_derivation()
    by_mu = Derivation(
        "claim",
        "μ",
        (Step(pair.lhs), Step(sp.MatMul(rs.MU, pair.rhs.args[1], evaluate=False), by=ALGEBRA)),
    )
    assert by_mu.verify().status == "refuted"


def test_the_vllm_base_equals_the_dynamic_base_only_at_l_equal_s_l() -> None:
    at_sl = rs.dynamic_base(rs.S * rs.L).subs(rs.ALPHA, rs.S)
    vllm = rs.B * (rs.S**2 - rs.S + 1) ** (rs.D / (rs.D - 2))
    assert prove_identity(sp.simplify(at_sl), vllm).status == "proved"


def test_ntk_bounds_are_not_proved_for_a_factor_below_one() -> None:
    # With s = e^(g_s) and g_s < 0 the ratio exceeds 1: the witness is then not ≥ 0.
    negative = sp.Symbol("g_s", negative=True)
    fact = rs.ntk_inequalities()[0]
    flipped = NonNegative(
        "wrong",
        "w",
        fact.expr.subs(rs.LOG_S, negative),
        fact.witness.subs(rs.LOG_S, negative),
        fact.by,
    )
    assert flipped.verify().status != "proved"


@pytest.mark.slow
def test_numeric_twin_passes() -> None:
    assert rs.build().run_twin().passed is True
