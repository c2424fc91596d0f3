"""SymPy expressions compiled once into flat programs over balls, then run at many points.

No recursion: deep expressions compile and run with an explicit stack.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

import flint
import sympy as sp
from flint import acb, arb, fmpz
from sympy.matrices.expressions.matexpr import MatrixElement

from proofs.engine.ball_operations import CONSTANTS, FUNCTIONS, RELATIONS, add, mul, pow, pow_int
from proofs.engine.balls import (
    LOCK,
    MAX_TERMS,
    Ball,
    IndeterminateError,
    OutOfTimeError,
    UndefinedError,
    UntranslatableError,
    ball_of,
    exact_int,
    float,
    point_value,
    precision,
    rational,
    show,
)

# ---------------------------------------------------------------- compiled programs


@dataclass
class _Node:
    fn: Callable[..., object]
    args: tuple[int, ...]
    label: str
    constant: bool


@dataclass(frozen=True)
class _Loop:
    """A Sum (or Product) of function over limits, innermost first, as the compiler's own node.

    Sum(f, l1, l2) is Sum(Sum(f, l1), l2); the inner loop is this node, never a SymPy Sum built
    anew, since building one lets SymPy rewrite the summand (piecewise_fold).
    """

    product: bool
    function: sp.Basic
    limits: tuple[tuple[sp.Basic, ...], ...]

    @property
    def free_symbols(self) -> set[sp.Basic]:
        free = set(self.function.free_symbols)
        for index, *bounds in self.limits:
            free.discard(index)
            free |= set().union(*(b.free_symbols for b in bounds))
        return free

    def has(self, *patterns: sp.Basic) -> bool:
        parts = (self.function, *(b for _, *bounds in self.limits for b in bounds))
        return any(part.has(*patterns) for part in parts)


class _Program:
    """Expressions compiled to a flat list of ball operations over shared subexpressions.

    inputs: the symbols (and matrix entries A[i, j]) whose values are passed to run(), in order
    (slots 0..k-1). outputs: the slots holding the compiled expressions' values.
    """

    def __init__(self, exprs: list[sp.Basic], inputs: tuple[sp.Basic, ...]) -> None:
        self.inputs = inputs
        self.nodes: list[_Node] = []
        self._slots: dict[sp.Basic, int] = {}
        for s in inputs:
            self._slots[s] = len(self.nodes)
            self.nodes.append(_Node(_input_marker, (), str(s), False))
        self.outputs = [self._compile(e) for e in exprs]
        self._constants: dict[int, list[object]] = {}

    # Compilation walks the tree with an explicit stack: hundreds of nesting levels are fine.
    def _compile(self, root: sp.Basic) -> int:
        stack: list[tuple[sp.Basic, bool]] = [(root, False)]
        while stack:
            node, ready = stack.pop()
            if node in self._slots:
                continue
            children = _children(node)
            if not ready:
                stack.append((node, True))
                stack.extend((c, False) for c in children if c not in self._slots)
                continue
            fn, label, extra = self._translate(node)
            args = tuple(self._slots[c] for c in children) + extra
            constant = all(self.nodes[a].constant for a in args)
            self._slots[node] = len(self.nodes)
            self.nodes.append(_Node(fn, args, label, constant))
        return self._slots[root]

    def _translate(self, node: sp.Basic) -> tuple[Callable[..., object], str, tuple[int, ...]]:
        """The operation computing node from its children's values, plus extra argument slots."""
        if isinstance(node, _Loop):
            return self._compile_loop(node)
        if isinstance(node, sp.Symbol):
            raise UntranslatableError(f"the symbol {node}", "it has no value at the point")
        if node.is_Rational:
            return (lambda v=node: rational(v)), "Rational", ()
        if node.is_Float:
            return (lambda v=node: float(v)), "Float", ()
        kind = type(node)
        if kind in CONSTANTS:
            return CONSTANTS[kind], kind.__name__, ()
        if kind is sp.Add:
            return add, "Add", ()
        if kind is sp.Mul:
            return mul, "Mul", ()
        if kind is sp.Pow:
            return _compile_pow(node), "Pow", ()
        if kind in FUNCTIONS:
            return FUNCTIONS[kind], kind.__name__, ()
        if kind in RELATIONS:
            return RELATIONS[kind], kind.__name__, ()
        if node is sp.true or node is sp.false:
            return (lambda v=bool(node): v), str(node), ()
        if kind in (sp.Sum, sp.Product):
            return self._compile_loop(_Loop(kind is sp.Product, node.function, node.limits))
        if kind is sp.Piecewise:
            return self._compile_piecewise(node)
        raise UntranslatableError(kind.__name__)

    def _outer(self, expr: sp.Basic | _Loop, bound: sp.Symbol | None) -> tuple[sp.Basic, ...]:
        # Inputs of this program that a lazily evaluated part uses.
        free = expr.free_symbols
        return tuple(
            s
            for s in self.inputs
            if s != bound and (s in free or (isinstance(s, MatrixElement) and expr.has(s)))
        )

    def _compile_loop(self, loop: _Loop):
        name = "Product" if loop.product else "Sum"
        # The last limit is the outermost loop; the body is the loop over the others.
        *inner, limit = loop.limits
        if len(limit) != 3:
            raise UntranslatableError(name, "without limits")
        index, a, b = limit
        if any(v.has(sp.oo, -sp.oo, sp.zoo) for v in (a, b)):
            raise UntranslatableError(name, "with an infinite limit")
        body = _Loop(loop.product, loop.function, tuple(inner)) if inner else loop.function
        outer = self._outer(body, index)
        program = _Program([body], (*outer, index))
        extra = (self._compile(a), self._compile(b), *(self._slots[s] for s in outer))
        return _loop(program, loop.product, name), name, extra

    def _compile_piecewise(self, node: sp.Piecewise):
        # Every piece sees all the Piecewise's symbols; pieces are evaluated only when reached.
        inputs = self._outer(node, None)
        pieces = [
            (
                _Program([cond], inputs) if cond is not sp.true else None,
                _Program([expr], inputs),
            )
            for expr, cond in node.args
        ]
        return _piecewise(pieces), "Piecewise", tuple(self._slots[s] for s in inputs)

    def constants(self, deadline: float | None) -> list[object]:
        """The values of the nodes that depend on no input, at the current precision."""
        prec = flint.ctx.prec
        cached = self._constants.get(prec)
        if cached is None:
            cached = [None] * len(self.nodes)
            for k, node in enumerate(self.nodes):
                if node.constant:
                    cached[k] = _apply(node, [cached[j] for j in node.args], deadline)
            self._constants[prec] = cached
        return cached

    def run(self, values: list[Ball], deadline: float | None) -> list[object]:
        """The outputs at input values given as balls, at the current flint precision."""
        vals = list(self.constants(deadline))
        vals[: len(values)] = values
        for k in range(len(values), len(self.nodes)):
            node = self.nodes[k]
            if not node.constant:
                vals[k] = _apply(node, [vals[j] for j in node.args], deadline)
        return [vals[k] for k in self.outputs]


