"""The symbolic sinusoidal encoding: symbols, frequencies, pairs, vectors and shift matrices.

Conventions follow the paper: interleaved (sin, cos) pairs, base 10000, and
omega_i = base**(-2i/d_model), so PE(pos, 2i) = sin(pos*omega_i), PE(pos, 2i+1) = cos(pos*omega_i).
"""

from __future__ import annotations

import sympy as sp

POS = sp.Symbol("pos", real=True)
K = sp.Symbol("k", real=True)
J = sp.Symbol("j", real=True)
I = sp.Symbol("i", integer=True, nonnegative=True)
D_MODEL = sp.Symbol("d_model", integer=True, positive=True, even=True)
L = sp.Symbol("L", positive=True)
BASE = sp.Integer(10000)
# Printing only: the frequency base**(-2i/d_model) is shown as this symbol.
OMEGA_I = sp.Symbol("omega_i", positive=True)

# How the printers set each symbol (the design card's conventions).
LATEX_NAMES: dict[sp.Symbol, str] = {
    POS: r"\mathrm{pos}",
    D_MODEL: r"d_{\mathrm{model}}",
    OMEGA_I: r"\omega_{i}",
}


def omega(i: sp.Expr = I, d_model: sp.Expr = D_MODEL, base: sp.Expr = BASE) -> sp.Expr:
    """The frequency of pair i: base**(-2i/d_model)."""
    return base ** (-2 * sp.sympify(i) / d_model)


def rotation_matrix(theta: sp.Expr) -> sp.ImmutableMatrix:
    """R(theta) = [[cos theta, sin theta], [-sin theta, cos theta]], the module's rotation."""
    return sp.ImmutableMatrix([[sp.cos(theta), sp.sin(theta)], [-sp.sin(theta), sp.cos(theta)]])


def pe_pair(pos: sp.Expr, w: sp.Expr) -> sp.ImmutableMatrix:
    """The (sin, cos) pair at position pos and frequency w, as a column."""
    return sp.ImmutableMatrix([sp.sin(pos * w), sp.cos(pos * w)])


def _concrete_d_model(d_model: int) -> int:
    if isinstance(d_model, bool) or not isinstance(d_model, int):
        raise TypeError(f"d_model must be an int, got {type(d_model).__name__}")
    if d_model < 2 or d_model % 2:
        raise ValueError(f"d_model must be a positive even integer, got {d_model}")
    return d_model


def frequencies(d_model: int, base: sp.Expr = BASE) -> list[sp.Expr]:
    """omega_0, ..., omega_{d_model/2 - 1} for a concrete even d_model."""
    d = _concrete_d_model(d_model)
    return [omega(i, d, base) for i in range(d // 2)]


def pe_vector(pos: sp.Expr, d_model: int, base: sp.Expr = BASE) -> sp.ImmutableMatrix:
    """PE(pos) as a d_model x 1 column, interleaved sin/cos, for a concrete even d_model."""
    entries = []
    for w in frequencies(d_model, base):
        entries.extend(pe_pair(pos, w))
    return sp.ImmutableMatrix(entries)


def shift_matrix(k: sp.Expr, d_model: int, base: sp.Expr = BASE) -> sp.ImmutableMatrix:
    """M_k: the block-diagonal matrix of the blocks R(k*omega_i), i = 0 .. d_model/2 - 1."""
    return sp.ImmutableMatrix(
        sp.diag(*[rotation_matrix(k * w) for w in frequencies(d_model, base)])
    )
