"""The checks a theorem author's objects make of their arguments when they are built.

Steps, derivations, lemmas, facts and theorems take SymPy objects, and of Python's numbers only
int (exact, taken as a SymPy Integer); a Python float is refused (it is not the number written:
write sp.Rational or sp.Float), and so is text, which is never parsed here (parsing user text is
proofs.engine.parse's job, never sympify's, which calls eval). Anything else is a TypeError
naming the argument, raised at construction, before any check runs.
"""

from __future__ import annotations

from collections.abc import Mapping

import sympy as sp


def _kind(value: object) -> str:
    kind = type(value).__name__
    if isinstance(value, str):
        return f"{kind}; parse text with proofs.engine.parse.parse_expression first"
    return kind


def expression(value: object, what: str) -> sp.Basic:
    """value as a SymPy expression or matrix (an int becomes an Integer); TypeError otherwise.

    >>> expression(3, "expr")
    3
    >>> expression("x + 1", "expr")
    Traceback (most recent call last):
    ...
    TypeError: expr must be a SymPy expression or matrix (or an int), got str; parse text with proofs.engine.parse.parse_expression first
    """
    if isinstance(value, sp.Expr | sp.MatrixBase | sp.MatrixExpr):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return sp.Integer(value)
    raise TypeError(f"{what} must be a SymPy expression or matrix (or an int), got {_kind(value)}")


def formula(value: object, what: str) -> sp.Basic:
    """value, any SymPy object (an equation sp.Eq, an inequality, an expression); TypeError
    otherwise."""
    if not isinstance(value, sp.Basic):
        raise TypeError(
            f"{what} must be a SymPy object (an equation or expression), got {_kind(value)}"
        )
    return value


def symbol(value: object, what: str) -> sp.Symbol:
    """value, a SymPy Symbol; TypeError otherwise."""
    if not isinstance(value, sp.Symbol):
        raise TypeError(f"{what} must be a SymPy Symbol, got {_kind(value)}")
    return value


def text(value: object, what: str) -> str:
    """value, a str; TypeError otherwise (names and titles are words, not expressions)."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, got {type(value).__name__}")
    return value


def flag(value: object, what: str) -> bool:
    """value, a bool; TypeError otherwise."""
    if not isinstance(value, bool):
        raise TypeError(f"{what} must be True or False, got {type(value).__name__}")
    return value


def seed(value: object) -> int:
    """value, an int seed of the random points; TypeError otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"seed must be an int, got {type(value).__name__}")
    return value


def items(value: object, what: str) -> tuple:
    """value, a tuple or list, as a tuple; TypeError otherwise (its entries are checked by the
    caller)."""
    if not isinstance(value, tuple | list):
        raise TypeError(f"{what} must be a tuple, got {type(value).__name__}")
    return tuple(value)


def bindings(value: object, what: str) -> dict[sp.Symbol, sp.Basic]:
    """value, a mapping from Symbols to SymPy expressions, as a dict; TypeError otherwise.

    >>> x = sp.Symbol("x")
    >>> bindings({x: 2}, "bindings")
    {x: 2}
    """
    if not isinstance(value, Mapping):
        raise TypeError(
            f"{what} must be a mapping from Symbols to SymPy expressions, "
            f"got {type(value).__name__}"
        )
    return {
        symbol(key, f"a key of {what}"): expression(v, f"{what}[{key}]") for key, v in value.items()
    }
