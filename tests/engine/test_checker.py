"""The link checker: symbolic reduction, seeded high-precision sampling, and their verdicts."""

import pytest
import sympy as sp

from proofs.engine.derivation import Derivation, Step, check_link, prove_identity
from proofs.engine.pointwise import check_numeric
from proofs.engine.sampling import sample_points, satisfies
from proofs.engine.symbolic import check_uncited

x = sp.Symbol("x", real=True)
n = sp.Symbol("n", integer=True)
z = sp.Symbol("z")
p = sp.Symbol("p", positive=True)


def test_true_trig_identity_is_proved():
    verdict = prove_identity(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1)
    assert verdict.status == "proved"
    assert verdict.counterexample is None


def test_claim_true_only_for_integers_is_refuted_on_reals():
    verdict = prove_identity(sp.sin(sp.pi * x), 0)
    assert verdict.status == "refuted"
    assert verdict.counterexample is not None
    assert verdict.counterexample.lhs != verdict.counterexample.rhs


def test_same_claim_holds_for_integer_symbols():
    # sin(pi*n) with integer n must not be refuted by cancellation noise near zero.
    m = sp.Symbol("m", integer=True)
    assert prove_identity(sp.sin(sp.pi * m + sp.pi), -sp.sin(sp.pi * m)).status == "proved"


def test_claim_off_by_tiny_exact_constant_is_refuted():
    verdict = prove_identity(sp.sin(x) ** 2 + sp.cos(x) ** 2, 1 + sp.Rational(1, 10**45))
    assert verdict.status == "refuted"
    assert float(verdict.counterexample.difference) < 0


def test_claim_off_by_tiny_relative_factor_is_refuted():
    verdict = prove_identity(x * (1 + sp.Rational(1, 10**70)), x)
    assert verdict.status == "refuted"


def test_sqrt_of_square_depends_on_assumptions():
    assert prove_identity(sp.sqrt(p**2), p).status == "proved"
    assert prove_identity(sp.sqrt(x**2), x).status == "refuted"
    assert prove_identity(sp.sqrt(z**2), z).status == "refuted"


def test_matrix_claim_checks_every_entry():
    good = sp.Matrix([[sp.sin(2 * x)], [sp.cos(2 * x)]])
    bad = sp.Matrix([[2 * sp.sin(x) * sp.cos(x)], [sp.cos(x) ** 2 + sp.sin(x) ** 2]])
    verdict = prove_identity(good, bad)
    assert verdict.status == "refuted"
    assert verdict.counterexample.entry == (1, 0)


def test_symbolic_result_names_the_rule():
    result = check_uncited(sp.sin(x + n), sp.sin(x) * sp.cos(n) + sp.cos(x) * sp.sin(n))
    assert result.passed is True
    assert result.rule == "angle addition"


def test_symbolic_nonzero_constant_is_a_certificate():
    result = check_uncited(x + 2, x + 1)
    assert result.passed is False
    assert result.residue == 1


def test_symbolic_inconclusive_is_not_a_pass():
    result = check_uncited(sp.sin(x), x)
    assert result.passed is None


def test_inconclusive_symbolic_with_no_counterexample_is_undecided():
    # True for real x != 0, but no reduction closes it: "undecided", never "proved".
    link = check_link(sp.atan(x) + sp.atan(1 / x), sp.pi / 2 * sp.sign(x))
    assert link.symbolic.passed is None
    assert link.numeric.passed is True
    assert link.status == "undecided"


def test_wrong_claim_that_algebra_cannot_reduce_is_refuted_numerically():
    h = sp.Symbol("h", positive=True)
    link = check_link(sp.acos(sp.cos(h)), h)
    assert link.status == "refuted"


def test_numeric_check_respects_positive_assumption():
    result = check_numeric(sp.Abs(p), p)
    assert result.passed is True
    assert result.points >= 24


def test_numeric_check_skips_points_outside_the_domain():
    result = check_numeric(1 / x, 1 / x)
    assert result.passed is True


def test_sampling_is_seeded_and_respects_assumptions():
    d = sp.Symbol("d", integer=True, positive=True, even=True)
    first = [next(sample_points([d, x], seed=3)) for _ in range(2)]
    assert first[0] == first[1]
    for point in (next(sample_points([d, x], seed=s)) for s in range(30)):
        assert satisfies(d, point[d])
        assert point[d] % 2 == 0 and point[d] > 0
        assert point[x].is_real


def test_unsatisfiable_assumption_gives_no_points():
    weird = sp.Symbol("w", transcendental=True)
    assert list(sample_points([weird])) == []
    # Symbolically identical, but with no admissible point the numeric half cannot pass.
    verdict = prove_identity(weird, weird)
    assert verdict.status == "undecided"


