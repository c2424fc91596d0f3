"""Theorem (rope_axial): 2-D axial RoPE scores depend on (Δx, Δy) alone, and a diagonal offset
is not an offset along one axis.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves.

Numeric twin: numeric.checks.rope_axial.rope_axial_table.

Axial RoPE (EVA, torchtune's vision RoPE, timm's grid RoPE) gives some pairs of a head the
column x of a patch and the others its row y: an x-pair turns by x·θ, a y-pair by y·φ. The
parts state it for one x-pair and one y-pair (components 1, 2 and 3, 4); a head is a sum of
such terms, one per pair, whichever columns the library gives each axis.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.citation import Lemma
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import FreeOf, Refutation
from proofs.engine.rules import ALGEBRA, ANGLE_SUBTRACTION, MATRIX_PRODUCT
from proofs.engine.theorem import Theorem
from proofs.theorems.rope.definitions import THETA, rope_rotation

NAME = "rope_axial"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "With x-pairs turned by x·θ and y-pairs by y·φ, ⟨R(m_x, m_y)q, R(n_x, n_y)κ⟩ = "
    "⟨q, R(n_x − m_x, n_y − m_y)κ⟩, so the score depends on (Δx, Δy) alone; a diagonal offset "
    "(k, k) differs from every offset (j, 0) along one axis by ⟨q_y, (G(kφ) − I)κ_y⟩ on the "
    "y-pairs, so it is not an offset along one axis, nor (k, k) the offset √2·k along one axis."
)

PHI = sp.Symbol("phi", real=True)
MX, MY, NX, NY = sp.symbols("m_x m_y n_x n_y", real=True)
DX, DY = sp.symbols("delta_x delta_y", real=True)
K, J = sp.symbols("k j", real=True)
Q = sp.symbols("q_1:5", real=True)
KAPPA = sp.symbols("kappa_1:5", real=True)
QUERY = sp.ImmutableMatrix(Q)
KEY = sp.ImmutableMatrix(KAPPA)


def axial_rotation(x: sp.Expr, y: sp.Expr) -> sp.ImmutableMatrix:
    """R(x, y) = diag(G(xθ), G(yφ)): the x-pair (components 1, 2) turned by xθ, the y-pair
    (components 3, 4) by yφ."""
    return sp.ImmutableMatrix(sp.diag(rope_rotation(x * THETA), rope_rotation(y * PHI)))


def axial_score(mx: sp.Expr, my: sp.Expr, nx: sp.Expr, ny: sp.Expr) -> sp.MatMul:
    """(R(m_x, m_y)q)ᵀ·(R(n_x, n_y)κ), kept as a product for display."""
    return sp.MatMul(
        sp.Transpose(sp.MatMul(axial_rotation(mx, my), QUERY, evaluate=False)),
        sp.MatMul(axial_rotation(nx, ny), KEY, evaluate=False),
        evaluate=False,
    )


def axial_relative_form(dx: sp.Expr, dy: sp.Expr) -> sp.MatMul:
    """qᵀ·R(Δx, Δy)·κ, kept as a product for display."""
    return sp.MatMul(QUERY.T, axial_rotation(dx, dy), KEY, evaluate=False)


def _scalar(expr: sp.Expr) -> sp.ImmutableMatrix:
    return sp.ImmutableMatrix([[expr]])


def _pair_terms(
    q: tuple, k: tuple, m: sp.Expr, n: sp.Expr, freq: sp.Expr
) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """One pair's score (G(m·freq)q)ᵀ(G(n·freq)κ): multiplied out, regrouped, and with the
    angles subtracted to (n − m)·freq."""
    a, b = m * freq, n * freq
    ca, sa, cb, sb = sp.cos(a), sp.sin(a), sp.cos(b), sp.sin(b)
    c, s = sp.cos((n - m) * freq), sp.sin((n - m) * freq)
    expanded = (q[0] * ca - q[1] * sa) * (k[0] * cb - k[1] * sb) + (q[0] * sa + q[1] * ca) * (
        k[0] * sb + k[1] * cb
    )
    grouped = sp.Add(
        q[0] * k[0] * (cb * ca + sb * sa),
        -q[0] * k[1] * (sb * ca - cb * sa),
        q[1] * k[0] * (sb * ca - cb * sa),
        q[1] * k[1] * (cb * ca + sb * sa),
        evaluate=False,
    )
    subtracted = sp.Add(
        q[0] * k[0] * c, -q[0] * k[1] * s, q[1] * k[0] * s, q[1] * k[1] * c, evaluate=False
    )
    return expanded, grouped, subtracted


def axial_relative_derivation() -> Derivation:
    """⟨R(m_x, m_y)q, R(n_x, n_y)κ⟩ = ⟨q, R(n_x − m_x, n_y − m_y)κ⟩."""
    x_terms = _pair_terms(Q[:2], KAPPA[:2], MX, NX, THETA)
    y_terms = _pair_terms(Q[2:], KAPPA[2:], MY, NY, PHI)
    return Derivation(
        "axial_relative",
        "One x-pair and one y-pair: ⟨R(m_x, m_y)q, R(n_x, n_y)κ⟩ = ⟨q, R(n_x − m_x, n_y − m_y)κ⟩",
        (
            Step(axial_score(MX, MY, NX, NY)),
            Step(
                _scalar(x_terms[0] + y_terms[0]),
                by=MATRIX_PRODUCT,
                note="the x-pair's product plus the y-pair's",
            ),
            Step(
                _scalar(sp.Add(x_terms[1], y_terms[1], evaluate=False)),
                by=ALGEBRA,
                note="regroup each pair by q_a·κ_b",
            ),
            Step(
                _scalar(sp.Add(x_terms[2], y_terms[2], evaluate=False)),
                by=ANGLE_SUBTRACTION,
                note="the x angles subtract to (n_x − m_x)θ, the y angles to (n_y − m_y)φ",
            ),
            Step(
                axial_relative_form(NX - MX, NY - MY),
                by=MATRIX_PRODUCT,
                note="read back as qᵀ·R(n_x − m_x, n_y − m_y)·κ",
            ),
        ),
    )


def offset_derivation(relative: Derivation) -> Derivation:
    """Writing n_x = m_x + δ_x and n_y = m_y + δ_y, the score is ⟨q, R(δ_x, δ_y)κ⟩."""
    return Derivation(
        "offset_only",
        "Write n_x = m_x + δ_x, n_y = m_y + δ_y: the score becomes ⟨q, R(δ_x, δ_y)κ⟩",
        (
            Step(axial_score(MX, MY, MX + DX, MY + DY)),
            Step(
                axial_relative_form(DX, DY),
                by=Lemma(relative, {NX: MX + DX, NY: MY + DY}),
                note="(m_x + δ_x) − m_x = δ_x, and so for y",
            ),
        ),
    )


def diagonal_against_axis_derivation() -> Derivation:
    """⟨q, R(k, k)κ⟩ − ⟨q, R(j, 0)κ⟩: the x-pair's two terms and ⟨q_y, (G(kφ) − I)κ_y⟩."""
    q_y, k_y = sp.ImmutableMatrix(Q[2:]), sp.ImmutableMatrix(KAPPA[2:])
    x_part = sp.MatMul(
        sp.ImmutableMatrix(Q[:2]).T,
        sp.ImmutableMatrix(rope_rotation(K * THETA) - rope_rotation(J * THETA)),
        sp.ImmutableMatrix(KAPPA[:2]),
        evaluate=False,
    )
    y_part = sp.MatMul(
        q_y.T, sp.ImmutableMatrix(rope_rotation(K * PHI) - sp.eye(2)), k_y, evaluate=False
    )
    difference = sp.MatAdd(
        axial_relative_form(K, K),
        sp.MatMul(-1, axial_relative_form(J, sp.Integer(0)), evaluate=False),
        evaluate=False,
    )
    return Derivation(
        "diagonal_against_axis",
        "For every j and k: ⟨q, R(k, k)κ⟩ − ⟨q, R(j, 0)κ⟩ = ⟨q_x, (G(kθ) − G(jθ))κ_x⟩ + "
        "⟨q_y, (G(kφ) − I)κ_y⟩: an offset along x leaves the y-pairs unturned, the diagonal "
        "turns them by kφ",
        (
            Step(difference),
            Step(
                sp.MatAdd(x_part, y_part, evaluate=False),
                by=MATRIX_PRODUCT,
                note="the block-diagonal difference, pair by pair",
            ),
        ),
    )


