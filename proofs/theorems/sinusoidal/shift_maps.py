"""Theorem (shift maps): which encodings have a position-independent map from pos to pos + k.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves.

Numeric twin: numeric.checks.shift_maps.shift_fit_table.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.facts import ShiftMapFact
from proofs.engine.theorem import Theorem
from proofs.theorems.sinusoidal.definitions import OMEGA_I, POS, K, L, pe_pair, pe_vector

NAME = "shift_maps"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "A linear map M(k) with M(k)·f(pos) = f(pos + k) exists for the sinusoidal encoding "
    "and for [pos/L, 1], not for the ramp, the raw index or a lone sine (k ≠ 0); "
    "the ramp has an affine one."
)

# find_shift_map solves for all n² entries of M, so the whole-vector part is capped here.
WHOLE_VECTOR_MAX = 8


def _column(*entries: sp.Expr) -> sp.ImmutableMatrix:
    return sp.ImmutableMatrix(list(entries))


def build(d_model: int = 8) -> Theorem:
    """The five encodings; the whole sinusoidal vector is taken at min(d_model, 8)."""
    width = min(d_model, WHOLE_VECTOR_MAX)
    ramp = POS / L
    return Theorem(
        name=NAME,
        title="Which encodings have a position-independent shift map",
        statement=STATEMENT,
        formulas=(
            sp.Eq(
                sp.MatMul(sp.MatrixSymbol("M", 2, 2), pe_pair(POS, OMEGA_I), evaluate=False),
                pe_pair(POS + K, OMEGA_I),
                evaluate=False,
            ),
        ),
        parts=(
            ShiftMapFact(
                "pair_has_map",
                "Sinusoidal pair at any frequency ω_i > 0: a linear map exists",
                pe_pair(POS, OMEGA_I),
                POS,
                K,
                True,
            ),
            ShiftMapFact(
                "vector_has_map",
                f"Whole sinusoidal vector, d_model = {width}: a linear map exists",
                pe_vector(POS, width),
                POS,
                K,
                True,
            ),
            ShiftMapFact(
                "ramp_no_linear_map", "Ramp pos/L: no linear map", _column(ramp), POS, K, False
            ),
            ShiftMapFact(
                "ramp_affine_map",
                "Ramp pos/L: an affine map exists",
                _column(ramp),
                POS,
                K,
                True,
                affine=True,
            ),
            ShiftMapFact(
                "index_no_linear_map", "Raw index pos: no linear map", _column(POS), POS, K, False
            ),
            ShiftMapFact(
                "ramp_with_constant_has_map",
                "Ramp with a constant feature, [pos/L, 1]: a linear map exists",
                _column(ramp, sp.Integer(1)),
                POS,
                K,
                True,
            ),
            ShiftMapFact(
                "lone_sine_no_map",
                "Lone sine sin(pos) without its cosine: no linear map",
                _column(sp.sin(POS)),
                POS,
                K,
                False,
            ),
        ),
        twin="numeric.checks.shift_maps.shift_fit_table",
        twin_kwargs={"d_model": width},
        remarks=(
            "'No map' is for k ≠ 0 (and, for the lone sine, sin k ≠ 0): at k = 0 the identity works.",
            "Appending a constant feature turns the ramp's affine map into a linear one: the "
            "obstruction is the missing constant, and a single ramp value has no linear shift.",
        ),
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
