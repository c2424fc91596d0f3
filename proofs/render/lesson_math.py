"""The lesson's math notation: the text of a {math} role read into a SymPy object.

Every arithmetic expression is built by the engine's safe parser
(proofs.engine.parse.parse_expression), never by sympify or eval. Around it, this module reads
the few structures a lesson's formula needs and the parser does not have, from Python's syntax
tree (ast.parse builds a tree and runs nothing):

- relations, ``a = b``, ``a != b``, ``a >= b``, ``a < b``, …; a chain ``a = b >= 0`` nests to
  the left, as "a = b, which is ≥ 0";
- the lesson's functions, applied as written: ``PE(pos + k)``, ``PE(pos, 2*i)``, ``R(k*omega_i)``,
  ``r(pos)``, and the sum ``Sum(cos(k*omega_i), (i, 0, d_model/2 - 1))``;
- tuples ``(a, b)``, closed intervals ``[-1, 1]`` and matrices ``[[a, b], [c, d]]``;
- ``rotation_matrix(theta)`` and ``pe_pair(pos)`` (the pair as a column, at ω_i unless a
  frequency is given), as proofs.theorems.sinusoidal.definitions builds them;
- ``hold(e)``: e's outermost operation kept as written (``hold(10**6)`` is 10⁶, not 1000000;
  ``hold(M_k*PE(pos))`` keeps the factors' order; ``hold(sin(0))`` stays sin 0).

Names are the lesson's (SYMBOLS: pos, k, i, d_model, ω_i as ``omega_i``, …) and the names of
things shown as wholes (proofs.render.lesson_parts.NAMES: ``M_k``, ``norm_pe``, …), which print
as their LaTeX. A wrong formula raises LessonMathError with a one-line reason.

>>> read_math("PE(pos + k) = hold(M_k*PE(pos))")
Eq(PE(k + pos), M_k*PE(pos))
>>> read_math("[-1, 1]")
Interval(-1, 1)
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping

import sympy as sp

from proofs.engine.parse import parse_expression
from proofs.render.lesson_parts import (
    MAX_LEN,
    NAMES,
    OMEGA_0,
    OMEGA_1,
    OMEGA_LAST,
    PE,
    PE_I,
    ROPE_NAMES,
    THETA,
    P,
    R,
    named,
    r,
)
from proofs.theorems.sinusoidal.definitions import (
    D_MODEL,
    OMEGA_I,
    POS,
    I,
    J,
    K,
    L,
    pe_pair,
    rotation_matrix,
)


class LessonMathError(ValueError):
    """A {math} text the lesson's notation cannot read; the message says why."""


def _symbols() -> dict[str, sp.Symbol]:
    plain = {
        "pos": POS,
        "k": K,
        "j": J,
        "i": I,
        "d_model": D_MODEL,
        "L": L,
        "max_len": MAX_LEN,
        "omega_i": OMEGA_I,
        "omega_0": OMEGA_0,
        "omega_1": OMEGA_1,
        "omega_last": OMEGA_LAST,
        "omega_next": sp.Symbol("omega_next", positive=True),
        "omega": sp.Symbol("omega", positive=True),
        "theta": THETA,
        "p": P,
        "q": sp.Symbol("q", real=True),
        "m": sp.Symbol("m", real=True),
        "a": sp.Symbol("a", real=True),
        "x": sp.Symbol("x", real=True),
        "b": sp.Symbol("b", real=True),
        "n": sp.Symbol("n", integer=True),
        "s": sp.Symbol("s", real=True),
        "k_0": sp.Symbol("k_0", real=True),
        "x_p": sp.Symbol("x_p"),
        "x_q": sp.Symbol("x_q"),
        "alpha": sp.Symbol("alpha", real=True),
        "beta": sp.Symbol("beta", real=True),
        "gamma": sp.Symbol("gamma", real=True),
        "delta": sp.Symbol("delta", real=True),
        # Rotary embeddings (the notes' RoPE sections): head width d, sequence length l, the
        # frequencies θ_i and their scaled θ′_i, wavelengths, turns ρ_i, ramp values γ_i.
        "d": sp.Symbol("d", integer=True, positive=True),
        "l": sp.Symbol("l", positive=True),
        "t": sp.Symbol("t", real=True),
        "u": sp.Symbol("u", positive=True),
        "r": sp.Symbol("r", real=True),
        "mu": sp.Symbol("mu", positive=True),
        "Delta": sp.Symbol("Delta", real=True),
        "lambda_i": sp.Symbol("lambda_i", positive=True),
        "rho_i": sp.Symbol("rho_i", positive=True),
        "rho_33": sp.Symbol("rho_33", positive=True),
        "rho_38": sp.Symbol("rho_38", positive=True),
        "gamma_i": sp.Symbol("gamma_i", real=True),
        "h_i": sp.Symbol("h_i"),
        "z_i": sp.Symbol("z_i"),
        "S_j": sp.Symbol("S_j"),
        "S_0": sp.Symbol("S_0"),
        "z": sp.Symbol("z"),
        "e_0": sp.Symbol("e_0"),
        "e_1": sp.Symbol("e_1"),
        "y": sp.Symbol("y", real=True),
        "phi": sp.Symbol("phi", real=True),
        # Module 11's generic rotation angle, G(η), and exercise 1's angle τ.
        "eta": sp.Symbol("eta", real=True),
        "tau": sp.Symbol("tau", real=True),
        # Module 11's precision: a format's significant bits ν and an integer N nearest to y.
        "nu": sp.Symbol("nu", integer=True, positive=True),
        "N": sp.Symbol("N", integer=True),
        "sigma": sp.Symbol("sigma", nonnegative=True),
        # xPos's factor of pair i (module 11's variants section).
        "xi_i": sp.Symbol("xi_i", positive=True),
        "W_q": sp.Symbol("W_q"),
        "W_k": sp.Symbol("W_k"),
        # The two numbers of one pair of a query and of a key, as the RoPE chains name them.
        **{name: sp.Symbol(name, real=True) for name in ("q_1", "q_2", "kappa_1", "kappa_2")},
        **{
            name: sp.Symbol(name, positive=True)
            for name in ("theta_i", "theta_0", "theta_1", "theta_24", "theta_33", "theta_38")
        },
        **{name: sp.Symbol(name, positive=True) for name in ROPE_NAMES},
    }
    wholes = {name: named(name) for name in NAMES if name not in plain}
    return {**wholes, **plain}


