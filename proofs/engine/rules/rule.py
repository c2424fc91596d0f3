"""Rule: one named rewrite that a step cites, declared once with everything the engine asks of it.

A rule rewrites an expression; the link it justifies closes when the two sides, rewritten, are
equal by algebra (proofs.engine.rules.normal_form): ring arithmetic, or field arithmetic for the
rules that say so, over atoms taken as written. That is how a Coq proof of the same step reads:
`rewrite sin_plus, cos_plus; ring`.

Besides its rewrite, a rule says where a claim that cites nothing tries it (Round, LastResort:
proofs.engine.strategies), where the search for what closes a wrongly cited link tries it
(Diagnosis), and how a Coq proof of a step citing it goes (CoqPlan, and the tactic). The package
collects the rules from its modules (proofs.engine.rules), so a new rule is one file.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

import sympy as sp


@dataclass(frozen=True)
class Round:
    """The rule's place in the search that closes a claim citing no rule.

    The search runs in rounds, cheapest first. Round 0 is tried alone (algebra). Round k ≥ 1
    applies every rule of rounds 1 to k in one sequence, ordered by position, so that each rule
    works on what the ones before it left; the first round that closes the claim is then cut to
    the rules it needs, which the verdict names.
    """

    round: int
    position: int


@dataclass(frozen=True)
class LastResort:
    """The rule is tried alone, by position, after every round has failed, and only on a claim
    with symbols: an answer that can be wrong and can take minutes (trigsimp, simplify).

    then_exact: what the rule leaves is then reduced by the rounds (a closed form of a sum is
    itself to be simplified).
    """

    position: int
    then_exact: bool = False


@dataclass(frozen=True)
class Diagnosis:
    """Where the rule is tried when a link's citation does not close it, so that the verdict can
    name what does ("closed by angle addition, not by the cited parity").

    The tries run by place, after algebra alone and before the rounds of the search. alone: the
    place of the rule tried by itself (None: never alone). then: (place, name of a second rule)
    for each pair that starts with this rule.
    """

    alone: int | None = None
    then: tuple[tuple[int, str], ...] = ()


class CoqPlan(Enum):
    """How the Coq generator (proofs.engine.coq.script) proves a step that cites the rule, using
    the rule's own tactic (Rule.coq)."""

    NONE = "no Coq proof: the step gets no lemma, and the reason says so"
    CLOSE = "nothing rewritten first: ring, or field where a side divides"
    MATRIX = "the matrices' entries computed, then each entry proved"
    ANGLE_SUM = "each sine or cosine of a sum rewritten, its angle written a + b + …"
    ANGLE_DIFFERENCE = "each sine or cosine of a sum rewritten, a term with a minus sign as − b"
    NEGATED_ANGLE = "each sine or cosine of −x rewritten"
    FULL_TURNS = "each sine or cosine of x + 2nπ rewritten (n an integer)"
    HALF_TURNS = "each sine or cosine of x + nπ rewritten (n an integer)"
    ANGLE_MULTIPLE = "each sine or cosine of n·x rewritten, its angle written x + … + x"
    SUM_TERMS = "each Σ of a constant rewritten"
    EXPONENT_LAWS = "powers of one number: the tactic, then algebra; other powers through a basis"
    POWER_LAWS = "products and powers of powers split and joined, then powers through a basis"
    EXPONENTIAL = "sinh and cosh written through exp, then exponentials through a basis"
    INTEGERS = (
        "each floor, ceiling, min and max replaced by its value, its bounds by lra or interval"
    )
    WHOLE_GOAL = "the tactic on the whole goal, both sides rewritten as the rule rewrites them"
    CERTIFICATE = "lhs − rhs as a combination of sin² + cos² − 1 checked by algebra (cited last)"


@dataclass(frozen=True)
class Rule:
    """A named rewrite and everything the engine asks of it.

    name: an identifier (angle_addition). words: the rule as the printers say it ("angle
    addition"). rewrite: the function that does it; its docstring says what the rule does, with
    an example. field: close with field arithmetic (denominators cleared) rather than ring
    arithmetic. exact: False for a computer-algebra answer that can be wrong (simplify, trigsimp,
    Sum.doit): a zero it reaches stands only after the certified numeric confirmation. joint:
    the rule rewrites both sides of a link at once, as a Tuple (it needs to see both, as the
    common angle of sin x and sin(x/2) does); any other rule rewrites each side alone. search:
    where a claim citing no rule tries it (None: only where cited). diagnosis: where the search
    for what closes a wrongly cited link tries it. coq: the tactic a Coq proof of the step uses
    ("" for none), applied as coq_plan says.

    >>> double = Rule("double", "double", lambda e: 2 * e, search=Round(1, 5))
    >>> double(sp.Symbol("x")), double.search.round, double.coq_plan.name
    (2*x, 1, 'NONE')
    """

    name: str
    words: str
    rewrite: Callable[[sp.Basic], sp.Basic]
    field: bool = False
    exact: bool = True
    joint: bool = False
    search: Round | LastResort | None = None
    diagnosis: Diagnosis = Diagnosis()
    coq: str = ""
    coq_plan: CoqPlan = CoqPlan.NONE

    def __post_init__(self) -> None:
        if (self.coq_plan is CoqPlan.NONE) != (self.coq == ""):
            raise ValueError(
                f"rule {self.name}: a Coq tactic goes with a Coq plan other than NONE, and no "
                f"tactic with NONE (got {self.coq!r} and {self.coq_plan.name})"
            )

    def __call__(self, expr: sp.Basic) -> sp.Basic:
        try:
            return self.rewrite(expr)
        except (ValueError, ArithmeticError):
            # A SymPy constructor refused the rewritten tree (Max of a constant it cannot
            # compare), or SymPy's own evaluation overflowed or divided by zero on the way: the
            # rule does not apply here, which can only lose a proof.
            return expr

    def __str__(self) -> str:
        return self.words

    @property
    def description(self) -> str:
        """What the rule does: the first paragraph of its rewrite's docstring, on one line."""
        text = inspect.getdoc(self.rewrite) or ""
        return " ".join(text.split("\n\n")[0].split())


def rebuild(node: sp.Basic, args: tuple) -> sp.Basic:
    """node with new arguments, built without SymPy's evaluation where the type allows it (so
    a rewrite does only its own work: sin(x + 2π) must not become sin(x) on the way)."""
    if args == node.args:
        return node
    try:
        return node.func(*args, evaluate=False)
    except TypeError:
        return node.func(*args)


def bottom_up(expr: sp.Basic, at_node: Callable[[sp.Basic], sp.Basic]) -> sp.Basic:
    """expr with at_node applied to every node, innermost first; explicit matrices entry by entry.

    >>> x = sp.Symbol("x")
    >>> bottom_up(sp.sin(x) * sp.cos(x), lambda e: sp.cos(*e.args) if isinstance(e, sp.sin) else e)
    cos(x)*cos(x)
    """
    if isinstance(expr, sp.MatrixBase):
        rows, cols = expr.shape
        return sp.ImmutableMatrix(rows, cols, [bottom_up(e, at_node) for e in expr])
    if not expr.args:
        return at_node(expr)
    args = tuple(bottom_up(a, at_node) for a in expr.args)
    return at_node(rebuild(expr, args))
