"""RoPE's definitions, once: the symbols, the frequency θ_i = b^(−2i/d), the rotation G(φ), and a
head's pairs in the interleaved and rotate_half layouts, as the module-11 theorems state them."""

from __future__ import annotations

import sympy as sp

from proofs.engine.blocks import BlockMatrix, BlockVector, Family, Label, consecutive
from proofs.engine.enclosure import enclose
from proofs.engine.facts import NonNegative
from proofs.engine.rules import ALGEBRA
from proofs.theorems.sinusoidal.definitions import I

M = sp.Symbol("m", real=True)
N = sp.Symbol("n", real=True)
THETA = sp.Symbol("theta", real=True)
Q1, Q2 = sp.symbols("q_1 q_2", real=True)
K1, K2 = sp.symbols("kappa_1 kappa_2", real=True)
QUERY = sp.ImmutableMatrix([Q1, Q2])
KEY = sp.ImmutableMatrix([K1, K2])

# The head width and the base, symbolic wherever a statement allows.
D = sp.Symbol("d", integer=True, positive=True, even=True)
B = sp.Symbol("b", positive=True)
# Printing only: the frequency b^(−2i/d) is shown as this symbol.
THETA_I = sp.Symbol("theta_i", positive=True)

# Whole query, key and input vectors of one head (0-based components).
Q_VEC = sp.IndexedBase("q", real=True)
K_VEC = sp.IndexedBase("kappa", real=True)
X_VEC = sp.IndexedBase("x", real=True)


def frequency(i: sp.Expr = I, d: sp.Expr = D, base: sp.Expr = B) -> sp.Expr:
    """θ_i = base^(−2i/d)."""
    return base ** (-2 * sp.sympify(i) / d)


def rope_rotation(angle: sp.Expr) -> sp.ImmutableMatrix:
    """G(φ) = [[cos φ, −sin φ], [sin φ, cos φ]]: RoPE's rotation of one pair (x_a, x_b) to
    (x_a cos φ − x_b sin φ, x_b cos φ + x_a sin φ), as every library computes it."""
    c, s = sp.cos(angle), sp.sin(angle)
    return sp.ImmutableMatrix([[c, -s], [s, c]])


def score_form(m: sp.Expr, n: sp.Expr) -> sp.MatMul:
    """(G(mθ)q)ᵀ·(G(nθ)κ), kept as a product for display."""
    return sp.MatMul(
        sp.Transpose(sp.MatMul(rope_rotation(m * THETA), QUERY, evaluate=False)),
        sp.MatMul(rope_rotation(n * THETA), KEY, evaluate=False),
        evaluate=False,
    )


def relative_form(offset: sp.Expr) -> sp.MatMul:
    """qᵀ·G(offset·θ)·κ, kept as a product for display."""
    return sp.MatMul(QUERY.T, rope_rotation(offset * THETA), KEY, evaluate=False)


def interleaved_supports(d: int) -> tuple[tuple[int, ...], ...]:
    """Pair i on components (2i, 2i+1)."""
    return consecutive(d)


def rotate_half_supports(d: int) -> tuple[tuple[int, ...], ...]:
    """Pair i on components (i, i + d/2)."""
    return tuple((i, i + d // 2) for i in range(d // 2))


def family(template: sp.Basic, d: int) -> Family:
    return Family(template, I, d // 2, ((D, sp.Integer(d)),))


def pair_components(vector: sp.IndexedBase, layout: str) -> tuple[sp.Expr, sp.Expr]:
    """The two components of pair i in the layout, the head width d still symbolic."""
    if layout == "interleaved":
        return vector[2 * I], vector[2 * I + 1]
    return vector[I], vector[I + D / 2]


def vector_blocks(vector: sp.IndexedBase, layout: str, d: int) -> BlockVector:
    """A head vector by its pairs in the layout."""
    name = vector.label.name
    supports = interleaved_supports(d) if layout == "interleaved" else rotate_half_supports(d)
    piece = sp.ImmutableMatrix(pair_components(vector, layout))
    label = Label(f"{name}_(" + "{i})", f"{name}_{{(" + "{i})}")
    return BlockVector(family(piece, d), supports, d, label)


def rope_blocks(position: sp.Expr, layout: str, d: int) -> BlockMatrix:
    """RoPE at a position: G(position·θ_i) on pair i of the layout."""
    supports = interleaved_supports(d) if layout == "interleaved" else rotate_half_supports(d)
    text = sp.sstr(position).replace("-", "−").replace("*", "·").replace("Delta", "Δ")
    text = f"({text})" if isinstance(position, sp.Add) else text
    label = Label(
        f"G({text}θ_" + "{i})", rf"G\left({sp.latex(position)}\,\theta_" + "{{i}}\\right)"
    )
    return BlockMatrix(family(rope_rotation(position * frequency()), d), supports, d, label)


def pair_bindings(layout: str, d: int):
    """Block i of a whole-head score is pair_relative with θ = θ_i and the layout's pair i."""
    size = sp.Integer(d)

    def at(i: sp.Expr) -> dict[sp.Symbol, sp.Expr]:
        i = sp.sympify(i)
        q = pair_components(Q_VEC, layout)
        k = pair_components(K_VEC, layout)
        fix = {I: i, D: size}
        return {
            THETA: frequency(i, size),
            Q1: q[0].xreplace(fix),
            Q2: q[1].xreplace(fix),
            K1: k[0].xreplace(fix),
            K2: k[1].xreplace(fix),
        }

    return at


def interval_fact(
    name: str, title: str, value: sp.Expr, low: sp.Expr, high: sp.Expr
) -> NonNegative:
    """low ≤ value ≤ high (low < high, the ends the statement names), as
    (value − low)·(high − value) ≥ 0, certified by a ball."""
    return NonNegative(
        name,
        title,
        sp.Mul(value - low, high - value, evaluate=False),
        sp.Mul(-1, value - low, value - high, evaluate=False),
        ALGEBRA,
    )


def enclosure_fact(name: str, title: str, value: sp.Expr, digits: int) -> NonNegative:
    """value ∈ [low, high] with the ends computed by the engine (proofs.engine.enclosure: the
    ball of value rounded outward to `digits` significant digits), and the statement checked
    on its own as interval_fact checks it. title names the interval "{interval}"."""
    if "{interval}" not in title:
        raise ValueError(f"fact {name!r}: its title must show the interval as {{interval}}")
    found = enclose(value, digits)
    return interval_fact(
        name, title.replace("{interval}", found.text()), value, found.low, found.high
    )