def _exact_ball(a: object) -> bool:
    return type(a) in (arb, acb) and a.is_exact()


def _input_marker() -> None:
    raise AssertionError("input slots are filled by run()")


def _apply(node: _Node, args: list, deadline: float | None) -> object:
    try:
        value = node.fn(*args, deadline) if node.label in _LAZY else node.fn(*args)
    except (ZeroDivisionError, ValueError, OverflowError) as exc:
        raise IndeterminateError(f"{node.label}: {exc}") from None
    if type(value) is bool or value.is_finite():
        return value
    if node.label not in _LAZY and args and all(_exact_ball(a) for a in args):
        # Exact arguments leave nothing for more precision to resolve: a pole (log(0), 1/0).
        raise UndefinedError(f"{node.label} has no finite value at exact arguments")
    # A pole at the point, or too few bits: only more precision can tell, so retry.
    raise IndeterminateError(f"{node.label} is not finite on the balls at {flint.ctx.prec} bits")


_LAZY = ("Sum", "Product", "Piecewise")


def _children(node: sp.Basic) -> tuple[sp.Basic, ...]:
    # Sums, Products and Piecewise evaluate their parts lazily, as sub-programs.
    if isinstance(node, _Loop | sp.Sum | sp.Product | sp.Piecewise):
        return ()
    if node.is_Pow and node.exp.is_Rational:
        return (node.base,)
    return node.args


def _compile_pow(node: sp.Pow) -> Callable[..., Ball]:
    e = node.exp
    if e.is_Integer:
        n = int(e)
        return lambda b: pow_int(b, n)
    if e.is_Rational:
        # exponent ball built at the working precision of each evaluation
        return lambda b: pow(b, rational(e))
    return pow


def _limit(value: Ball, name: str) -> int:
    n = exact_int(value)
    if n is None:
        raise UndefinedError(f"a limit of the {name} is not an integer: {show(value)}")
    return n


def _loop(program: _Program, product: bool, name: str):
    def run(a: Ball, b: Ball, *rest) -> Ball:
        *outer, deadline = rest
        lo, hi = _limit(a, name), _limit(b, name)
        invert = hi < lo - 1
        if hi == lo - 1:
            return arb(1 if product else 0)
        if invert:  # SymPy's (Karr's) convention for reversed limits
            lo, hi = hi + 1, lo - 1
        if hi - lo + 1 > MAX_TERMS:
            raise UntranslatableError(name, f"with {hi - lo + 1} terms, more than {MAX_TERMS}")
        total: Ball = arb(1 if product else 0)
        for i in range(lo, hi + 1):
            if deadline is not None and (i - lo) % 1024 == 0 and time.monotonic() > deadline:
                raise OutOfTimeError(f"the deadline passed during a {name}")
            (term,) = program.run([*outer, arb(fmpz(i))], deadline)
            total = total * term if product else total + term
        if invert:
            return 1 / total if product else -total
        return total

    return run