SYMBOLS: Mapping[str, sp.Symbol] = _symbols()
# The lesson's functions: applied to their arguments as written.
FUNCTIONS: Mapping[str, Callable[..., sp.Basic]] = {
    "PE": PE,
    "PE_i": PE_I,
    "PE_0": sp.Function("PE_0"),
    "R": R,
    "r": r,
    # Rotary embeddings: the libraries' rotation G(φ) (the transpose of R), a whole head
    # rotated, RoFormer's average f(r), and rounding to a floating-point format.
    "G": sp.Function("G"),
    "RoPE": sp.Function("RoPE"),
    "f": sp.Function("f"),
    "fl": sp.Function("fl"),
    # Rounding to nearest written with floor and ceiling, as rope_precision writes it.
    "floor": sp.floor,
    "ceiling": sp.ceiling,
}
# Matrices by name (a block of the layouts' shift matrix).
MATRIX_SYMBOLS: Mapping[str, sp.MatrixSymbol] = {
    "C": sp.MatrixSymbol("C", 2, 2),
    "S": sp.MatrixSymbol("S", 2, 2),
}
_STRUCTURE_CALLS = ("hold", "Sum", "floor", "rotation_matrix", "pe_pair", "BlockMatrix")
_RELATIONS: Mapping[type[ast.cmpop], Callable[..., sp.Basic]] = {
    ast.Eq: sp.Eq,
    ast.NotEq: sp.Ne,
    ast.Lt: sp.StrictLessThan,
    ast.LtE: sp.LessThan,
    ast.Gt: sp.StrictGreaterThan,
    ast.GtE: sp.GreaterThan,
}
_LONE_EQUALS = re.compile(r"(?<![=!<>])=(?!=)")


def read_math(text: str) -> sp.Basic:
    """The SymPy object the lesson's math text stands for (see the module's docstring)."""
    source = _LONE_EQUALS.sub("==", text.strip())
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError as error:
        raise LessonMathError(f"{text!r}: syntax error ({error.msg})") from None
    return _Reader(source, text).build(tree.body)