def test_broken_link_in_true_claim_is_undecided_not_refuted():
    chain = Derivation(
        "claim",
        "true claim, wrong middle step",
        (
            Step(sp.sin(2 * x)),
            Step(sp.sin(x)),
            Step(2 * sp.sin(x) * sp.cos(x)),
        ),
    )
    verdict = chain.verify()
    assert verdict.status == "undecided"
    assert [link.status for link in verdict.links] == ["refuted", "refuted"]


def test_derivation_with_false_claim_is_refuted():
    chain = Derivation("claim", "false claim", (Step(sp.sin(x)), Step(sp.cos(x))))
    assert chain.verify().status == "refuted"


def test_symbols_sharing_a_name_are_kept_apart():
    plain, real = sp.Symbol("x"), sp.Symbol("x", real=True)
    verdict = prove_identity(sp.sqrt(plain**2) + real, plain + real)
    assert verdict.status == "refuted"
    assert set(verdict.counterexample.point) == {"x (real)", "x (complex)"}


def test_pythagorean_rule_closes_squares_of_cosines():
    result = check_uncited(sp.cos(x) ** 4 - sp.sin(x) ** 4, sp.cos(2 * x))
    assert result.passed is True
    assert result.rule == "multiple angle, Pythagorean identity"


def test_sum_rule_merges_sums_over_the_same_range():
    i, n = sp.Symbol("i", integer=True), sp.Symbol("n", integer=True, positive=True)
    lhs = sp.Sum(sp.sin(x * i) ** 2, (i, 0, n)) + sp.Sum(sp.cos(x * i) ** 2, (i, 0, n))
    result = check_uncited(lhs, n + 1)
    assert result.passed is True
    assert result.rule == "sum termwise"


def test_sum_rule_does_not_capture_a_free_index():
    # i outside the Sum is a different variable from the bound i: merging would be wrong.
    i, n = sp.Symbol("i", integer=True), sp.Symbol("n", integer=True, positive=True)
    claim = sp.Sum(i, (i, 0, n)) - i * sp.Sum(1, (i, 0, n))
    assert check_uncited(claim, 0).passed is not True
    assert prove_identity(claim, 0).status == "refuted"


def test_numeric_half_refutes_a_false_double_sum():
    # Both sides are evaluated exactly at each point; the certificate must see the difference
    # too: SymPy's evalf leaves a multi-index Sum unevaluated, and an uncertified difference
    # used to count as agreement ("numeric ✓" for sides that differ by 1 everywhere).
    i, j = sp.Symbol("i", integer=True), sp.Symbol("j", integer=True)
    m = sp.Symbol("m", integer=True, positive=True)
    double = sp.Sum(i * j, (i, 0, m), (j, 0, m))
    assert check_numeric(double, (m * (m + 1) / 2) ** 2).passed is True
    wrong = check_numeric(double, (m * (m + 1) / 2) ** 2 + 1)
    assert wrong.passed is False
    assert float(wrong.counterexample.difference) == -1.0


def test_functions_without_an_mpmath_translation_give_undecided_not_a_crash():
    w = sp.Symbol("w")
    # re, im and conjugate now translate; 0**(-n) holds zoo and has no translation.
    assert (
        prove_identity(sp.re(w) ** 2 + sp.im(w) ** 2, w * sp.conjugate(w) + 1).status == "refuted"
    )
    n = sp.Symbol("n", integer=True, nonpositive=True)
    verdict = prove_identity(0 ** (-n), 0)
    assert verdict.status == "undecided"
    assert "cannot be evaluated numerically" in verdict.links[0].numeric.detail


def test_absorbed_digits_make_the_balls_wider_not_the_claim_false():
    # At 256 bits, 10**100 swallows x: the ball of the difference is wide and contains 0, so the
    # precision is raised until it is tight. The true identity passes, certified.
    big = sp.Integer(10) ** 100
    result = check_numeric(sp.sin(x + big), sp.sin(x) * sp.cos(big) + sp.cos(x) * sp.sin(big))
    assert result.passed is True
    assert result.max_relative <= result.tolerance
    assert "certified by ball arithmetic" in result.summary()


HALF = sp.Symbol("x", real=True)


