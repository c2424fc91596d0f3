"""Soundness: deliberately wrong claims must come back refuted, with a counterexample.

Each claim below is false. The engine must say "refuted" and show a point (a Counterexample)
where the two sides differ; it must never say "proved". The families are the mistakes a
reader of the module makes: wrong signs, a transposed rotation, sin and cos swapped, an
off-by-one frequency exponent, 2i for i, the wrong base, the ramp taken for a linear map,
the dot product taken for odd in k, identities that need hypotheses the symbols do not
carry, and claims that are wrong only by a tiny exact constant.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from proofs.engine.derivation import Derivation, Step, explicit, prove_identity
from proofs.engine.facts import LinearSystem
from proofs.engine.linear_system import solve_linear
from proofs.engine.symbolic import check_uncited
from proofs.theorems.sinusoidal.definitions import (
    BASE,
    D_MODEL,
    POS,
    I,
    K,
    L,
    dense_shift_matrix,
    omega,
    pe_pair,
    pe_vector,
    rotation_matrix,
)

X = sp.Symbol("x", real=True)
Y = sp.Symbol("y", real=True)
N_REAL = sp.Symbol("n", real=True)
N_INT = sp.Symbol("n", integer=True)
Z = sp.Symbol("z")  # no assumptions: complex
N_PAIRS = sp.Symbol("n", integer=True, positive=True)
W = omega()
TINY_45 = sp.Rational(1, 10**45)
TINY_70 = sp.Rational(1, 10**70)
TINY_200 = sp.Rational(1, 10**200)


def _number(text: str) -> mpmath.mpf | mpmath.mpc:
    """A counterexample's printed value (real, or complex as "(a + bj)") as an mpmath number."""
    return mpmath.mpmathify(text.replace(" ", "").strip("()"))


def _dot(u: sp.MatrixBase, v: sp.MatrixBase) -> sp.Expr:
    return (u.T * v)[0, 0]


def _dot_pe(k: sp.Expr, d_model: int = 4) -> sp.Expr:
    return _dot(pe_vector(POS, d_model), pe_vector(POS + k, d_model))


def _concatenated(pos: sp.Expr, d_model: int) -> sp.ImmutableMatrix:
    v = pe_vector(pos, d_model)
    return sp.ImmutableMatrix(list(v[0::2]) + list(v[1::2]))


