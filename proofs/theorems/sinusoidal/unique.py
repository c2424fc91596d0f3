"""Theorem (unique): distinct integer positions never share an encoding, whatever the table length.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves.

Numeric twin: numeric.checks.unique.nearest_rows_table.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import NonZero
from proofs.engine.rules import ALGEBRA, ANGLE_SUBTRACTION, MATRIX_PRODUCT, PERIOD, PYTHAGOREAN
from proofs.engine.theorem import Theorem
from proofs.theorems.sinusoidal.definitions import (
    BASE,
    D_MODEL,
    POS,
    omega,
    omegas,
    pe_pair,
    pe_vector,
)

NAME = "unique"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "For every d_model and all integers p ≠ q, PE(p) ≠ PE(q): already the first pair "
    "(ω_0 = 1) differs, because p − q ∈ 2πℤ would make π rational."
)

P = sp.Symbol("p", real=True)
Q = sp.Symbol("q", real=True)
N = sp.Symbol("n", integer=True, nonzero=True)
M = sp.Symbol("m", integer=True, nonzero=True)
# The d_model of the real-position period when the requested one has no common period.
PERIODIC_D_MODEL = 8


def first_frequency_derivation() -> Derivation:
    """ω_0 = 1 for every d_model."""
    exponent = sp.Mul(sp.Integer(-2), sp.Integer(0), 1 / D_MODEL, evaluate=False)
    return Derivation(
        "first_frequency_is_1",
        "The first pair has frequency 1 for every d_model, so PE_0(pos) = (sin pos, cos pos)",
        (
            Step(sp.Pow(BASE, exponent, evaluate=False)),
            Step(sp.Integer(1), by=ALGEBRA, note="the exponent is 0"),
        ),
    )


def first_pair_distance_derivation() -> Derivation:
    """‖PE_0(p) − PE_0(q)‖² = 2 − 2cos(p − q) for real p, q."""
    diff = pe_pair(P, 1) - pe_pair(Q, 1)
    return Derivation(
        "first_pair_distance",
        "Squared distance of the first pairs: ‖PE_0(p) − PE_0(q)‖² = 2 − 2cos(p − q)",
        (
            Step(sp.MatMul(diff.T, diff, evaluate=False)),
            Step(sp.ImmutableMatrix([[sum(e**2 for e in diff)]]), by=MATRIX_PRODUCT),
            Step(
                sp.ImmutableMatrix([[2 - 2 * (sp.cos(P) * sp.cos(Q) + sp.sin(P) * sp.sin(Q))]]),
                by=PYTHAGOREAN,
                note="expand the squares; sin² + cos² = 1 twice",
            ),
            Step(
                sp.ImmutableMatrix([[2 - 2 * sp.cos(P - Q)]]),
                by=ANGLE_SUBTRACTION,
                note="cos(p − q) = cos p cos q + sin p sin q",
            ),
        ),
    )


def _period_text(period: sp.Expr) -> str:
    """The period as short Unicode text, e.g. 2000⋅π (sp.pretty would import sympy.physics)."""
    return sp.sstr(period).replace("*", "⋅").replace("pi", "π")


def real_period(d_model: int) -> sp.Expr | None:
    """The least common period 2π·lcm(1/ω_i) when every ω_i is 1/integer, else None."""
    inverses = []
    # Stop at the first ω_i that is not 1/integer: for most d_model that is ω_1, so a large
    # d_model costs no more than a small one.
    for i in range(d_model // 2):
        inverse = 1 / omega(i, d_model)
        if not inverse.is_integer:
            return None
        inverses.append(inverse)
    return 2 * sp.pi * sp.ilcm(*inverses) if len(inverses) > 1 else 2 * sp.pi * inverses[0]


def periodicity_derivation(d_model: int) -> Derivation:
    """PE(pos + T) = PE(pos) for T the common real period of a d_model with rational frequencies."""
    period = real_period(d_model)
    if period is None:
        raise ValueError(
            f"d_model = {d_model} has frequencies with irrational ratios: no common period"
        )

    # evaluate=False keeps sin((pos + T)·ω_i) from collapsing to sin(pos·ω_i) before it is shown.
    shifted = sp.ImmutableMatrix(
        [
            f(sp.Mul(POS + period, w, evaluate=False), evaluate=False)
            for w in omegas(d_model)
            for f in (sp.sin, sp.cos)
        ]
    )
    shown = _period_text(period)
    return Derivation(
        "real_period",
        f"Over real positions, d_model = {d_model}: PE(pos + {shown}) = PE(pos)",
        (
            Step(shifted),
            Step(
                pe_vector(POS, d_model),
                by=PERIOD,
                note=f"each shift {shown}·ω_i is a multiple of 2π",
            ),
        ),
    )


def build(d_model: int = 8) -> Theorem:
    """The uniqueness theorem; d_model sets the real-position period shown (8 if it has none)."""
    periodic = d_model if real_period(d_model) is not None else PERIODIC_D_MODEL
    period = real_period(periodic)
    shown = _period_text(period)
    return Theorem(
        name=NAME,
        title="Distinct integer positions have distinct encodings",
        statement=STATEMENT,
        formulas=(
            sp.Eq(
                sp.MatMul(
                    (pe_pair(P, 1) - pe_pair(Q, 1)).T, pe_pair(P, 1) - pe_pair(Q, 1), evaluate=False
                ),
                sp.ImmutableMatrix([[2 - 2 * sp.cos(P - Q)]]),
                evaluate=False,
            ),
        ),
        parts=(
            first_frequency_derivation(),
            first_pair_distance_derivation(),
            NonZero(
                "first_pairs_differ",
                "For a nonzero integer n = p − q: cos n − 1 ≠ 0, so the first pairs differ "
                "(SymPy: a trigonometric function of a nonzero rational is irrational)",
                sp.cos(N) - 1,
            ),
            NonZero(
                "n_is_not_2pi_times_0",
                "Why: cos n = 1 needs n = 2πm with m integer; m = 0 gives n − 2π·0 = n ≠ 0",
                (N - 2 * sp.pi * M).subs(M, 0),
            ),
            NonZero(
                "n_is_not_2pi_times_m",
                "With m ≠ 0: n − 2πm ≠ 0, as π is irrational (2πm irrational, n rational)",
                N - 2 * sp.pi * M,
            ),
            periodicity_derivation(periodic),
            NonZero(
                "no_integer_period",
                f"No nonzero integer n is a multiple of the real period {shown}: n − {shown}·m ≠ 0",
                N - period * M,
            ),
        ),
        twin="numeric.checks.unique.nearest_rows_table",
        twin_kwargs={"d_model": d_model},
        remarks=(
            "Over real positions the encoding can repeat: for d_model = 8 the frequencies 1, "
            "1/10, 1/100, 1/1000 have the common period 2000π, and PE(pos + 2000π) = PE(pos); no "
            "integer is a nonzero multiple of 2000π, so integer positions still never collide.",
            "The nonzero facts are decided by SymPy's assumptions, not by algebra: cos n − 1 ≠ 0 "
            "rests on its rule that sin and cos of a nonzero rational are irrational "
            "(Lindemann), n − 2πm ≠ 0 and the integer-period fact on pi.is_irrational (True) "
            "with rational + nonzero rational·irrational being irrational. The step 'cos x = 1 "
            "only for x ∈ 2πℤ' behind the two n − 2πm facts is the standard zero set of "
            "1 − cos, not checked by the engine; the cos n − 1 fact reaches the conclusion "
            "without it. The Coq development proves uniqueness without any of these: "
            "pe_unique_int, from pi_irrational.",
            "Uniqueness holds for all integer positions, not only the 50 the course module tests, "
            "and for every d_model: it uses the first pair only.",
            f"Over real positions PE is periodic when all ω_i are 1/integer (d_model = 2, 4, 8; "
            f"shown for d_model = {periodic}, period {shown}). For d_model = 8 the "
            "frequencies 1, 1/10, 1/100, 1/1000 have rational ratios; for other d_model, such as "
            "512, some ratios 10000^(−2i/d_model) are irrational (not checked here).",
        ),
        brief=True,
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
