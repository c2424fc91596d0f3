"""What a step cites: a rule, a short sequence of rules, a lemma, or either of those termwise
inside a sum; and the test of whether the citation closes a link.

A rule sequence closes a → b when both sides, rewritten by the rules in order, are equal by
algebra. A lemma is a proved chain s_0 = s_1 = … = s_n (a named part of the same theorem) with
its free symbols bound: it closes a → b when a and b are, by algebra, two different steps of
the instantiated chain. Termwise(c) closes Σ f = Σ g over one range when c closes f → g.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import sympy as sp

from proofs.engine import arguments
from proofs.engine.rules import Rule
from proofs.engine.rules.normal_form import Atoms, equal_by_algebra
from proofs.engine.rules.rule import rebuild

if TYPE_CHECKING:
    from proofs.engine.derivation import Derivation


class Citable:
    """What a Lemma may cite: proofs.engine.derivation.Derivation subclasses it, so that a Lemma
    checks its argument here without importing derivation (which imports this module)."""


@dataclass(frozen=True)
class Lemma:
    """A proved chain cited with its free symbols bound: lemma's steps with bindings put in.

    derivation: the chain, a part of the same theorem. bindings: symbol -> value (each value
    must meet its symbol's assumptions, or the citation does not close).
    """

    derivation: Derivation
    bindings: Mapping[sp.Symbol, sp.Expr] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.derivation, Citable):
            kind = type(self.derivation).__name__
            raise TypeError(f"a Lemma's derivation must be a Derivation, got {kind}")
        bound = arguments.bindings(self.bindings, f"lemma {self.derivation.name!r}: bindings")
        object.__setattr__(self, "bindings", bound)

    def __hash__(self) -> int:
        return hash((self.derivation.name, tuple(self.bindings.items())))

    @property
    def words(self) -> str:
        """The citation in words: "lemma pair_dot" (the bindings are data, for the printers)."""
        return f"lemma {self.derivation.name}"

    def instances(self) -> list[sp.Basic]:
        """The lemma's steps with the bindings put in, nothing re-evaluated."""
        return [substitute(step.expr, self.bindings) for step in self.derivation.steps]


@dataclass(frozen=True)
class Termwise:
    """A citation applied summand by summand: Σ_i f_i = Σ_i g_i because each f_i = g_i by inner."""

    inner: Rule | tuple[Rule, ...] | Lemma

    def __post_init__(self) -> None:
        if isinstance(self.inner, Termwise):
            raise TypeError("a Termwise citation's inner must be a rule, rules or a lemma")
        check_citation(self.inner, "a Termwise citation's inner")

    @property
    def words(self) -> str:
        return f"termwise: {words(self.inner)}"


Citation = Rule | tuple[Rule, ...] | Lemma | Termwise


def check_citation(value: object, what: str) -> None:
    """TypeError unless value is a citation: a Rule, a non-empty tuple of Rules, a Lemma or a
    Termwise (ValueError for an empty tuple)."""
    if isinstance(value, Rule | Lemma | Termwise):
        return
    if isinstance(value, tuple):
        if not value:
            raise ValueError(f"{what} is an empty tuple: cite at least one rule")
        for j, rule in enumerate(value):
            if not isinstance(rule, Rule):
                raise TypeError(f"{what}[{j}] must be a Rule, got {type(rule).__name__}")
        return
    raise TypeError(
        f"{what} must be a Rule, a tuple of Rules, a Lemma or a Termwise, "
        f"got {type(value).__name__}"
    )


def words(citation: Citation | None) -> str:
    """How the printers and the JSON name a citation: "angle addition", "parity, algebra",
    "lemma pair_dot", "termwise: lemma pair_dot"."""
    if citation is None:
        return ""
    if isinstance(citation, Rule):
        return citation.words
    if isinstance(citation, tuple):
        return ", ".join(rule.words for rule in citation)
    return citation.words


def rules_of(citation: Citation) -> tuple[Rule, ...]:
    """The rules a citation applies (a lemma applies none)."""
    if isinstance(citation, Rule):
        return (citation,)
    if isinstance(citation, tuple):
        return citation
    if isinstance(citation, Termwise):
        return rules_of(citation.inner)
    return ()


def lemmas_of(citation: Citation | None) -> tuple[Derivation, ...]:
    """The lemma a citation rests on, if any."""
    if isinstance(citation, Lemma):
        return (citation.derivation,)
    if isinstance(citation, Termwise):
        return lemmas_of(citation.inner)
    return ()


def substitute(
    expr: sp.Basic, bindings: Mapping[sp.Symbol, sp.Expr], *, arithmetic: bool = False
) -> sp.Basic:
    """expr with each bound symbol replaced, every node rebuilt without evaluation: cos(k·ω) at
    k := −k stays cos(−k·ω), and only the parity rule may turn it into cos(k·ω).

    arithmetic: evaluate sums, products, powers and indices (−1·k·ω, 2·i/8 = i/4,
    κ[i + 8/2] = κ[i + 4]) while still keeping every function application as written.

    >>> k, w = sp.symbols("k omega")
    >>> substitute(sp.cos(k*w), {k: -k})
    cos((-k)*omega)
    >>> substitute(sp.cos(k*w), {k: -k}, arithmetic=True)
    cos(-k*omega)
    """
    if not bindings:
        return expr
    evaluated = (sp.Add, sp.Mul, sp.Pow, sp.Indexed, sp.Tuple) if arithmetic else ()

    def walk(e: sp.Basic) -> sp.Basic:
        if isinstance(e, sp.Symbol):
            return bindings.get(e, e)
        if isinstance(e, sp.MatrixBase):
            rows, cols = e.shape
            return sp.ImmutableMatrix(rows, cols, [walk(x) for x in e])
        if not e.args:
            return e
        args = tuple(walk(a) for a in e.args)
        if args == e.args:
            return e
        if isinstance(e, evaluated):
            return e.func(*args)
        return rebuild(e, args)

    return walk(expr)


def assumption_failure(symbol: sp.Symbol, value: sp.Expr) -> str:
    """'' if value meets every assumption of symbol, else the first one it does not meet."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = sp.Integer(value)
    if not isinstance(value, sp.Basic):
        return f"{value!r} is not a SymPy expression"
    for key, wanted in symbol.assumptions0.items():
        if getattr(value, f"is_{key}", None) != wanted:
            return f"{sp.sstr(value)} is not {'' if wanted else 'non-'}{key} as {symbol} is"
    return ""


def _scalar(expr: sp.Basic) -> sp.Basic:
    """A 1×1 matrix as its entry; anything else as it is."""
    if isinstance(expr, sp.MatrixBase) and expr.shape == (1, 1):
        return expr[0, 0]
    return expr


def _same(x: sp.Basic, y: sp.Basic, atoms: Atoms) -> bool:
    x, y = _scalar(x), _scalar(y)
    x_matrix = isinstance(x, sp.MatrixBase | sp.MatrixExpr)
    if x_matrix != isinstance(y, sp.MatrixBase | sp.MatrixExpr):
        return False
    if x_matrix and x.shape != y.shape:
        return False
    return equal_by_algebra(x, y, atoms)


def apply_rules(a: sp.Basic, b: sp.Basic, rules: tuple[Rule, ...]) -> tuple[sp.Basic, sp.Basic]:
    """Both sides rewritten by the rules in order (a joint rule sees both sides at once)."""
    for rule in rules:
        if rule.joint:
            a, b = rule(sp.Tuple(a, b))
        else:
            a, b = rule(a), rule(b)
    return a, b


def rules_close(a: sp.Basic, b: sp.Basic, rules: tuple[Rule, ...]) -> bool:
    """Whether a = b once both are rewritten by rules and compared by algebra (by field
    arithmetic, denominators cleared, if any rule says so)."""
    x, y = apply_rules(a, b, rules)
    if any(rule.field for rule in rules):
        return _equal_as_fractions(x, y)
    return _same(x, y, Atoms())


def _equal_as_fractions(x: sp.Basic, y: sp.Basic) -> bool:
    atoms = Atoms()
    x, y = _scalar(x), _scalar(y)
    if isinstance(x, sp.MatrixBase) and isinstance(y, sp.MatrixBase):
        if x.shape != y.shape:
            return False
        pairs = list(zip(x, y, strict=True))
    elif isinstance(x, sp.MatrixBase | sp.MatrixExpr) or isinstance(
        y, sp.MatrixBase | sp.MatrixExpr
    ):
        return _same(x, y, atoms)
    else:
        pairs = [(x, y)]
    return all(
        sp.cancel(sp.together(atoms.polynomial(p) - atoms.polynomial(q))) == 0 for p, q in pairs
    )


def capture(expr: sp.Basic, bindings: Mapping[sp.Symbol, sp.Basic]) -> str:
    """'' when putting bindings into expr binds nothing wrongly, else what would go wrong: a
    bound symbol (a summation index) that a binding replaces, or a value whose free symbols a
    sum (or product, integral) of expr would take for its own index.

    >>> i, m, n = sp.symbols("i m n", integer=True)
    >>> capture(sp.Sum(i * m, (i, 0, n)), {m: i})
    'the binding m := i puts i inside a sum over i'
    >>> capture(sp.Sum(i * m, (i, 0, n)), {m: n + 1})
    ''
    """
    for node in sp.preorder_traversal(expr):
        bound = set(getattr(node, "bound_symbols", ()) or ())
        if not bound or not isinstance(node, sp.Basic):
            continue
        for symbol, value in bindings.items():
            if symbol in bound:
                return f"{symbol} is bound inside the cited expression and cannot be bound again"
            caught = bound & value.free_symbols
            if symbol in node.free_symbols and caught:
                index = ", ".join(sorted(map(str, caught)))
                return f"the binding {symbol} := {value} puts {index} inside a sum over {index}"
    return ""


def lemma_closes(a: sp.Basic, b: sp.Basic, lemma: Lemma) -> str:
    """'' when a and b are two steps of the instantiated lemma, else why not."""
    for symbol, value in lemma.bindings.items():
        failure = assumption_failure(symbol, value)
        if failure:
            return f"the lemma does not apply: {failure}"
    for step in lemma.derivation.steps:
        captured = capture(step.expr, lemma.bindings)
        if captured:
            return f"the lemma does not apply: {captured}"
    atoms = Atoms()
    steps = lemma.instances()
    at_a = {j for j, s in enumerate(steps) if _same(a, s, atoms)}
    at_b = {j for j, s in enumerate(steps) if _same(b, s, atoms)}
    if not at_a:
        return "the left side is no step of the lemma"
    if not at_b:
        return "the right side is no step of the lemma"
    return ""


def termwise_closes(a: sp.Basic, b: sp.Basic, termwise: Termwise) -> str:
    """'' when a and b are sums over one range whose summands the inner citation closes."""
    a, b = _scalar(a), _scalar(b)
    if not (isinstance(a, sp.Sum) and isinstance(b, sp.Sum)):
        return "both sides must be sums"
    if len(a.limits) != 1 or len(b.limits) != 1:
        return "only single sums are compared termwise"
    (i, low, high), (j, low_b, high_b) = a.limits[0], b.limits[0]
    if not (equal_by_algebra(low, low_b) and equal_by_algebra(high, high_b)):
        return "the two sums run over different ranges"
    if i != j and i in b.function.free_symbols:
        # Renaming j to i would make the right side's free i an index of the sum.
        return f"renaming the right side's index {j} to {i} would capture its free {i}"
    captured = capture(b.function, {j: i}) if i != j else ""
    if captured:
        return f"renaming the right side's index {j} to {i}: {captured}"
    g = b.function if i == j else substitute(b.function, {j: i})
    # The summand identity is used at every index of the range: the range must meet the
    # index's hypotheses (a lemma proved for i ≥ 0 says nothing at i = −1).
    # Read off the limits' structure, not SymPy's assumption queries (which may evaluate numbers):
    # the lower limit an integer constant, the number of terms an integer expression.
    if i.is_nonnegative and not (low.is_Integer and low >= 0):
        return f"the range does not meet {i}'s hypotheses ({i} ≥ 0)"
    if i.is_integer and not (low.is_Integer and _integer_valued(high - low)):
        return f"the range does not meet {i}'s hypotheses ({i} an integer)"
    inner = termwise.inner
    if isinstance(inner, Lemma):
        return lemma_closes(a.function, g, inner)
    return "" if rules_close(a.function, g, rules_of(inner)) else "the summands do not close"


def _integer_valued(e: sp.Expr) -> bool:
    """e is an integer by its structure: integer constants and symbols declared integer, under
    sums and products, or half of a symbol declared even (d_model/2)."""
    if e.is_Integer or (isinstance(e, sp.Symbol) and e.is_integer is True):
        return True
    if isinstance(e, sp.Add | sp.Mul):
        if all(_integer_valued(a) for a in e.args):
            return True
        coefficient, rest = e.as_coeff_Mul()
        return (
            coefficient == sp.Rational(1, 2) and isinstance(rest, sp.Symbol) and bool(rest.is_even)
        )
    return False


def closes(a: sp.Basic, b: sp.Basic, citation: Citation) -> str:
    """'' when citation closes the link a → b, else a short reason why not."""
    if isinstance(citation, Lemma):
        return lemma_closes(a, b, citation)
    if isinstance(citation, Termwise):
        return termwise_closes(a, b, citation)
    return "" if rules_close(a, b, rules_of(citation)) else "the rewritten sides differ"
