"""The theorem author's API refuses what is not a SymPy object at construction (issue 34, item 5).

Every public constructor and function a theorem module uses (Step, Derivation, Lemma, Termwise,
Theorem, the facts, Blockwise, prove_identity, check_link, find_shift_map, verify) is called
with each of its arguments replaced in turn by a string, None, a list and a float: each call
ends in a TypeError (or a ValueError where the type is right and the value is not) that names
the argument, never in an AttributeError, and a string is never parsed. Of Python's numbers only
int is taken for an expression (as a SymPy Integer).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sympy as sp

from proofs.engine.blocks import BlockEquation
from proofs.engine.blockwise import Blockwise
from proofs.engine.citation import Lemma, Termwise
from proofs.engine.derivation import Derivation, Step, check_link, prove_identity
from proofs.engine.facts import (
    FreeOf,
    LinearSystem,
    NonNegative,
    NonZero,
    Refutation,
    ShiftMapFact,
)
from proofs.engine.rules import ALGEBRA, PYTHAGOREAN
from proofs.engine.shift_decision import find_shift_map
from proofs.engine.theorem import Theorem
from proofs.theorems.sinusoidal.definitions import POS, K, pair_bindings, pe_blocks

X = sp.Symbol("x", real=True)
M = sp.Symbol("m", integer=True)

# Text that would do something if it were ever run: it must be refused, not parsed.
TEXT = "__import__('os').getpid()"
BAD = {"str": TEXT, "None": None, "list": [TEXT], "float": 0.5}


def _chain() -> Derivation:
    return Derivation("d", "d", (Step(sp.sin(X) ** 2 + sp.cos(X) ** 2), Step(1, by=PYTHAGOREAN)))


def _lemma_chain() -> Derivation:
    return Derivation("l", "l", (Step(M * (X + 1)), Step(M * X + M, by=ALGEBRA)))


# name -> (the callable, its valid keyword arguments, the arguments for which None is valid)
API: dict[str, tuple[Callable, dict, set[str]]] = {
    "Step": (Step, {"expr": X, "by": ALGEBRA, "note": "n"}, {"by"}),
    "Derivation": (
        Derivation,
        {"name": "d", "title": "t", "steps": (Step(X), Step(X + 0 * M, by=ALGEBRA)), "display": ()},
        set(),
    ),
    "Lemma": (Lemma, {"derivation": _lemma_chain(), "bindings": {M: 2}}, set()),
    "Termwise": (Termwise, {"inner": ALGEBRA}, set()),
    "Theorem": (
        Theorem,
        {
            "name": "t",
            "title": "t",
            "statement": "s",
            "parts": (_chain(),),
            "twin": "numeric.x.y",
            "formulas": (X,),
            "twin_kwargs": {},
            "remarks": ("r",),
            "brief": False,
        },
        set(),
    ),
    "FreeOf": (FreeOf, {"name": "f", "title": "t", "expr": X, "symbols": (M,)}, set()),
    "NonZero": (NonZero, {"name": "f", "title": "t", "expr": X**2 + 1}, set()),
    "Refutation": (
        Refutation,
        {"name": "f", "title": "t", "claim": sp.Eq(X**2, X), "at": ((X, sp.Integer(2)),)},
        set(),
    ),
    "NonNegative": (
        NonNegative,
        {"name": "f", "title": "t", "expr": X**2, "witness": X * X, "by": ALGEBRA},
        {"by"},
    ),
    "LinearSystem": (
        LinearSystem,
        {
            "name": "f",
            "title": "t",
            "equations": (X - 1,),
            "unknowns": (X,),
            "expect": {X: 1},
        },
        set(),
    ),
    "ShiftMapFact": (
        ShiftMapFact,
        {
            "name": "f",
            "title": "t",
            "expr": sp.ImmutableMatrix([sp.sin(POS), sp.cos(POS)]),
            "pos": POS,
            "k": K,
            "expect": True,
            "affine": False,
        },
        set(),
    ),
    "Blockwise": (
        Blockwise,
        {
            "name": "f",
            "title": "t",
            "statement": BlockEquation(pe_blocks(POS, 4), pe_blocks(POS, 4)),
            "lemma": None,
            "bindings": pair_bindings(4),
        },
        {"lemma", "bindings"},
    ),
    "prove_identity": (prove_identity, {"lhs": X, "rhs": X, "seed": 0, "timeout": 30}, {"timeout"}),
    "find_shift_map": (
        find_shift_map,
        {"components": [sp.sin(POS), sp.cos(POS)], "pos": POS, "k": K, "affine": False},
        set(),
    ),
    "check_link": (check_link, {"a": X, "b": X + 0 * M, "seed": 0, "by": ALGEBRA}, {"by"}),
    "Derivation.verify": (
        lambda seed, timeout: _chain().verify(seed=seed, timeout=timeout),
        {"seed": 0, "timeout": 30},
        {"timeout"},
    ),
}

# Words, where text is what is asked for (remarks: a list of sentences).
WORDS = {"name", "title", "note", "statement", "twin", "remarks"}

CASES = [
    (name, argument, bad)
    for name, (_, valid, may_be_none) in API.items()
    for argument in valid
    for bad in BAD
    if not (bad == "None" and argument in may_be_none)
    and not (bad == "str" and argument in WORDS)
    and not (bad == "list" and argument == "remarks")
    and not (bad == "float" and argument == "timeout")  # seconds: 0.5 is a budget
]


@pytest.mark.parametrize("name", sorted(API))
def test_the_valid_call_is_accepted(name: str) -> None:
    function, valid, _ = API[name]
    function(**valid)


@pytest.mark.parametrize(("name", "argument", "bad"), CASES)
def test_a_bad_argument_is_refused_naming_it(name: str, argument: str, bad: str) -> None:
    function, valid, _ = API[name]
    with pytest.raises((TypeError, ValueError)) as exc:
        function(**{**valid, argument: BAD[bad]})
    message = str(exc.value)
    # "name" and "title" are named through the object's kind ("a Step's note", "theorem t: title").
    assert argument.split("_")[0] in message or argument == "components", message
    assert "\n" not in message


@pytest.mark.parametrize(
    "by",
    ["algebra", 5, (ALGEBRA, None), (), [ALGEBRA]],
    ids=["str", "int", "tuple-with-None", "empty-tuple", "list"],
)
def test_a_citation_that_is_no_rule_is_refused(by) -> None:
    with pytest.raises((TypeError, ValueError), match="by"):
        Step(X, by=by)


@pytest.mark.parametrize("value", [None, [1], TEXT, 0.5], ids=["None", "list", "str", "float"])
def test_a_lemma_binding_that_is_no_expression_is_refused(value) -> None:
    with pytest.raises(TypeError, match="bindings"):
        Lemma(_lemma_chain(), {M: value})
    with pytest.raises(TypeError, match="bindings"):
        Lemma(_lemma_chain(), {"m": 2})


def test_a_lemma_of_text_is_refused() -> None:
    with pytest.raises(TypeError, match="derivation"):
        Lemma("str")


def test_an_int_step_is_an_integer_and_is_checked() -> None:
    # Step(1) was an AttributeError; an int is exact, so it is taken as sp.Integer(1). By hand:
    # sin²x + cos²x = 1.
    assert Step(1).expr == sp.Integer(1) and isinstance(Step(1).expr, sp.Integer)
    assert _chain().verify(timeout=60).proved
