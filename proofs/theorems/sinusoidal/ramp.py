"""Theorem (ramp): the linear ramp pos/L has no pos-independent *linear* shift map.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves.

Numeric twin: numeric.checks.ramp.ramp_table.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import LinearSystem, NonZero
from proofs.engine.rules import ALGEBRA
from proofs.engine.theorem import Theorem
from proofs.theorems.sinusoidal.definitions import POS, L

NAME = "ramp"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "For r(pos) = pos/L (L > 0) and any real k ≠ 0, no scalar a independent of pos "
    "gives a·r(pos) = r(pos + k) for all pos; an affine map r ↦ r + k/L does exist."
)

A = sp.Symbol("a", real=True)
K_NONZERO = sp.Symbol("k", real=True, nonzero=True)
POS_NONZERO = sp.Symbol("pos", real=True, nonzero=True)


def ramp(pos: sp.Expr) -> sp.Expr:
    """r(pos) = pos/L."""
    return pos / L


def residual_derivation() -> Derivation:
    """a*r(pos) - r(pos+k) written as a polynomial in pos."""
    collected = sp.Add(sp.Mul((A - 1) / L, POS, evaluate=False), -K_NONZERO / L, evaluate=False)
    return Derivation(
        "linear_map_residual",
        "What a single scalar a would have to satisfy: a·r(pos) − r(pos + k) = 0 for all pos",
        (
            Step(A * ramp(POS) - ramp(POS + K_NONZERO)),
            Step(collected, by=ALGEBRA, note="collect the powers of pos"),
        ),
    )


def coefficient_equations(k: sp.Expr) -> tuple[sp.Expr, ...]:
    """The coefficients of pos^1 and pos^0 in a*r(pos) - r(pos+k), computed, not typed in."""
    poly = sp.Poly(sp.expand(A * ramp(POS) - ramp(POS + k)), POS)
    return tuple(poly.all_coeffs())


def build(d_model: int = 8) -> Theorem:
    """The ramp theorem (d_model is unused: the ramp is one number per position)."""
    a_of_pos = (POS_NONZERO + K_NONZERO) / POS_NONZERO
    return Theorem(
        name=NAME,
        title="The linear ramp has no position-independent linear shift",
        statement=STATEMENT,
        parts=(
            residual_derivation(),
            LinearSystem(
                "no_linear_map",
                "Compare coefficients of pos (a polynomial vanishing for all pos has zero "
                "coefficients): pos¹ gives a = 1, then pos⁰ gives 0 = k/L — impossible, as k ≠ 0",
                coefficient_equations(K_NONZERO),
                (A,),
                "inconsistent",
            ),
            NonZero(
                "obstruction_nonzero",
                "The obstruction k/L is nonzero because k ≠ 0 and L > 0",
                K_NONZERO / L,
            ),
            Derivation(
                "position_dependent_map",
                "The only 'map' that works is position-dependent: a(pos) = (pos + k)/pos, pos ≠ 0",
                (
                    Step(sp.Mul(a_of_pos, ramp(POS_NONZERO), evaluate=False)),
                    Step(
                        (POS_NONZERO + K_NONZERO) / L,
                        by=ALGEBRA,
                        note="cancel pos: this is r(pos + k)",
                    ),
                ),
            ),
            NonZero(
                "map_changes_with_pos",
                "The position-dependent a(pos) changes with pos: d a(pos)/d pos = −k/pos² ≠ 0",
                sp.cancel(sp.diff(a_of_pos, POS_NONZERO)),
            ),
            LinearSystem(
                "identity_at_zero_offset",
                "Edge case k = 0: the same coefficient equations have the solution a = 1 (the identity)",
                coefficient_equations(sp.Integer(0)),
                (A,),
                {A: sp.Integer(1)},
            ),
            Derivation(
                "affine_map",
                "The ramp does admit a position-independent affine map: r(pos) + k/L = r(pos + k)",
                (
                    Step(ramp(POS) + K_NONZERO / L),
                    Step(
                        ramp(POS + K_NONZERO),
                        by=ALGEBRA,
                        note="common denominator: (pos + k)/L = r(pos + k)",
                    ),
                ),
            ),
        ),
        twin="numeric.checks.ramp.ramp_table",
        remarks=(
            "The impossibility is for a linear map of the ramp value alone. The affine map "
            "r ↦ r + k/L works, and so does a linear map once a constant feature is appended: "
            "[r, 1] ↦ [r + k/L, 1] (see the shift_maps theorem). What the module's ramp lacks is "
            "a fixed linear rule on the encoding itself, which the sinusoidal pairs have.",
        ),
        brief=True,
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
