"""A generated Coq lemma: its binders, the hypotheses it uses, its conclusion and its proof.

Symbols are bound as reals, except a Σ's bound (a natural number n with d_model = 2(n + 1)) and
symbols whose integrality a statement needs (a multiple of π, an exponent of −1, a nonzero
integer), bound as Coq integers and written IZR n. A symbol's SymPy assumptions become a
hypothesis only where the lemma uses them: a divisor needs x <> 0, a nonzero fact its
hypotheses' signs. Dropping an unused assumption makes the lemma stronger, never weaker.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import sympy as sp

from proofs.engine.coq.printer import (
    APPLICATION,
    Context,
    NotExpressibleError,
    Printer,
    coq_name,
    is_atom,
)


@dataclass(frozen=True)
class Binder:
    """A bound variable: its symbol (None for one that stands for no symbol), name and type."""

    symbol: sp.Symbol | None
    name: str
    type: str


@dataclass(frozen=True)
class Hypothesis:
    """A named hypothesis about one symbol."""

    name: str
    text: str
    symbol: sp.Symbol | None


@dataclass(frozen=True)
class CoqLemma:
    """`Lemma name : forall binders, hypotheses -> conclusion. Proof. proof Qed.`"""

    name: str
    binders: tuple[Binder, ...]
    hypotheses: tuple[Hypothesis, ...]
    conclusion: str
    proof: tuple[str, ...]
    comment: str = ""
    keyword: str = "Lemma"

    @property
    def statement(self) -> str:
        """forall binders, hypotheses -> conclusion."""
        head = ""
        if self.binders:
            groups: list[tuple[str, list[str]]] = []
            for b in self.binders:
                if groups and groups[-1][0] == b.type:
                    groups[-1][1].append(b.name)
                else:
                    groups.append((b.type, [b.name]))
            head = "forall " + " ".join(f"({' '.join(n)} : {t})" for t, n in groups) + ",\n    "
        hyps = "".join(f"{h.text} -> " for h in self.hypotheses)
        return f"{head}{hyps}{self.conclusion}"

    def text(self) -> str:
        names = [b.name for b in self.binders] + [h.name for h in self.hypotheses]
        lines = [comment(self.comment)] if self.comment else []
        lines += [f"{self.keyword} {self.name} :\n  {self.statement}.", "Proof."]
        if names:
            lines.append(f"  intros {' '.join(names)}.")
        lines += [f"  {line}" for line in self.proof]
        lines.append("Qed.")
        return "\n".join(lines)

    def application(self, values: dict[sp.Symbol, str], hypotheses: str = "_") -> str:
        """The lemma applied: each binder's value (its own name when values has none), and
        `hypotheses` (a hole by default) for each hypothesis."""
        args = [
            values.get(b.symbol, b.name) if b.symbol is not None else b.name for b in self.binders
        ]
        args += [hypotheses if hypotheses != "own" else h.name for h in self.hypotheses]
        return f"({self.name} {' '.join(args)})" if args else self.name


def comment(text: str) -> str:
    """text as a Coq comment (Coq lexes strings and nested comments inside comments)."""
    safe = text.replace("(*", "( *").replace("*)", "* )").replace('"', "'")
    return f"(* {safe} *)"


def pair_sums(exprs: Iterable[sp.Basic]) -> tuple[Context, tuple[Binder, ...], frozenset]:
    """The context of expressions whose Σs run over the pairs i = 0 .. d/2 − 1 of a symbolic
    even d: d is written INR (2 * S n) for a natural number n, the bound d/2 − 1 is n."""
    exprs = list(exprs)
    sums = {s for e in exprs for s in e.atoms(sp.Sum)}
    if not sums:
        return Context(), (), frozenset()
    uppers = {lim[2] for s in sums for lim in s.limits}
    sizes = {sp.expand(2 * (u + 1)) for u in uppers}
    if len(sizes) != 1:
        raise NotExpressibleError(
            "Σs over different ranges in one statement (statements write a Σ only over the "
            "pairs 0 .. d/2 − 1 of one symbolic d)"
        )
    (d,) = sizes
    if not (d.is_Symbol and d.is_integer and d.is_positive and d.is_even):
        raise NotExpressibleError(
            f"the Σ's range ends at {next(iter(uppers))}, not at d/2 − 1 for an even d > 0"
        )
    taken = {s.name for e in exprs for s in e.free_symbols}
    n = "n" if "n" not in taken else "n_pairs"
    context = Context(
        names={d: (f"INR (2 * S {n})", APPLICATION)},
        naturals={u: n for u in uppers},
    )
    return context, (Binder(None, n, "nat"),), frozenset({d})


def integer_symbols(exprs: Iterable[sp.Basic], *, all_integers: bool = False) -> frozenset:
    """The integer symbols a statement needs as integers: those multiplying π, raising −1 or
    inside a floor or ceiling (or every integer symbol, for a fact about integers)."""
    out = set()
    for e in exprs:
        for s in e.free_symbols:
            if not (isinstance(s, sp.Symbol) and s.is_integer):
                continue
            if all_integers:
                out.add(s)
                continue
            for node in sp.preorder_traversal(e):
                if (
                    (isinstance(node, sp.Pow) and node.base == -1 and node.exp == s)
                    or (isinstance(node, sp.Mul) and sp.pi in node.args and s in node.args)
                    or (isinstance(node, sp.floor | sp.ceiling) and node.has(s))
                ):
                    out.add(s)
    return frozenset(out)


def divisors(expr: sp.Basic, *, exponents: bool = False) -> set[sp.Basic]:
    """The factors expr divides by outside its atoms (the paper's frequencies excepted), and
    inside the exponents of powers too if exponents (a proof that unfolds omega divides there)."""
    out: set[sp.Basic] = set()

    def walk(e: sp.Basic) -> None:
        if isinstance(e, sp.Pow) and e.exp.is_Integer and e.exp.is_negative:
            out.update(sp.Mul.make_args(e.base))
        if is_atom(e) and isinstance(e, sp.Pow) and not exponents:
            return
        for a in e.args:
            walk(a)

    walk(expr)
    return out


def sign_hypothesis(symbol: sp.Symbol, name: str) -> str | None:
    """The hypothesis carrying symbol's sign assumption, or None for none."""
    if symbol.is_positive:
        return f"0 < {name}"
    if symbol.is_negative:
        return f"{name} < 0"
    if symbol.is_nonzero:
        return f"{name} <> 0"
    if symbol.is_nonnegative:
        return f"0 <= {name}"
    if symbol.is_nonpositive:
        return f"{name} <= 0"
    return None


def binders(
    exprs: Sequence[sp.Basic],
    context: Context,
    nat_binders: tuple[Binder, ...] = (),
    *,
    skip: frozenset = frozenset(),
    signs: bool = False,
    exponents: bool = False,
    bases: bool = False,
) -> tuple[tuple[Binder, ...], tuple[Hypothesis, ...]]:
    """The binders and used hypotheses of a statement about exprs.

    skip: symbols the context writes otherwise (d_model as INR (2 * S n)). signs: state every
    symbol's sign assumption (a fact whose proof reasons with signs), not only divisors' <> 0.
    exponents: divisors inside exponents count (the exponent laws unfold omega). bases: the
    positive symbols in the bases of real powers get 0 < x (the power laws split (x·y)^a).
    A divisor that is no symbol (β − α, d − 2) is nonzero where the statement is defined: it
    gets that hypothesis, or, where SymPy's assumptions make it nonzero, its symbols' signs.
    """
    symbols = sorted(
        {s for e in exprs for s in e.free_symbols if isinstance(s, sp.Symbol)} - set(skip),
        key=lambda s: s.name,
    )
    for e in exprs:
        for node in sp.preorder_traversal(e):
            if isinstance(node, sp.Sum):
                symbols = [s for s in symbols if s not in {lim[0] for lim in node.limits}]
    names = [coq_name(s) for s in symbols]
    if len(set(names)) != len(names):
        raise NotExpressibleError(f"two symbols share a Coq name among {', '.join(names)}")
    integers = [s for s in symbols if s in context.integers]
    reals = [s for s in symbols if s not in context.integers]
    bound = (
        *nat_binders,
        *(Binder(s, coq_name(s), "Z") for s in integers),
        *(Binder(s, coq_name(s), "R") for s in reals),
    )
    divided = set().union(*(divisors(e, exponents=exponents) for e in exprs))
    compound = sorted(
        (f for f in divided if not (f.is_Symbol or f.is_number or is_atom(f))),
        key=sp.default_sort_key,
    )
    signed = {s for f in compound if f.is_nonzero for s in f.free_symbols}
    positive = set()
    if bases:
        for e in exprs:
            for p in e.atoms(sp.Pow):
                if not p.exp.is_Integer:
                    positive |= {s for s in p.base.free_symbols if s.is_positive}
    hypotheses = []
    for s in symbols:
        name = coq_name(s)
        if s in context.integers:
            if signs and s.is_nonzero:
                hypotheses.append(Hypothesis(f"H_{name}", f"{name} <> 0%Z", s))
            continue
        text = None
        if signs or s in signed:
            text = sign_hypothesis(s, name)
        elif s in positive:
            text = f"0 < {name}"
        elif s in divided and (s.is_nonzero or s.is_positive or s.is_negative):
            text = f"{name} <> 0"
        if text:
            hypotheses.append(Hypothesis(f"H_{name}", text, s))
    printer = Printer(context)
    for factor in compound:
        if not factor.is_nonzero:
            text = printer.term(factor)
            hypotheses.append(Hypothesis(nonzero_name(text), f"{text} <> 0", None))
    return bound, tuple(hypotheses)


_OPERATORS = {"-": "m", "+": "p", "*": "t", "/": "d", "^": "e"}


def nonzero_name(text: str) -> str:
    """The name of the hypothesis text <> 0, spelled from text (so that one text has one name
    in every lemma of a chain): beta - alpha -> H_beta_m_alpha."""
    words = re.findall(r"[A-Za-z0-9']+|[-+*/^]", text)
    return "H_" + "_".join(_OPERATORS.get(w, w.replace("'", "")) for w in words)
