"""A proved part's verdict in a reader's words, one printer per fact type.

The engine's Verdict.reason says how a check went in the engine's terms ("its free symbols do
not include pos", "unique solution {a: 1}"). A reader needs what was shown: "pos does not
appear in it", "the one solution is a = 1". These printers say it from the fact's own data;
a verdict that is not "proved" keeps the engine's reason, which is what the reader must see
then, and --verbose shows the engine's reason under every verdict.
"""

from __future__ import annotations

import functools

import sympy as sp

from proofs.engine.blocks import partition
from proofs.engine.derivation import Verdict
from proofs.engine.facts import (
    Blockwise,
    FreeOf,
    LinearSystem,
    NonNegative,
    NonZero,
    Part,
    Refutation,
    ShiftMapFact,
)

# A constant longer than this (as text) in "the equations force 0 = c·σ" is named, not shown.
SHOWN_CONSTANT = 12


def verdict_words(part: Part, verdict: Verdict) -> str:
    """The verdict as the reader reads it: "proved: pos does not appear in it"."""
    if not verdict.proved:
        return str(verdict)
    said = proved_words(part, verdict)
    return f"proved: {said}" if said else str(verdict)


@functools.singledispatch
def proved_words(part: object, verdict: Verdict) -> str:
    """What proving part showed, in words; "" to keep the engine's reason (a chain's "all 3
    links checked symbolically and numerically" already reads well)."""
    return ""


def _listed(names: list[str], joiner: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {joiner} {names[-1]}"


@proved_words.register
def _free_of(part: FreeOf, verdict: Verdict) -> str:
    names = [s.name for s in part.symbols]
    if len(names) == 1:
        return f"{names[0]} does not appear in it"
    return f"neither {_listed(names, 'nor')} appears in it"


def hypotheses(expr: sp.Basic) -> list[str]:
    """What the symbols of expr are assumed to be, as a reader writes it.

    >>> import sympy as sp
    >>> hypotheses(sp.Symbol("k", nonzero=True) / sp.Symbol("L", positive=True))
    ['L > 0', 'k ≠ 0']
    """
    out = []
    for s in sorted(expr.free_symbols, key=lambda s: s.name):
        facts = s.assumptions0
        name = _name(s)
        if facts.get("integer"):
            kind = next((w for w in ("positive", "nonzero") if facts.get(w)), "")
            out.append(f"{name} a {kind} integer" if kind else f"{name} an integer")
        elif facts.get("positive"):
            out.append(f"{name} > 0")
        elif facts.get("nonzero"):
            out.append(f"{name} ≠ 0")
        elif facts.get("real"):
            out.append(f"{name} real")
    return out


def _name(symbol: sp.Symbol) -> str:
    """The symbol as the math shows it: alpha as α (the ASCII style spells it out again), a
    solver's unknown _a as a."""
    shown = sp.pretty(sp.Symbol(symbol.name.lstrip("_")), use_unicode=True)
    return shown if "\n" not in shown else symbol.name.lstrip("_")


@proved_words.register
def _nonzero(part: NonZero, verdict: Verdict) -> str:
    given = hypotheses(part.expr)
    if not given:
        return f"{sp.sstr(part.expr)} ≠ 0" if part.expr.is_number else "nonzero"
    return f"nonzero, given {_listed(given)}"


@proved_words.register
def _nonnegative(part: NonNegative, verdict: Verdict) -> str:
    given = hypotheses(part.witness)
    rule = verdict.links[0].closed_by if verdict.links else ""
    said = f"the equality checked ({rule})" if rule else "the equality checked"
    return f"{said}, and its right side is ≥ 0" + (f", given {_listed(given)}" if given else "")


@proved_words.register
def _linear_system(part: LinearSystem, verdict: Verdict) -> str:
    names = [_name(u) for u in part.unknowns]
    solved = part.solve()
    if part.expect != "inconsistent":
        values = ", ".join(f"{_name(u)} = {_plain(v)}" for u, v in solved.solution.items())
        return f"the one solution is {values}"
    if len(names) == 1:
        unknowns = f"value of {names[0]} satisfies"
    else:
        shown = _listed(names) if len(names) <= 3 else f"{names[0]}, …, {names[-1]}"
        unknowns = f"values of {shown} satisfy"
    count = len(part.equations)
    equations = {1: "the equation", 2: "both equations"}.get(count, f"all {count} equations")
    said = f"no {unknowns} {equations}"
    if solved.certificate is None:
        return said
    return f"{said}: together they force {_contradiction(solved.certificate[1])}"


def _plain(expr: sp.Basic) -> str:
    """expr on one line, as SymPy's Unicode printer writes it when it fits one ("k/L", "σ")."""
    pretty = sp.pretty(expr, use_unicode=True)
    return pretty if "\n" not in pretty else sp.sstr(expr)


def _contradiction(value: sp.Expr) -> str:
    """'0 = k/L, which is false', or with a long constant named: '0 = c·σ with a constant c ≠ 0'."""
    constant, rest = value.as_independent(*value.free_symbols, as_Add=False)
    if rest == 1 or len(sp.sstr(constant)) <= SHOWN_CONSTANT:
        return f"0 = {_plain(value)}, which is false"
    return f"0 = c·{_plain(rest)} with a constant c ≠ 0, which is false"


@proved_words.register
def _blockwise(part: Blockwise, verdict: Verdict) -> str:
    count = partition(part.statement.lhs)[2]
    count = count if isinstance(count, int) else len(count)
    blocks = "the one block" if count == 1 else f"each of the {count} blocks"
    if part.lemma is None:
        return f"the two sides agree on {blocks}"
    return f"on {blocks}, both sides are lemma {part.lemma.name} at that block"


@proved_words.register
def _shift_map(part: ShiftMapFact, verdict: Verdict) -> str:
    kind = "affine map" if part.affine else "linear map"
    if not part.expect:
        return f"no {kind} exists"
    found = "M(k) and b(k) found" if part.affine else "M(k) found"
    return f"{found}, and the chain above checked link by link"


@proved_words.register
def _refutation(part: Refutation, verdict: Verdict) -> str:
    found = part.witness()
    at = ", ".join(f"{_name(s)} = {v}" for s, v in part.at)
    where = f"false at {at}, where" if at else "false:"
    return f"refuted as claimed, {where} lhs − rhs lies in {found.enclosure.text()} (certified)"