@pytest.mark.parametrize(
    "lhs, rhs",
    [
        (1 - sp.sin(HALF), (sp.sin(HALF / 2) - sp.cos(HALF / 2)) ** 2),
        (1 - sp.cos(HALF), 2 * sp.sin(HALF / 2) ** 2),
        (sp.sin(HALF), 2 * sp.sin(HALF / 2) * sp.cos(HALF / 2)),
        (sp.cos(2 * HALF / 3), 1 - 2 * sp.sin(HALF / 3) ** 2),
        (sp.sin(HALF / 2 + HALF / 3), sp.sin(5 * HALF / 6)),
    ],
)
def test_angles_in_rational_ratio_close_by_an_exact_rule(lhs, rhs) -> None:
    # sin(x) and sin(x/2) are related once written over the common angle x/2: exact algebra,
    # not trigsimp (whose zeros need a numeric confirmation).
    result = check_uncited(lhs, rhs)
    assert result.passed and not result.needs_confirmation, result.rule


@pytest.mark.parametrize(
    "lhs, rhs",
    [
        (1 - sp.sin(HALF), (sp.sin(HALF / 2) + sp.cos(HALF / 2)) ** 2),
        (sp.sin(HALF), sp.sin(HALF / 2) * sp.cos(HALF / 2)),
        (sp.cos(HALF / 3), 1 - 2 * sp.sin(HALF / 3) ** 2),
    ],
)
def test_false_half_angle_claims_are_not_reduced_to_zero(lhs, rhs) -> None:
    assert not check_uncited(lhs, rhs).passed
    assert prove_identity(lhs, rhs).status == "refuted"


def test_sum_rule_sums_polynomial_summands_and_leaves_the_rest_as_sums() -> None:
    # Σ 1 and Σ i have closed forms SymPy finds at once; for Σ cos(k·10000^(-2i/d)) it searches
    # for half a minute, so such a remainder is left a Sum (the claim stays undecided, not slow).
    from proofs.engine.rules import CLOSED_FORM
    from proofs.engine.rules.normal_form import equal_by_algebra

    i, n, k, d = sp.symbols("i n k d", integer=True, positive=True)
    assert equal_by_algebra(
        CLOSED_FORM(sp.Sum(1, (i, 0, n - 1)) - n + sp.Sum(i, (i, 0, n - 1))), n * (n - 1) / 2
    )
    assert equal_by_algebra(CLOSED_FORM(sp.Sum(2**i, (i, 0, n - 1)) - 2**n), -1)
    left = CLOSED_FORM(sp.Sum(sp.cos(k / 10000 ** (2 * i / d)), (i, 0, n - 1)) + 1)
    assert left.has(sp.Sum)


def test_replayed_point_streams_are_the_seeded_stream_and_independent_copies() -> None:
    import itertools
    import threading

    from proofs.engine.sampling import _draw, sample_points, symbol_order

    a, n = sp.Symbol("a", real=True), sp.Symbol("n", integer=True, positive=True)
    fresh = list(itertools.islice(_draw(tuple(sorted({a, n}, key=symbol_order)), 3), 40))
    first, second = sample_points([n, a], seed=3), sample_points([a, n], seed=3)
    interleaved = [next(it) for _ in range(20) for it in (first, second)]
    assert interleaved[0::2] == fresh[:20] == interleaved[1::2]
    interleaved[0][a] = sp.Integer(99)  # a caller's change never reaches the next caller
    assert next(iter(sample_points([a, n], seed=3))) == fresh[0]
    assert next(iter(sample_points([a, n], seed=4))) != fresh[0]
    results: list[list] = []

    def read() -> None:
        results.append(list(itertools.islice(sample_points([a, n], seed=5), 200)))

    threads = [threading.Thread(target=read) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == results[0] for r in results) and len(results[0]) == 200


def test_a_point_neither_certified_equal_nor_different_is_never_agreement(monkeypatch) -> None:
    # Mutation testing: with `uncertain` never recorded, such points counted as agreeing and
    # the numeric half passed. Here the ball evaluator answers "unknown" at chosen points.
    from proofs.engine import pointwise
    from proofs.engine.certified import Decision

    real = pointwise.certify_difference
    calls = {"n": 0}

    def unknown_at_third(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            return Decision("unknown", "the ball straddles 0 at every precision", 8192)
        return real(*args, **kwargs)

    monkeypatch.setattr(pointwise, "certify_difference", unknown_at_third)
    result = check_numeric(sp.sin(x) ** 2, 1 - sp.cos(x) ** 2)
    assert result.passed is None and "could not be certified" in result.detail

    def always_unknown(*args, **kwargs):
        return Decision("unknown", "the ball straddles 0 at every precision", 8192)

    monkeypatch.setattr(pointwise, "certify_difference", always_unknown)
    result = check_numeric(x, x)
    assert result.passed is None and "could not be certified" in result.detail
    assert check_numeric(sp.Integer(2), sp.Integer(2)).passed is None  # a constant: one point
