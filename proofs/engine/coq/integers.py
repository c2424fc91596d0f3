"""Coq scripts for floor, ceiling, min and max of numbers (the rule "integer parts").

Each floor, ceiling, min or max, innermost first, is replaced by the value the rule gives it,
proved in Coq from Helpers' Rfloor_at and Rceil_at (floor x = n when n ≤ x < n + 1, ceiling
x = n when n − 1 < x ≤ n) or the standard library's Rmin_left, Rmax_right, ...; the bounds
are closed by lra (rational numbers, integer symbols) or by the Interval library's `interval`
(logarithms, π, real powers: a certified enclosure, as the rule's own ball was).
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.coq.printer import Printer, coq_name, lattice_arguments
from proofs.engine.rules import Rule
from proofs.engine.rules.rule import rebuild

# lra for what is linear in rationals and integer symbols; interval, at growing precision, for
# the rest.
BOUND = "first [lra | interval with (i_prec 60) | interval with (i_prec 120)]"


class NoIntegerProofError(ValueError):
    """A floor, ceiling, min or max the rule leaves undecided, or a value Coq cannot write."""


# Min and max as Coq has them printed: their arguments in the printed order, kept there while
# the arguments are replaced (SymPy would reorder Min(127, 46)).
RMIN, RMAX = sp.Function("Rmin"), sp.Function("Rmax")


def _parts(e: sp.Basic) -> bool:
    return isinstance(e, sp.floor | sp.ceiling) or getattr(e, "func", None) in (RMIN, RMAX)


def _frozen(expr: sp.Basic) -> sp.Basic:
    """expr with every Min and Max written as Rmin and Rmax with the printed argument order."""
    if not expr.args:
        return expr
    args = tuple(_frozen(a) for a in expr.args)
    if isinstance(expr, sp.Min | sp.Max):
        order = lattice_arguments(expr)
        lattice = RMIN if isinstance(expr, sp.Min) else RMAX
        return lattice(*(args[expr.args.index(a)] for a in order))
    return rebuild(expr, args)


def _innermost(exprs) -> sp.Basic | None:
    for e in exprs:
        for node in sp.postorder_traversal(e):
            if _parts(node) and not any(
                _parts(a) for a in sp.preorder_traversal(node) if a != node
            ):
                return node
    return None


def _z(printer: Printer, value: sp.Expr) -> str:
    """An integer-valued expression in the integer symbols as a Coq Z term."""
    if value.is_Integer:
        return f"({value})%Z"
    for s in value.free_symbols:
        if s not in printer.context.integers:
            raise NoIntegerProofError(f"{value}: {s} is not bound as an integer")
    text = sp.sstr(sp.expand(value)).replace("**", "^")
    for s in value.free_symbols:
        text = text.replace(s.name, coq_name(s))
    return f"({text})%Z"


def _replaced(expr: sp.Basic, atom: sp.Basic, new: sp.Basic) -> sp.Basic:
    """expr with atom replaced by new and nothing evaluated: Max(0, 20) must stay as Coq has it
    (Rmax 0 20) until its own replacement."""
    if expr == atom:
        return new
    if not expr.args:
        return expr
    return rebuild(expr, tuple(_replaced(a, atom, new) for a in expr.args))


def integer_parts_proof(printer: Printer, lhs: sp.Expr, rhs: sp.Expr, rule: Rule):
    """(sentences, lhs, rhs) with every floor, ceiling, min and max replaced by its value."""
    lines: list[str] = []
    inside = any(
        isinstance(f, sp.sin | sp.cos) and f.has(sp.floor, sp.ceiling, sp.Min, sp.Max)
        for side in (lhs, rhs)
        for f in sp.preorder_traversal(side)
    )
    lhs, rhs = _frozen(lhs), _frozen(rhs)
    for _ in range(200):
        atom = _innermost((lhs, rhs))
        if atom is None:
            # Sines and cosines whose arguments now agree by algebra get one text.
            return [*lines, "same_args."] if inside else lines, lhs, rhs
        if isinstance(atom, sp.floor | sp.ceiling):
            new = rule(atom)
        else:
            lattice = sp.Min if atom.func == RMIN else sp.Max
            new = rule(lattice(*atom.args, evaluate=False))
        if isinstance(new, sp.Basic) and new.has(sp.floor, sp.ceiling, sp.Min, sp.Max):
            raise NoIntegerProofError(f"the rule leaves {atom} undecided")
        text, value = printer.term(atom), printer.term(new)
        if isinstance(atom, sp.floor | sp.ceiling):
            lemma = "Rfloor_at" if isinstance(atom, sp.floor) else "Rceil_at"
            proof = (
                f"symmetry; apply ({lemma} _ _ {_z(printer, new)}); "
                f"[rewrite ?plus_IZR, ?opp_IZR, ?mult_IZR, ?minus_IZR; ring | split; {BOUND}]"
            )
        else:
            first = new == atom.args[0]
            if not first and new != atom.args[1]:
                raise NoIntegerProofError(f"the rule gives {atom} a value that is neither argument")
            side = "left" if first else "right"
            lemma = f"{'Rmax' if atom.func == RMAX else 'Rmin'}_{side}"
            proof = f"symmetry; apply {lemma}; {BOUND}"
        lines.append(f"replace ({text}) with ({value}) by ({proof}).")
        lhs, rhs = _replaced(lhs, atom, new), _replaced(rhs, atom, new)
    raise NoIntegerProofError("too many floors, ceilings, minima and maxima")
