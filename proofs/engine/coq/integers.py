"""Coq scripts for floor, ceiling, min and max of numbers (the rule "integer parts").

Each floor, ceiling, min or max, innermost first, is replaced by the value the rule gives it,
proved in Coq from Helpers' Rfloor_at and Rceil_at (floor x = n when n ≤ x < n + 1, ceiling
x = n when n − 1 < x ≤ n) or the standard library's Rmin_left, Rmax_right, ...; the bounds
are closed by lra (rational numbers, integer symbols) or by the Interval library's `interval`
(logarithms, π, real powers: a certified enclosure, as the rule's own ball was).
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.coq.printer import Printer, coq_name
from proofs.engine.rules import INTEGER_PARTS

# lra for what is linear in rationals and integer symbols; interval, at growing precision, for
# the rest.
BOUND = "first [lra | interval | interval with (i_prec 120)]"


class NoIntegerProofError(ValueError):
    """A floor, ceiling, min or max the rule leaves undecided, or a value Coq cannot write."""


def _parts(e: sp.Basic) -> bool:
    return isinstance(e, sp.floor | sp.ceiling | sp.Min | sp.Max)


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


def integer_parts_proof(printer: Printer, lhs: sp.Expr, rhs: sp.Expr):
    """(sentences, lhs, rhs) with every floor, ceiling, min and max replaced by its value."""
    lines: list[str] = []
    inside = any(
        isinstance(f, sp.sin | sp.cos) and f.has(sp.floor, sp.ceiling, sp.Min, sp.Max)
        for side in (lhs, rhs)
        for f in sp.preorder_traversal(side)
    )
    for _ in range(200):
        atom = _innermost((lhs, rhs))
        if atom is None:
            # Sines and cosines whose arguments now agree by algebra get one text.
            return [*lines, "same_args."] if inside else lines, lhs, rhs
        new = INTEGER_PARTS(atom)
        if new == atom or (isinstance(new, sp.Basic) and new.has(sp.floor, sp.ceiling)):
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
            lemma = f"{'Rmax' if isinstance(atom, sp.Max) else 'Rmin'}_{side}"
            proof = f"symmetry; apply {lemma}; {BOUND}"
        lines.append(f"replace ({text}) with ({value}) by ({proof}).")
        lhs, rhs = lhs.xreplace({atom: new}), rhs.xreplace({atom: new})
    raise NoIntegerProofError("too many floors, ceilings, minima and maxima")
