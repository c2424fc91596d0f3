"""The symbolic sinusoidal encoding: symbols, frequencies, pairs, vectors and shift matrices.

Conventions follow the paper: interleaved (sin, cos) pairs, base 10000, and
omega_i = base**(-2i/d_model), so PE(pos, 2i) = sin(pos*omega_i), PE(pos, 2i+1) = cos(pos*omega_i).
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.blocks import BlockMatrix, BlockVector, Family, Label, consecutive

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


def rotation_matrix(theta: sp.Expr, *, as_written: bool = False) -> sp.ImmutableMatrix:
    """R(theta) = [[cos theta, sin theta], [-sin theta, cos theta]], the module's rotation.

    as_written: keep cos(theta) and sin(theta) as written, so R(−kω) shows cos(−kω) and only the
    parity rule may turn it into cos(kω).
    """
    c = sp.cos(theta, evaluate=not as_written)
    s = sp.sin(theta, evaluate=not as_written)
    return sp.ImmutableMatrix([[c, s], [-s, c]])


def pe_pair(pos: sp.Expr, w: sp.Expr) -> sp.ImmutableMatrix:
    """The (sin, cos) pair at position pos and frequency w, as a column."""
    return sp.ImmutableMatrix([sp.sin(pos * w), sp.cos(pos * w)])


def _concrete_d_model(d_model: int) -> int:
    if isinstance(d_model, bool) or not isinstance(d_model, int):
        raise TypeError(f"d_model must be an int, got {type(d_model).__name__}")
    if d_model < 2 or d_model % 2:
        raise ValueError(f"d_model must be a positive even integer, got {d_model}")
    return d_model


def omegas(d_model: int, base: sp.Expr = BASE) -> list[sp.Expr]:
    """omega_0, ..., omega_{d_model/2 - 1} for a concrete even d_model."""
    d = _concrete_d_model(d_model)
    return [omega(i, d, base) for i in range(d // 2)]


def pe_vector(pos: sp.Expr, d_model: int, base: sp.Expr = BASE) -> sp.ImmutableMatrix:
    """PE(pos) as a d_model x 1 column, interleaved sin/cos, for a concrete even d_model."""
    entries = []
    for w in omegas(d_model, base):
        entries.extend(pe_pair(pos, w))
    return sp.ImmutableMatrix(entries)


def dense_shift_matrix(k: sp.Expr, d_model: int, base: sp.Expr = BASE) -> sp.ImmutableMatrix:
    """M_k as a dense matrix of the blocks R(k*omega_i), i = 0 .. d_model/2 - 1 (small sizes and
    tests; the theorems use shift_blocks)."""
    return sp.ImmutableMatrix(sp.diag(*[rotation_matrix(k * w) for w in omegas(d_model, base)]))


# ── The same objects by structure: blocks only, for any d_model ──────────────────────────


def pairs(block: sp.Basic, d_model: int) -> Family:
    """The d_model/2 blocks block(i) for i = 0 .. d_model/2 − 1, d_model set to its value."""
    d = _concrete_d_model(d_model)
    return Family(block, I, d // 2, ((D_MODEL, sp.Integer(d)),))


def pair_bindings(d_model: int):
    """Block i of a whole-vector statement is its pair lemma with i and d_model set: i -> that map."""
    d = sp.Integer(_concrete_d_model(d_model))
    return lambda i: {I: sp.sympify(i), D_MODEL: d}


def _factor_text(k: sp.Expr) -> tuple[str, str]:
    """k as a multiplier of ω_i in text and LaTeX, bracketed when it is a sum."""
    text, latex = sp.sstr(k).replace("-", "−").replace("*", "·"), sp.latex(k)
    if isinstance(k, sp.Add):
        return f"({text})", rf"\left({latex}\right)"
    return text, latex


def _position_text(pos: sp.Expr) -> tuple[str, str]:
    """pos as an argument in text and LaTeX, the position first: pos + k, pos − k."""
    rest = sp.expand(pos - POS)
    if rest == 0 or pos == rest:
        return sp.sstr(pos), sp.latex(pos, symbol_names=LATEX_NAMES)
    sign, shift = ("−", -rest) if rest.could_extract_minus_sign() else ("+", rest)
    return (
        f"pos {sign} {sp.sstr(shift)}",
        rf"\mathrm{{pos}} {sign.replace('−', '-')} {sp.latex(shift)}",
    )


def shift_blocks(
    k: sp.Expr, d_model: int, base: sp.Expr = BASE, *, as_written: bool = False
) -> BlockMatrix:
    """M_k by structure: block i = R(k*omega_i) on components 2i, 2i+1, nothing formed densely.

    as_written: R(k·ω_i) with its entries kept as written (see rotation_matrix).
    """
    d = _concrete_d_model(d_model)
    text, latex = _factor_text(k)
    label = Label(f"R({text}ω_" + "{i})", rf"R\left({latex}\,\omega_" + "{{i}}\\right)")
    angle = sp.Mul(k, omega(I, D_MODEL, base), evaluate=not as_written)
    return BlockMatrix(
        pairs(rotation_matrix(angle, as_written=as_written), d), consecutive(d), d, label
    )


def pe_blocks(pos: sp.Expr, d_model: int, base: sp.Expr = BASE) -> BlockVector:
    """PE(pos) by structure: piece i = (sin(pos*omega_i), cos(pos*omega_i)) on components 2i, 2i+1."""
    d = _concrete_d_model(d_model)
    text, latex = _position_text(pos)
    label = Label("PE_{i}" + f"({text})", r"\mathrm{PE}_{{i}}" + rf"\left({latex}\right)")
    return BlockVector(pairs(pe_pair(pos, omega(I, D_MODEL, base)), d), consecutive(d), d, label)


def identity_blocks(d_model: int) -> BlockMatrix:
    """The d_model×d_model identity as diag(I_2, …, I_2)."""
    d = _concrete_d_model(d_model)
    eye = pairs(sp.ImmutableMatrix(sp.eye(2)), d)
    return BlockMatrix(eye, consecutive(d), d, Label("I₂", "I_{2}"))
