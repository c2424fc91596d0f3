"""find_shift_map: exact decisions, certificates, refusals, and the shift-maps theorem and twin."""

import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from numeric.checks.shift_maps import shift_fit_table
from proofs import ShiftMap, find_shift_map
from proofs.engine.facts import ShiftMapFact
from proofs.theorems.sinusoidal.definitions import POS, K, L, pe_vector, rotation_matrix
from proofs.theorems.sinusoidal.shift_maps import build

K_NONZERO = sp.Symbol("k", real=True, nonzero=True)
sin, cos, exp = sp.sin, sp.cos, sp.exp


def _is_zero_matrix(m: sp.Matrix) -> bool:
    return all(sp.simplify(e) == 0 for e in m)


def _applies(found: ShiftMap) -> bool:
    """M·f(pos) + b = f(pos + k) at seeded points, checked here, not by the answer's derivation."""
    f = sp.Matrix(found.components)
    image = found.matrix * f + (found.offset if found.affine else sp.zeros(*f.shape))
    difference = sp.lambdify(
        [POS, found.k, *sorted(f.free_symbols - {POS}, key=str)], image - f.subs(POS, POS + found.k)
    )
    rng = np.random.default_rng(5)
    return all(
        np.allclose(
            np.asarray(
                difference(*rng.uniform(0.5, 3.0, 2 + len(f.free_symbols - {POS}))), dtype=complex
            ),
            0,
            atol=1e-9,
        )
        for _ in range(5)
    )


def test_sine_cosine_pair_gets_the_rotation():
    found = find_shift_map([sin(POS), cos(POS)], POS, K)
    assert found.exists is True and found.verdict.proved
    assert _is_zero_matrix(found.matrix - rotation_matrix(K))
    assert POS not in found.matrix.free_symbols


def test_span_that_only_appears_after_rewriting():
    found = find_shift_map([sin(POS) ** 2, cos(POS) ** 2, sin(POS) * cos(POS)], POS, K)
    assert found.exists is True and found.matrix.shape == (3, 3)
    assert _applies(found)


def test_lone_sine_has_no_map_and_a_certificate():
    found = find_shift_map([sin(POS)], POS, K)
    assert found.exists is False and found.matrix is None
    cert = found.certificate
    assert sp.simplify(cert.value.subs(K, 1)) != 0  # the obstruction is real at k = 1
    assert sp.simplify(cert.value.subs(K, sp.pi)) == 0  # and vanishes where M = -1 does work
    assert {basis for _, _, basis, _ in cert.equations} == {exp(sp.I * POS), exp(-sp.I * POS)}
    assert "≠ 0" in cert.holds_for and "k = 0" in cert.holds_for


@pytest.mark.parametrize("ramp", [POS, POS / L], ids=["raw index", "ramp pos/L"])
def test_ramp_and_index_linear_no_affine_yes(ramp):
    linear = find_shift_map([ramp], POS, K)
    assert linear.exists is False
    assert sp.simplify(linear.certificate.value - ramp.subs(POS, K)) == 0
    affine = find_shift_map([ramp], POS, K, affine=True)
    assert affine.exists is True
    assert affine.matrix == sp.ImmutableMatrix([[1]])
    assert sp.simplify(affine.offset[0] - ramp.subs(POS, K)) == 0


def test_nonzero_k_makes_the_certificate_hold_for_every_k():
    cert = find_shift_map([POS], POS, K_NONZERO).certificate
    assert cert.value == K_NONZERO and cert.holds_for.startswith("every admissible k (")


def test_ramp_with_constant_feature_has_a_linear_map():
    found = find_shift_map([POS / L, sp.Integer(1)], POS, K)
    assert found.exists is True and _applies(found)


def test_quadratic_needs_the_offset():
    assert find_shift_map([POS, POS**2], POS, K).exists is False
    found = find_shift_map([POS, POS**2], POS, K, affine=True)
    assert found.exists is True and _applies(found)


@pytest.mark.parametrize(
    "components",
    [
        [exp(POS)],
        [exp(sp.Symbol("c") * POS)],
        [sin(sp.Symbol("omega") * POS), cos(sp.Symbol("omega") * POS)],
        [2**POS],
        [L, POS / L + 3],
        [sin(L)],
        pytest.param(list(pe_vector(POS, 4)), marks=pytest.mark.slow),
    ],
    ids=["exp", "exp(c pos)", "symbolic omega", "2**pos", "constant in L", "sin(L)", "d_model 4"],
)
def test_maps_that_exist(components):
    found = find_shift_map(components, POS, K, affine=len(components) == 2 and components[0] == L)
    assert found.exists is True and _applies(found)


def test_exp_map_is_e_to_the_k():
    assert find_shift_map([exp(POS)], POS, K).matrix == sp.ImmutableMatrix([[exp(K)]])


def test_sine_with_the_wrong_partner_has_no_map():
    found = find_shift_map([sin(POS), cos(2 * POS)], POS, K)
    assert found.exists is False and found.certificate is not None


def test_exponents_that_may_coincide_leave_it_undecided():
    om = sp.Symbol("om", real=True)  # om = 0 makes sin(om·pos) = 0, which does have a map
    found = find_shift_map([sin(om * POS)], POS, K)
    assert found.exists is None and "may coincide" in found.reason


def test_integer_k_is_not_refuted_by_a_real_k_certificate():
    k_int = sp.Symbol("k", integer=True)
    assert find_shift_map([sin(sp.pi * POS)], POS, k_int).exists is True  # M = (-1)^k
    assert find_shift_map([sin(POS)], POS, k_int).exists is None