WRONG_CLAIMS: dict[str, tuple[sp.Basic, sp.Basic]] = {
    # --- wrong signs ---
    "sin-addition-minus": (
        sp.sin(X + Y),
        sp.sin(X) * sp.cos(Y) - sp.cos(X) * sp.sin(Y),
    ),
    "cos-addition-plus": (
        sp.cos(X + Y),
        sp.cos(X) * sp.cos(Y) + sp.sin(X) * sp.sin(Y),
    ),
    "rotation-shifts-back": (
        rotation_matrix(K * W) * pe_pair(POS, W),
        pe_pair(POS - K, W),
    ),
    "rotation-lower-sin-positive": (
        sp.ImmutableMatrix([[sp.cos(K * W), sp.sin(K * W)], [sp.sin(K * W), sp.cos(K * W)]])
        * pe_pair(POS, W),
        pe_pair(POS + K, W),
    ),
    "cos-double-angle-sign": (sp.cos(2 * X), 1 - 2 * sp.cos(X) ** 2),
    # --- transposed matrices ---
    "rotation-transposed": (
        rotation_matrix(K * W).T * pe_pair(POS, W),
        pe_pair(POS + K, W),
    ),
    "shift-matrix-transposed-d4": (
        dense_shift_matrix(K, 4).T * pe_vector(POS, 4),
        pe_vector(POS + K, 4),
    ),
    "rotation-is-its-own-inverse": (rotation_matrix(X) * rotation_matrix(X), sp.eye(2)),
    "rotations-compose-to-difference": (
        rotation_matrix(X) * rotation_matrix(Y),
        rotation_matrix(X - Y),
    ),
    # --- sin and cos swapped ---
    "sin-addition-is-cos": (
        sp.sin(POS + K),
        sp.cos(POS) * sp.cos(K) - sp.sin(POS) * sp.sin(K),
    ),
    "pair-cos-first": (
        rotation_matrix(K * W) * sp.ImmutableMatrix([sp.cos(POS * W), sp.sin(POS * W)]),
        sp.ImmutableMatrix([sp.cos((POS + K) * W), sp.sin((POS + K) * W)]),
    ),
    "rotation-sin-cos-swapped": (
        sp.ImmutableMatrix([[sp.sin(K * W), sp.cos(K * W)], [-sp.cos(K * W), sp.sin(K * W)]])
        * pe_pair(POS, W),
        pe_pair(POS + K, W),
    ),
    # --- frequency exponent off by one, 2i versus i, wrong base ---
    "exponent-2i-plus-1": (omega(), BASE ** (-(2 * I + 1) / D_MODEL)),
    "pair-index-i-plus-1": (
        rotation_matrix(K * omega(I + 1)) * pe_pair(POS, W),
        pe_pair(POS + K, W),
    ),
    "frequency-ratio-one-step": (omega(I + 1) / omega(I), BASE ** (-1 / D_MODEL)),
    "exponent-i-for-2i": (omega(), BASE ** (-I / D_MODEL)),
    "pair-with-i-for-2i": (
        rotation_matrix(K * W) * pe_pair(POS, BASE ** (-I / D_MODEL)),
        pe_pair(POS + K, BASE ** (-I / D_MODEL)),
    ),
    "euler-2i-for-i": (sp.exp(2 * sp.I * X), sp.cos(X) + sp.I * sp.sin(X)),
    "base-1000": (omega(), omega(base=sp.Integer(1000))),
    "base-e-for-10000": (omega(), sp.exp(-2 * I / D_MODEL)),
    "shift-matrix-other-d": (
        dense_shift_matrix(K, 4) * pe_vector(POS, 4),
        pe_vector(POS + K, 4, 1000),
    ),
    "concatenated-layout-is-interleaved": (pe_vector(POS, 4), _concatenated(POS, 4)),
    # --- the ramp is not a linear map ---
    "ramp-linear-factor-1-plus-k": ((POS + K) / L, (1 + K) * POS / L),
    "ramp-linear-factor-1-plus-k-over-l": ((POS + K) / L, (1 + K / L) * POS / L),
    "ramp-affine-shift-missing-l": ((POS + K) / L, POS / L + K),
    # --- the dot product is even in k, not odd ---
    "dot-product-sum-of-sines-any-d": (
        sp.Sum(
            sp.sin(POS * W) * sp.sin((POS + K) * W) + sp.cos(POS * W) * sp.cos((POS + K) * W),
            (I, 0, N_PAIRS - 1),
        ),
        sp.Sum(sp.sin(K * W), (I, 0, N_PAIRS - 1)),
    ),
    "norm-squared-sum-off-by-one": (
        sp.Sum(sp.sin(POS * W) ** 2 + sp.cos(POS * W) ** 2, (I, 0, N_PAIRS - 1)),
        N_PAIRS + 1,
    ),
    "dot-product-odd-in-k": (_dot_pe(-K), -_dot_pe(K)),
    "dot-product-is-sum-of-sines": (
        _dot_pe(K),
        sum(sp.sin(K * w) for w in (omega(0, 4), omega(1, 4))),
    ),
    "dot-product-depends-on-pos": (_dot_pe(K), _dot_pe(K).subs(K, POS)),
    "norm-squared-is-d-model": (_dot(pe_vector(POS, 4), pe_vector(POS, 4)), sp.Integer(4)),
    # --- true only under hypotheses the symbols do not carry ---
    "sqrt-of-square-real": (sp.sqrt(X**2), X),
    "abs-real": (sp.Abs(X), X),
    "sin-n-pi-real-n": (sp.sin(sp.pi * N_REAL), sp.Integer(0)),
    "period-2pi-k-real-k": (sp.sin(POS * W + 2 * sp.pi * K), sp.sin(POS * W)),
    "minus-one-power-integer": ((-1) ** N_INT, sp.Integer(1)),
    "sqrt-product-real": (sp.sqrt(X * Y), sp.sqrt(X) * sp.sqrt(Y)),
    "log-product-real": (sp.log(X * Y), sp.log(X) + sp.log(Y)),
    "atan-tan-real": (sp.atan(sp.tan(X)), X),
    "power-of-power-complex": ((Z**2) ** sp.Rational(1, 2), Z),
    # --- wrong by a tiny exact constant ---
    "pythagoras-plus-1e-45": (sp.sin(X) ** 2 + sp.cos(X) ** 2, 1 + TINY_45),
    "pythagoras-minus-1e-70": (sp.sin(POS * W) ** 2 + sp.cos(POS * W) ** 2, 1 - TINY_70),
    "rotation-entry-off-by-1e-45": (
        rotation_matrix(K * W) * pe_pair(POS, W),
        pe_pair(POS + K, W) + sp.ImmutableMatrix([0, TINY_45]),
    ),
    "pi-to-50-digits": (
        sp.pi,
        sp.Rational(314159265358979323846264338327950288419716939937510, 10**50),
    ),
    "exp-log-plus-1e-200": (sp.exp(sp.log(2) * X), 2**X + TINY_200),
    "pythagoras-plus-1e-200": (sp.sin(X) ** 2 + sp.cos(X) ** 2, 1 + TINY_200),
    # Both sides are about 1e-131: far below 1 but a factor 2 apart.
    "tiny-values-off-by-factor-2": (sp.exp(-300 - X**2), 2 * sp.exp(-300 - X**2)),
}


