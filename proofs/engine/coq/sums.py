"""Σ over the pairs, i = 0 .. d_model/2 − 1 with d_model symbolic, as Coq's sum_f_R0.

d_model is written 2(n + 1) for a natural number n (every even d_model ≥ 2), so the range is
i = 0 .. n; inside the sum, i is a natural number (INR i where a real is needed) and the
frequency base**(−2i/d_model) an abstract function w : nat -> R. The lemma then holds for every
n and every w, the paper's frequencies included. A link Σ a_i = Σ b_i is proved term by term
(sum_eq); Σ c = c·(n + 1) by sum_cte.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from proofs.engine.coq.printer import NotExpressibleError, coq_name
from proofs.engine.coq.script import NoProofError, entry_proof

INR = sp.Function("INR")
FREQUENCY = sp.Function("w")


@dataclass(frozen=True)
class NatSums:
    """Entries rewritten over natural numbers, the binders they need, and what was substituted."""

    entries: tuple[tuple[sp.Basic, sp.Basic], ...]
    binders: tuple[tuple[sp.Symbol | None, str, str], ...]  # (symbol, Coq name, Coq type)
    substitutions: tuple[str, ...]


def over_nat(entries: tuple[tuple[sp.Basic, sp.Basic], ...]) -> NatSums:
    """entries, whose Σs all run over i = 0 .. d/2 − 1 for one symbol d, stated over nat."""
    sums = {s for pair in entries for e in pair for s in e.atoms(sp.Sum)}
    ranges = {s.limits for s in sums}
    if len(ranges) != 1 or len(next(iter(ranges))) != 1:
        raise NotExpressibleError("Σs over different or several ranges in one link")
    ((index, lower, upper),) = next(iter(ranges))
    d = sp.expand(2 * (upper + 1))
    if lower != 0 or not (d.is_Symbol and d.is_integer and d.is_positive and d.is_even):
        raise NotExpressibleError(
            f"the Σ over {index} = {lower} .. {upper} is not i = 0 .. d/2 − 1 for an even d > 0"
        )
    taken = {s.name for pair in entries for e in pair for s in e.free_symbols}
    n = sp.Symbol("n" if "n" not in taken else "n_pairs")
    frequencies = {
        p
        for s in sums
        for p in s.function.atoms(sp.Pow)
        if p.base.is_number and p.base.is_positive and p.exp.has(index)
    }
    omegas = {p if p.exp.could_extract_minus_sign() else 1 / p for p in frequencies}
    if len(omegas) > 1:
        raise NotExpressibleError(f"more than one frequency in one Σ: {sorted(map(str, omegas))}")
    placeholder = sp.Dummy("j")
    mapping = {}
    for omega in omegas:
        mapping = {omega: FREQUENCY(placeholder), 1 / omega: 1 / FREQUENCY(placeholder)}

    def over(s: sp.Sum) -> sp.Sum:
        body = s.function.xreplace(mapping).xreplace({index: INR(index)})
        return sp.Sum(body.xreplace({placeholder: index}), s.limits[0])

    rewritten = tuple(
        tuple(
            e.xreplace({s: over(s) for s in e.atoms(sp.Sum)}).xreplace({d: 2 * (INR(n) + 1)})
            for e in pair
        )
        for pair in entries
    )
    words = [
        f"{coq_name(d)} = 2({n} + 1) for a natural number {n}: every even {coq_name(d)} ≥ 2; "
        f"{index} runs over the naturals 0 .. {n}"
    ]
    binders: list[tuple[sp.Symbol | None, str, str]] = [(n, coq_name(n), "nat")]
    for omega in omegas:
        words.append(
            f"w {index} stands for {sp.sstr(omega)}: the lemma holds for every w : nat -> R, "
            "so for that one too"
        )
        binders.append((None, "w", "nat -> R"))
    if any(e.has(d) for pair in rewritten for e in pair):
        raise NotExpressibleError(f"{d} remains after writing it as 2(n + 1)")
    return NatSums(rewritten, tuple(binders), tuple(words))


def sum_proof(lhs: sp.Expr, rhs: sp.Expr) -> list[str]:
    """Coq sentences proving a Σ link: term by term (sum_eq), or a constant Σ (sum_cte)."""
    if isinstance(lhs, sp.Sum) and isinstance(rhs, sp.Sum) and lhs.limits == rhs.limits:
        ((index, _, _),) = lhs.limits
        name = coq_name(index)
        return [
            "apply sum_eq.",
            f"intros {name} H_{name}.",
            "cbv beta.",
            *entry_proof(lhs.function, rhs.function),
        ]
    if isinstance(lhs, sp.Sum) and not rhs.has(sp.Sum):
        ((index, _, upper),) = lhs.limits
        if not lhs.function.has(index):
            return ["rewrite sum_cte, S_INR.", *entry_proof(lhs.function * (upper + 1), rhs)]
    raise NoProofError("a Σ link other than Σ a_i = Σ b_i or Σ c = c·(n + 1)")