class _Reader:
    def __init__(self, source: str, text: str) -> None:
        self.source = source
        self.text = text

    def fail(self, why: str) -> LessonMathError:
        return LessonMathError(f"{self.text!r}: {why}")

    def segment(self, node: ast.expr) -> str:
        return ast.get_source_segment(self.source, node) or ""

    def special(self, node: ast.AST) -> bool:
        """Whether node is read here rather than by the engine's parser."""
        if isinstance(node, ast.Compare | ast.Tuple | ast.List):
            return True
        if isinstance(node, ast.Name):
            return node.id in MATRIX_SYMBOLS
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            return node.func.id in FUNCTIONS or node.func.id in _STRUCTURE_CALLS
        return False

    def build(self, node: ast.expr) -> sp.Basic:
        if isinstance(node, ast.Compare):
            return self.relation(node)
        if isinstance(node, ast.Tuple):
            return sp.Tuple(*(self.build(e) for e in node.elts))
        if isinstance(node, ast.List):
            return self.bracket(node)
        if isinstance(node, ast.Name) and node.id in MATRIX_SYMBOLS:
            return MATRIX_SYMBOLS[node.id]
        if isinstance(node, ast.Call) and self.special(node):
            return self.call(node)
        if (
            isinstance(node, ast.UnaryOp)
            and isinstance(node.op, ast.USub)
            and self.special(node.operand)
        ):
            return -self.build(node.operand)
        return self.arithmetic(node)

    def relation(self, node: ast.Compare) -> sp.Basic:
        out = self.build(node.left)
        for op, right in zip(node.ops, node.comparators, strict=True):
            if type(op) not in _RELATIONS:
                raise self.fail(
                    f"'{self.segment(node)}' uses a comparison that is not = != < <= > >="
                )
            out = _RELATIONS[type(op)](out, self.build(right), evaluate=False)
        return out

    def bracket(self, node: ast.List) -> sp.Basic:
        """[a, b] is the closed interval; [[a, b], [c, d]] a matrix, row by row."""
        if node.elts and all(isinstance(e, ast.List) for e in node.elts):
            rows = [[self.build(e) for e in row.elts] for row in node.elts]  # type: ignore[attr-defined]
            if len({len(row) for row in rows}) != 1:
                raise self.fail("the rows of a matrix must have the same length")
            return sp.ImmutableMatrix(rows)
        if len(node.elts) != 2:
            raise self.fail("[a, b] is an interval and needs two ends; a matrix is [[...], ...]")
        return sp.Interval(*(self.build(e) for e in node.elts))

    def call(self, node: ast.Call) -> sp.Basic:
        name = node.func.id  # type: ignore[attr-defined]
        if node.keywords:
            raise self.fail(f"{name}() takes no keyword arguments")
        args = node.args
        if name in FUNCTIONS:
            return FUNCTIONS[name](*(self.build(a) for a in args))
        if name == "hold":
            if len(args) != 1:
                raise self.fail("hold() takes one expression")
            return self.held(args[0])
        if name == "Sum":
            if len(args) != 2 or not isinstance(args[1], ast.Tuple) or len(args[1].elts) != 3:
                raise self.fail("Sum(term, (i, first, last)) takes a term and its limits")
            limits = sp.Tuple(*(self.build(e) for e in args[1].elts))
            return sp.Sum(self.build(args[0]), limits)
        if name == "BlockMatrix":
            if len(args) != 1 or not isinstance(args[0], ast.List):
                raise self.fail("BlockMatrix([[A, B], [C, D]]) takes its blocks row by row")
            rows = [[self.build(e) for e in row.elts] for row in args[0].elts]  # type: ignore[attr-defined]
            return sp.BlockMatrix(rows)
        built = [self.build(a) for a in args]
        if name == "floor" and len(built) == 1:
            return sp.floor(built[0])
        if name == "rotation_matrix" and len(built) == 1:
            return rotation_matrix(built[0])
        if name == "pe_pair" and len(built) in (1, 2):
            return pe_pair(built[0], built[1] if len(built) == 2 else OMEGA_I)
        raise self.fail(f"{name}() does not take {len(built)} argument(s)")

    def held(self, node: ast.expr) -> sp.Basic:
        """node's outermost operation built as written, its operands as usual."""
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            return sp.Pow(self.build(node.left), self.build(node.right), evaluate=False)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            factors: list[ast.expr] = []
            current: ast.expr = node
            while isinstance(current, ast.BinOp) and isinstance(current.op, ast.Mult):
                factors.insert(0, current.right)
                current = current.left
            built = [self.build(f) for f in [current, *factors]]
            if any(isinstance(f, sp.MatrixBase | sp.MatrixExpr) for f in built):
                return sp.MatMul(*built, evaluate=False)
            return sp.Mul(*built, evaluate=False)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 1:
            argument = self.build(node.args[0])
            if node.func.id == "sqrt":
                return sp.Pow(argument, sp.Rational(1, 2), evaluate=False)
            held = {"sin": sp.sin, "cos": sp.cos, "exp": sp.exp, "log": sp.log}
            if node.func.id in held:
                return held[node.func.id](argument, evaluate=False)
        raise self.fail(
            f"hold() keeps a product, a power or a function call, not '{self.segment(node)}'"
        )

    def arithmetic(self, node: ast.expr) -> sp.Basic:
        """node by the engine's parser; its special parts are read here and put in place."""
        text = self.segment(node)
        inner = [n for n in _outermost(node, self.special) if n is not node]
        names: dict[str, sp.Symbol] = {}
        parts: dict[sp.Symbol, sp.Basic] = {}
        # Replace the special parts from the right, so the earlier offsets stay valid.
        start = node.col_offset
        for j, part in sorted(enumerate(inner), key=lambda t: -t[1].col_offset):
            built = self.build(part)
            if isinstance(built, sp.MatrixBase | sp.MatrixExpr):
                raise self.fail(f"a matrix ('{self.segment(part)}') multiplies only inside hold()")
            name = f"_{j}"
            names[name] = sp.Symbol(name, commutative=built.is_commutative is not False)
            parts[names[name]] = built
            a, b = part.col_offset - start, part.end_col_offset - start  # type: ignore[operator]
            text = text[:a] + name + text[b:]
        try:
            expr = parse_expression(text, symbols={**SYMBOLS, **names})
        except ValueError as error:
            raise self.fail(str(error)) from None
        return expr.xreplace(parts) if parts else expr


def _outermost(node: ast.AST, special: Callable[[ast.AST], bool]) -> list[ast.expr]:
    """The outermost nodes under node (node included) that special accepts."""
    if special(node):
        return [node]  # type: ignore[list-item]
    out: list[ast.expr] = []
    for child in ast.iter_child_nodes(node):
        out += _outermost(child, special)
    return out