@pytest.mark.parametrize(("lhs", "rhs"), WRONG_CLAIMS.values(), ids=WRONG_CLAIMS.keys())
def test_wrong_claim_is_refuted_with_a_counterexample(lhs: sp.Basic, rhs: sp.Basic) -> None:
    verdict = prove_identity(lhs, rhs)
    assert not verdict.proved
    assert verdict.status == "refuted", verdict
    cx = verdict.counterexample
    assert cx is not None, verdict
    # The difference is computed at 120 digits: nonzero even when the leading digits of the
    # two sides agree (the tiny-constant claims).
    assert _number(cx.difference) != 0
    assert cx.lhs != cx.rhs or cx.difference != "0.0"


@pytest.mark.parametrize(("lhs", "rhs"), WRONG_CLAIMS.values(), ids=WRONG_CLAIMS.keys())
def test_symbolic_half_alone_never_reduces_a_wrong_claim_to_zero(
    lhs: sp.Basic, rhs: sp.Basic
) -> None:
    """Each half must be sound on its own: a rewrite rule that is not an identity (and so
    "reduces" a false difference to 0) is a bug even while the numeric half still catches it."""
    assert check_uncited(explicit(lhs), explicit(rhs), thorough=False).passed is not True


def test_suite_is_large_enough() -> None:
    assert len(WRONG_CLAIMS) >= 30


def test_counterexample_point_really_refutes() -> None:
    """The reported point is genuine: substituting it exactly shows the sides differ."""
    verdict = prove_identity(sp.sqrt(X**2), X)
    x = sp.Rational(verdict.counterexample.point["x"])
    assert sp.sqrt(x**2) != x


@pytest.mark.parametrize("tiny", [TINY_70, TINY_200], ids=["1e-70", "1e-200"])
def test_tiny_constant_difference_is_reported_exactly(tiny: sp.Rational) -> None:
    """Both sides are about 1, so the point must be evaluated at more than 200 digits to show
    a 1e-200 difference: the deeper look sizes its precision from the certificate."""
    verdict = prove_identity(sp.sin(X) ** 2 + sp.cos(X) ** 2, 1 + tiny)
    assert verdict.status == "refuted"
    assert mpmath.almosteq(_number(verdict.counterexample.difference), -mpmath.mpf(tiny), 1e-6)
    # Both sides print as 1.0: the leading digits agree, only the difference tells them apart.
    assert verdict.counterexample.lhs == verdict.counterexample.rhs


def test_wrong_step_inside_a_true_chain_is_never_proved() -> None:
    """A chain whose ends agree but whose middle step is false must not be proved."""
    chain = Derivation(
        "claim",
        "angle addition with a wrong middle step",
        (
            Step(sp.sin(X + Y)),
            Step(sp.sin(X) * sp.cos(Y) - sp.cos(X) * sp.sin(Y)),
            Step(sp.sin(X + Y)),
        ),
    )
    verdict = chain.verify()
    assert not verdict.proved
    assert verdict.status == "undecided"
    assert [link.status for link in verdict.links] == ["refuted", "refuted"]


