"""Theorem (frequencies): the pairs turn at ω_0 = 1 > ω_1 > … and pair i repeats every 2π/ω_i.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves.

Numeric twin: numeric.checks.frequencies.frequency_table.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.derivation import Derivation, Step
from proofs.engine.rules import ALGEBRA, EXPONENT_LAWS, PERIOD
from proofs.engine.theorem import Theorem
from proofs.theorems.sinusoidal.definitions import BASE, D_MODEL, OMEGA_I, POS, I, omega, pe_pair

NAME = "frequencies"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "For every d_model, ω_0 = 1 and ω_(i+1) = 10000^(−2/d_model)·ω_i < ω_i; pair i "
    "repeats with period 2π/ω_i = 2π·10000^(2i/d_model), which grows with i."
)


def ratio_derivation() -> Derivation:
    """ω_{i+1}/ω_i = 10000^(−2/d_model)."""
    return Derivation(
        "omega_ratio",
        "Consecutive frequencies differ by a fixed factor",
        (
            Step(sp.Mul(omega(I + 1), 1 / omega(I), evaluate=False)),
            Step(BASE ** (-2 / D_MODEL), by=EXPONENT_LAWS, note="add the exponents"),
        ),
    )


def period_derivation() -> Derivation:
    """PE_i(pos + 2π/ω_i) = PE_i(pos): the sine and the cosine of pair i both repeat."""
    # Proved for every positive frequency ω_i (so for 10000^(−2i/d_model) in particular);
    # kept unevaluated so the 2π shows before the period removes it.
    w = OMEGA_I
    shifted = sp.Mul(POS + 2 * sp.pi / w, w, evaluate=False)
    turned = sp.Add(POS * w, 2 * sp.pi, evaluate=False)
    return Derivation(
        "pair_period",
        "Pair i repeats after 2π/ω_i: PE_i(pos + 2π/ω_i) = PE_i(pos)",
        (
            Step(
                sp.ImmutableMatrix(
                    [sp.sin(shifted, evaluate=False), sp.cos(shifted, evaluate=False)]
                )
            ),
            Step(
                sp.ImmutableMatrix(
                    [sp.sin(turned, evaluate=False), sp.cos(turned, evaluate=False)]
                ),
                by=ALGEBRA,
                note="multiply out",
            ),
            Step(pe_pair(POS, w), by=PERIOD),
        ),
    )


def build(d_model: int = 8) -> Theorem:
    """The frequencies theorem (d_model sets the twin's table)."""
    return Theorem(
        name=NAME,
        title="Low pairs turn fast, high pairs slowly",
        statement=STATEMENT,
        parts=(ratio_derivation(), period_derivation()),
        twin="numeric.checks.frequencies.frequency_table",
        twin_kwargs={"d_model": d_model},
        brief=True,
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