@pytest.mark.parametrize(
    "term",
    [sp.log(POS), sp.sqrt(POS), 1 / POS, exp(POS**2), sp.Abs(POS), sp.tan(POS)],
    ids=str,
)
def test_unsupported_terms_are_named(term):
    found = find_shift_map([sin(POS), term], POS, K)
    assert found.exists is None and f"unsupported term {term}" in found.reason


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        (([], POS, K), ValueError, "at least one"),
        (([POS], "pos", K), TypeError, "pos must be a SymPy Symbol"),
        (([POS], POS, 3), TypeError, "k must be a SymPy Symbol"),
        ((["sin(pos)"], POS, K), TypeError, "parse_expression"),
        (("sin(pos)", POS, K), TypeError, "list of SymPy"),
        (([POS + K], POS, K), ValueError, "shift symbol"),
        (([POS], POS, POS), ValueError, "different"),
        (([POS], sp.Symbol("n", integer=True), K), ValueError, "integer"),
    ],
)
def test_bad_arguments(args, error, match):
    with pytest.raises(error, match=match):
        find_shift_map(*args)


# ---- soundness over random members of the supported class -------------------------------------

ATOMS = [sp.Integer(1), POS, POS**2, sin(POS), cos(POS), sin(2 * POS), cos(2 * POS), exp(POS)]
GRID = np.linspace(-2.0, 2.0, 41)


def _values(components, points):
    f = sp.lambdify(POS, sp.Matrix(components), "numpy")
    return np.array([np.asarray(f(p), dtype=complex).ravel() for p in points]).real


def _no_map_numerically(found: ShiftMap, k: float) -> bool:
    """The least-squares map from f(pos) to f(pos + k) over a grid leaves a visible residual."""
    source = _values(found.components, GRID)
    if found.affine:
        source = np.hstack([source, np.ones((len(GRID), 1))])
    target = _values(found.components, GRID + k)
    m, *_ = np.linalg.lstsq(source, target, rcond=None)
    return float(np.abs(source @ m - target).max()) > 1e-6


term = st.tuples(st.integers(-2, 2).filter(bool), st.sampled_from(ATOMS), st.sampled_from(ATOMS))
component = st.lists(term, min_size=1, max_size=2).map(
    lambda ts: sp.Add(*(c * a * b for c, a, b in ts))
)


def _check_answer(components, affine):
    found = find_shift_map(components, POS, K, affine=affine)
    assert found.exists is not None, found.reason  # the class is decided exactly
    if found.exists:
        k_value, points = 0.7, (-1.3, 0.4, 1.9)
        m = np.array(found.matrix.subs(K, k_value).evalf(), dtype=float)
        b = np.array(found.offset.subs(K, k_value).evalf(), dtype=float).ravel() if affine else 0
        for p, (fp, fpk) in zip(
            points,
            zip(
                _values(components, points),
                _values(components, [q + k_value for q in points]),
                strict=True,
            ),
            strict=True,
        ):
            assert np.allclose(m @ fp + b, fpk, rtol=1e-9, atol=1e-9), p
    else:
        k_value = next(
            v
            for v in (0.7, 1.1, 2.3)
            if abs(complex(found.certificate.value.subs(K, v).evalf())) > 1e-6
        )
        assert _no_map_numerically(found, k_value)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(component, min_size=1, max_size=2), st.booleans())
def test_random_encodings_quick(components, affine):
    _check_answer(components, affine)


@pytest.mark.long(38)
@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(component, min_size=1, max_size=3), st.booleans())
def test_random_encodings_exhaustive(components, affine):
    _check_answer(components, affine)


# ---- the theorem and its numeric twin ---------------------------------------------------------


@pytest.mark.slow
def test_theorem_proves_every_part_at_small_d_model():
    result = build(d_model=2).verify()
    assert result.status == "proved", [str(p.verdict) for p in result.parts]


def test_fact_with_the_wrong_expectation_is_refuted():
    wrong = ShiftMapFact(
        "claim", "lone sine claimed to shift", sp.ImmutableMatrix([sin(POS)]), POS, K, True
    )
    assert wrong.verify().status == "refuted"


def test_numeric_twin_agrees():
    table = shift_fit_table()
    assert table.passed is True
    fits = {row[0]: row[3] for row in table.rows}
    assert fits["ramp with a constant 1 appended"] < 1e-12 < fits["ramp pos/max_len"]
    with pytest.raises(ValueError, match="k must satisfy"):
        shift_fit_table(max_len=10, k=5)


# --- Mutation-testing killers (docs/mutation-testing.md): the rewrite over pos^n·e^{λ·pos} ---


@pytest.mark.parametrize(
    "expr",
    [
        sp.sinh(2 * POS + 1),
        sp.cosh(POS) * sp.sinh(POS),
        3 * sp.sin(POS) + 2 * sp.sin(POS) * sp.cos(POS),
        POS**2 * sp.exp(-POS) - sp.cos(3 * POS) ** 2,
    ],
    ids=["sinh", "cosh-times-sinh", "mixed-products", "polynomial-and-square"],
)
def test_exp_poly_rewrite_has_the_value_of_the_expression(expr: sp.Expr) -> None:
    """Σ c·pos^n·e^{λ·pos} must be the expression itself: a wrong sign in the sinh row or in
    the product of two rewrites changes the coefficient system, and so the answer."""
    from proofs.engine.exp_poly import exp_poly

    rebuilt = sum(c * POS**n * sp.exp(lam * POS) for (n, lam), c in exp_poly(expr, POS).items())
    for value in (sp.Rational(3, 10), sp.Rational(-7, 4)):
        assert abs(sp.N((rebuilt - expr).subs(POS, value), 30)) < 1e-25


def test_hyperbolic_pair_has_a_map() -> None:
    found = find_shift_map([sp.sinh(POS), sp.cosh(POS)], POS, K)
    assert found.exists is True