# --- Wrong impossibility claims: a linear system said to have no solution when it has one ---
A = sp.Symbol("a", real=True)
B = sp.Symbol("b", real=True)


def test_redundant_equation_does_not_make_a_system_inconsistent() -> None:
    """2a - 2 = 0 repeats a - 1 = 0; its row reduces to 0 = 0, which is no obstruction."""
    result = solve_linear([A - 1, 2 * A - 2], [A])
    assert result.status == "solved"
    assert result.solution == {A: 1}
    assert (
        LinearSystem("claim", "no solution?", (A - 1, 2 * A - 2), (A,), "inconsistent")
        .verify()
        .status
        == "refuted"
    )


def test_coefficient_of_unknown_sign_is_not_taken_for_zero() -> None:
    """x·a = 1 has the solution a = 1/x unless x = 0: the engine cannot say "inconsistent"."""
    result = solve_linear([X * A - 1], [A])
    assert result.status == "undecided"
    assert "cannot tell" in result.reason
    fact = LinearSystem("claim", "no solution?", (X * A - 1,), (A,), "inconsistent")
    assert not fact.verify().proved


def test_inconsistency_certificate_is_a_combination_of_the_equations() -> None:
    result = solve_linear([A - 1, A + B - 2, B], [A, B])
    assert result.status == "inconsistent"
    combination, constant = result.certificate
    # The combination of the equations is the constant itself (up to the side it sits on).
    assert combination.free_symbols == set()
    assert sp.expand(combination + constant) == 0
    assert constant != 0
    assert f"0 = {constant}" in result.reason


def test_free_unknowns_keep_their_place_in_the_solution() -> None:
    result = solve_linear([A + B - 1], [A, B])
    assert result.status == "solved"
    assert result.free == (B,)
    assert result.solution == {A: 1 - B, B: B}


def test_unknown_absent_from_every_equation_is_free_not_an_obstruction() -> None:
    """a appears in no equation: it is free, and b - 1 = 0 is still solvable."""
    result = solve_linear([B - 1], [A, B])
    assert result.status == "solved"
    assert result.free == (A,)
    assert result.solution == {A: A, B: 1}
    assert (
        LinearSystem("claim", "no solution?", (B - 1,), (A, B), "inconsistent").verify().status
        == "refuted"
    )


def test_coefficient_that_is_zero_in_disguise_is_dropped_from_the_solution() -> None:
    """sin²x + cos²x − 1 multiplies a: it is 0, so a is free and b = 1 whatever a is."""
    zero = sp.sin(X) ** 2 + sp.cos(X) ** 2 - 1
    result = solve_linear([zero * A + B - 1], [A, B])
    assert result.status == "solved"
    assert result.free == (A,)
    assert result.solution == {A: A, B: 1}


def test_integer_counterexample_point_is_shown_exactly() -> None:
    """(-1)**n = 1 fails exactly at the odd integers; the point must say which one."""
    verdict = prove_identity((-1) ** N_INT, sp.Integer(1))
    n = int(verdict.counterexample.point["n"])
    assert n % 2 == 1
    assert (-1) ** n != 1


P = sp.Symbol("p", positive=True)


@pytest.mark.parametrize(
    ("coefficient", "value"),
    [
        ((P + 1) ** 2 - P**2, 1 / (2 * P + 1)),  # nonzero once expanded
        (sp.sin(X) ** 2 + sp.cos(X) ** 2 - 1 + P, 1 / P),  # nonzero once simplified
    ],
    ids=["nonzero-after-expand", "nonzero-after-simplify"],
)
def test_coefficient_nonzero_in_disguise_is_a_pivot(coefficient: sp.Expr, value: sp.Expr) -> None:
    """c·a = 1 with c != 0 (SymPy sees it only after rewriting c): a = 1/c, not "no solution"."""
    result = solve_linear([coefficient * A - 1], [A])
    assert result.status == "solved"
    assert sp.simplify(result.solution[A] - value) == 0


def test_polynomial_zero_in_disguise_is_not_a_pivot() -> None:
    zero = (X + 1) ** 2 - X**2 - 2 * X - 1
    result = solve_linear([zero * A + B - 1], [A, B])
    assert result.status == "solved"
    assert result.free == (A,)
    assert result.solution == {A: A, B: 1}