def _piecewise(pieces: list[tuple[_Program | None, _Program]]):
    def run(*rest) -> Ball:
        *values, deadline = rest
        for cond, expr in pieces:
            if cond is None or cond.run(values, deadline)[0]:
                return expr.run(values, deadline)[0]
        raise UndefinedError("no condition of the Piecewise holds")

    return run


# ---------------------------------------------------------------- public API


def matrix_entries(expr: sp.Basic) -> tuple[list[sp.Basic], tuple[int, int] | None]:
    if isinstance(expr, sp.MatrixBase):
        return list(expr), expr.shape
    if isinstance(expr, sp.MatrixExpr):
        raise TypeError("matrix expressions must be explicit matrices (ImmutableMatrix)")
    if isinstance(expr, bool) or not isinstance(expr, sp.Expr | int):
        raise TypeError(f"expected a SymPy expression or Matrix, got {type(expr).__name__}")
    return [sp.Integer(expr) if isinstance(expr, int) else expr], None


def walk(exprs: list[sp.Basic]) -> Iterator[sp.Basic]:
    """Every node once, children before parents, without recursion.

    SymPy's hash is recursive but cached: hashing each node after its children keeps it shallow,
    so expressions nested hundreds deep can be used as dictionary keys.
    """
    seen: set[int] = set()
    stack: list[tuple[sp.Basic, bool]] = [(e, False) for e in reversed(exprs)]
    while stack:
        node, ready = stack.pop()
        if id(node) in seen:
            continue
        if ready:
            seen.add(id(node))
            hash(node)
            yield node
            continue
        stack.append((node, True))
        stack.extend((a, False) for a in node.args if id(a) not in seen)


def expression_symbols(exprs: list[sp.Basic]) -> tuple[sp.Basic, ...]:
    """The inputs of exprs in a fixed order: their free symbols (two may share a name), then
    the entries A[i, j] of matrix symbols at integer indices, each an input of its own."""
    found: set[sp.Basic] = set()
    entries: set[MatrixElement] = set()
    binds = False
    for node in walk(exprs):
        if isinstance(node, sp.Symbol):
            found.add(node)
        elif isinstance(node, MatrixElement) and node.i.is_Integer and node.j.is_Integer:
            entries.add(node)
        binds = binds or bool(getattr(node, "bound_symbols", ()))
    if binds:  # a Sum's index is bound, not free: SymPy's free_symbols knows which are which
        found = {s for e in exprs for s in e.free_symbols if isinstance(s, sp.Symbol)}
    symbols = sorted(found, key=lambda s: (s.name, str(sorted(s.assumptions0.items()))))
    return (*symbols, *sorted(entries, key=str))


# Compiled programs, oldest first: a chain evaluates each step as the rhs of one link and the
# lhs of the next, at many points, so compiling once per expression pays.
_CACHE: dict[tuple, _Program] = {}
_CACHE_SIZE = 256


def compiled(exprs: tuple[sp.Basic, ...]) -> _Program:
    """The program computing exprs; its inputs are their free symbols."""
    with LOCK:
        try:
            program = _CACHE.get(exprs)
        except RecursionError:  # a first hash of a deep tree: hash it bottom-up, then look again
            for _ in walk(list(exprs)):
                pass
            program = _CACHE.get(exprs)
        if program is None:
            if len(_CACHE) >= _CACHE_SIZE:
                _CACHE.pop(next(iter(_CACHE)))
            program = _CACHE[exprs] = _Program(list(exprs), expression_symbols(list(exprs)))
        return program


def inputs(
    symbols: tuple[sp.Symbol, ...], point: Mapping[sp.Symbol, object]
) -> list[tuple[arb, arb | None]]:
    if not isinstance(point, Mapping):
        raise TypeError(
            f"point must be a mapping from symbols to values, got {type(point).__name__}"
        )
    missing = [str(s) for s in symbols if s not in point]
    if missing:
        raise ValueError(f"the point gives no value for {', '.join(missing)}")
    return [point_value(s, point[s]) for s in symbols]


def _balls(parts: list[tuple]) -> list[Ball]:
    out: list[Ball] = []
    for re, im in parts:
        if im == 0:
            out.append(ball_of(re))
        else:
            out.append(acb(ball_of(re), ball_of(im)))
    return out


def evaluate(program: _Program, parts: list[tuple], bits: int, deadline: float | None) -> list:
    with precision(bits):
        return program.run(_balls(parts), deadline)