def build(d_model: int = 8) -> Theorem:
    """The axial RoPE theorem (d_model is unused: the parts are about one x-pair and one y-pair)."""
    del d_model
    relative = axial_relative_derivation()
    offset = offset_derivation(relative)
    one = sp.Integer(1)
    zero = sp.Integer(0)
    only_y = ((Q[0], zero), (Q[1], zero), (Q[2], one), (Q[3], zero))
    only_y += ((KAPPA[0], zero), (KAPPA[1], zero), (KAPPA[2], one), (KAPPA[3], zero))
    both = ((Q[0], one), (Q[1], zero), (Q[2], one), (Q[3], zero))
    both += ((KAPPA[0], one), (KAPPA[1], zero), (KAPPA[2], one), (KAPPA[3], zero))
    return Theorem(
        name=NAME,
        title="2-D axial RoPE: relative in (Δx, Δy); a diagonal is not an axis",
        statement=STATEMENT,
        formulas=(
            sp.Eq(
                axial_score(MX, MY, NX, NY), axial_relative_form(NX - MX, NY - MY), evaluate=False
            ),
        ),
        parts=(
            relative,
            offset,
            FreeOf(
                "score_free_of_positions",
                "With n_x = m_x + δ_x and n_y = m_y + δ_y the score ⟨q, R(δ_x, δ_y)κ⟩ contains "
                "neither position: it is a function of the offset (δ_x, δ_y)",
                sp.ImmutableMatrix(axial_relative_form(DX, DY).doit()),
                (MX, MY, NX, NY),
            ),
            diagonal_against_axis_derivation(),
            Refutation(
                "diagonal_is_an_axis_offset",
                "A diagonal offset scores as some offset along x: ⟨q, R(k, k)κ⟩ = ⟨q, R(j, 0)κ⟩ "
                "(at q = κ = e_3, the y-pair's first component, θ = φ = 1, k = j = 1: cos 1 "
                "against 1, whatever j)",
                sp.Eq(
                    axial_relative_form(K, K),
                    axial_relative_form(J, sp.Integer(0)),
                    evaluate=False,
                ),
                (*only_y, (THETA, one), (PHI, one), (K, one), (J, one)),
            ),
            Refutation(
                "axial_is_isotropic",
                "Axial RoPE sees the diagonal offset (k, k) as the offset of the same length "
                "√2·k along x: ⟨q, R(k, k)κ⟩ = ⟨q, R(√2·k, 0)κ⟩ (at q = κ = e_1 + e_3, "
                "θ = φ = 1, k = 1: 2 cos 1 against cos √2 + 1)",
                sp.Eq(
                    axial_relative_form(K, K),
                    axial_relative_form(sp.sqrt(2) * K, sp.Integer(0)),
                    evaluate=False,
                ),
                (*both, (THETA, one), (PHI, one), (K, one)),
            ),
        ),
        twin="numeric.checks.rope_axial.rope_axial_table",
        remarks=(
            "The identities hold for all real positions and frequencies, so for any split of the "
            "head into x-pairs and y-pairs and any frequencies per axis (torchtune's vision RoPE "
            "and timm's grid RoPE give both axes the same frequencies; a head is one such term per "
            "pair).",
            "Mixed 2-D RoPE (Heo et al. 2024, RoPE-Mixed) turns a pair by x·θ_x + y·θ_y, which "
            "can follow a diagonal; the axial form cannot, which diagonal_against_axis shows.",
        ),
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
