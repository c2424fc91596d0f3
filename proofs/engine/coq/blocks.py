"""Blockwise facts in Coq: a whole-vector statement at a concrete d_model, over Headline's pe
and shift, proved pair by pair from the lemma the fact instantiates.

A block-structured side becomes a Coq term: PE(pos) is `pe d pos`, the shift map M_k is the
operator `shift d k`, other blocks on components (2i, 2i + 1) are Helpers' `bvec` (vectors) and
`bmat` (block-diagonal matrices, as operators on vectors), on components (i, d/2 + i) (the
concatenated layout) `pe_concat`, `bvec_concat` and `bmat_concat`; P·x and P·M·Pᵀ for the
layouts' permutation are `permute` and `conjugate` (Headline's shift_concat for M = M_k). An
inner product is a sum over the components. Matrices are equal when they act alike on every
vector, so a matrix statement reads `forall v j, j < d -> M v j = N v j`.

The proof: component 2i or 2i + 1 (or, summed, pair i) of both sides is written with pair i's
entries (Headline's pe_even, shift_even, ...), and is the lemma's instance at pair i, entry by
entry. The concatenated layout's statements are checked component by component instead, for
d_model up to MAX_ENUMERATED.

One file because a whole-vector fact is proved in one shape: the statement over pe and shift,
the pair-by-pair split, and the lemma's instance at pair i must agree on the same block layout;
the three halves (scalar, vector, matrix facts) share every helper below.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp

from proofs.engine.blocks import (
    BlockMatrix,
    BlockSum,
    BlockVector,
    Family,
    Inner,
    Permuted,
    Product,
    template,
)
from proofs.engine.blockwise import Blockwise
from proofs.engine.citation import substitute
from proofs.engine.coq.links import Chain, chain_term
from proofs.engine.coq.printer import (
    APPLICATION,
    Context,
    Printer,
    coq_name,
    is_complex,
    omega_arguments,
    rotation_angle,
)
from proofs.engine.coq.script import NoProofError
from proofs.engine.coq.statement import Binder, CoqLemma
from proofs.engine.rules import PARITY
from proofs.engine.rules.matrices import explicit
from proofs.engine.rules.normal_form import equal_by_algebra

# The concatenated layout's statements are proved component by component up to this size.
MAX_ENUMERATED = 64


@dataclass(frozen=True)
class Side:
    """A side in Coq: kind "vector" (text: a nat -> R term), "matrix" (apply: vector text ->
    vector text; text: the operator alone) or "scalar"; layout: "consecutive" (pair i on
    2i, 2i + 1), "concatenated" (on i, d/2 + i, written block by block), "pairs" (a sum over the
    pairs, either layout) or "computed" (Headline's concatenated definitions, a permutation, or
    a mix: computed component by component)."""

    kind: str
    text: str
    layout: str
    apply: Callable[[str], str] | None = None


def _paren(text: str) -> str:
    return text if " " not in text or (text[0] == "(" and text[-1] == ")") else f"({text})"


def _applied(vector: str, index: str) -> str:
    """vector at index: application is left-associative, so only a fun needs brackets."""
    return f"({vector}) {index}" if vector.startswith("fun") else f"{vector} {index}"


class Translator:
    """Translates the sides of one Blockwise fact (one family: index, count, fixed values)."""

    def __init__(self, family: Family, size: int, component: str = "j") -> None:
        self.family = family
        self.component = component
        self.size = size
        self.index = family.index
        names: dict[sp.Basic, tuple[str, int]] = {
            self.index: (f"INR {coq_name(self.index)}", APPLICATION)
        }
        values = {}
        for symbol, value in family.fixed:
            if symbol.is_integer and value.is_Integer:
                names[symbol] = (f"INR {value}", APPLICATION)
                values[symbol] = value
        self.context = Context(names=names, nat_sizes=True, values=values)
        self.printer = Printer(self.context)
        self.d = size
        self.half = size // 2

    def _template(self, items) -> sp.Basic:
        if not isinstance(items, Family) or (items.index, items.count, items.fixed) != (
            self.family.index,
            self.family.count,
            self.family.fixed,
        ):
            raise NoProofError("blocks that are not one family in one index are not stated")
        return items.template

    def _frequency_of(self, expr: sp.Expr) -> sp.Expr | None:
        """X when expr is X·omega(i, d_model) for the pair index i, else None."""
        for power in expr.atoms(sp.Pow):
            arguments = omega_arguments(power)
            if arguments is not None and arguments[0] == self.index:
                rest = sp.cancel(expr / power)
                if not rest.has(self.index):
                    return rest
        return None

    def _kind(self, supports) -> str:
        if supports == tuple((2 * i, 2 * i + 1) for i in range(self.half)):
            return "consecutive"
        if supports == tuple((i, self.half + i) for i in range(self.half)):
            return "concatenated"
        raise NoProofError("blocks on other components than (2i, 2i + 1) or (i, d/2 + i)")

    def side(self, side) -> Side:
        if isinstance(side, BlockVector):
            return self._vector(side)
        if isinstance(side, BlockMatrix):
            return self._matrix(side)
        if isinstance(side, Permuted):
            return self._permuted(side)
        if isinstance(side, Product):
            parts = [self.side(f) for f in side.factors]
            if any(p.kind != "matrix" for p in parts[:-1]):
                raise NoProofError("a product whose factors are not matrices then a vector")
            layout = combined(*(p.layout for p in parts))
            if parts[-1].kind == "vector":
                text = parts[-1].text
                for p in reversed(parts[:-1]):
                    text = p.apply(text)
                return Side("vector", text, layout)

            def composed(v: str, parts=parts) -> str:
                for p in reversed(parts):
                    v = p.apply(v)
                return v

            return Side("matrix", f"(fun v => {composed('v')})", layout, composed)
        if isinstance(side, Inner):
            left, right = self.side(side.left), self.side(side.right)
            text = (
                f"sum_f_R0 (fun {self.component} => {_applied(left.text, self.component)} * "
                f"{_applied(right.text, self.component)}) "
                f"{self.d - 1}"
            )
            return Side("scalar", text, combined(left.layout, right.layout))
        if isinstance(side, BlockSum):
            t = self._template(side.terms)
            term = (
                self.printer.term(t[0, 0])
                if isinstance(t, sp.MatrixBase)
                else f"{self.printer.at(t)} 0%nat 0%nat"
            )
            text = f"sum_f_R0 (fun {coq_name(self.index)} => {term}) "
            return Side("scalar", text + str(self.half - 1), "pairs")
        raise NoProofError(f"{type(side).__name__} has no Coq counterpart")

    def _vector(self, side: BlockVector) -> Side:
        t = self._template(side.pieces)
        if not isinstance(t, sp.MatrixBase | sp.MatMul):
            raise NoProofError(
                f"a block piece written as {type(t).__name__} has no Coq counterpart"
            )
        kind = self._kind(side.supports)
        i = coq_name(self.index)
        frequency = None
        pair = (
            isinstance(t, sp.MatrixBase)
            and t.shape == (2, 1)
            and isinstance(t[0], sp.sin)
            and isinstance(t[1], sp.cos)
        )
        if pair and t[0].args[0] == t[1].args[0]:
            frequency = self._frequency_of(t[0].args[0])
        if frequency is not None:
            pos = self.printer.at(frequency)
            if kind == "consecutive":
                return Side("vector", f"pe {self.d} {pos}", kind)
            return Side("vector", f"pe_concat {self.half - 1} {pos}", "computed")
        body = f"(fun {i} => {self.printer.term(t)})"
        if kind == "consecutive":
            return Side("vector", f"bvec {body}", kind)
        return Side("vector", f"bvec_concat {self.half} {body}", kind)

    def _matrix(self, side: BlockMatrix) -> Side:
        t = self._template(side.blocks)
        kind = self._kind(side.supports)
        i = coq_name(self.index)
        angle = rotation_angle(t) if t.shape == (2, 2) else None
        offset = self._frequency_of(angle) if angle is not None else None
        if offset is not None and kind == "consecutive":
            op = f"shift {self.d} {self.printer.at(offset)}"
            return Side("matrix", op, kind, lambda v: f"{op} {_paren(v)}")
        body = f"(fun {i} => {self.printer.term(t)})"
        op = f"bmat {body}" if kind == "consecutive" else f"bmat_concat {self.half} {body}"
        return Side("matrix", op, kind, lambda v: f"{op} {_paren(v)}")

    def _permuted(self, side: Permuted) -> Side:
        h = self.half
        wanted = tuple(j // 2 if j % 2 == 0 else h + j // 2 for j in range(self.d))
        if side.permutation.targets != wanted:
            raise NoProofError("a permutation other than the concatenated layout's")
        inner = self.side(side.inner)
        if inner.kind == "vector":
            return Side("vector", f"permute {h} {_paren(inner.text)}", "computed")
        if inner.text.startswith(f"shift {self.d} "):
            op = f"shift_concat {h - 1} {inner.text.removeprefix(f'shift {self.d} ')}"
        else:
            op = f"conjugate {h} {_paren(inner.text)}"
        return Side("matrix", op, "computed", lambda v: f"{op} {_paren(v)}")


def combined(*layouts: str) -> str:
    """The layout of an expression made of parts in these layouts ("pairs" fits either)."""
    found = set(layouts) - {"pairs"}
    if not found:
        return "pairs"
    return found.pop() if len(found) == 1 else "computed"


def _symbols(side) -> set:
    """The free symbols of a block-structured side."""
    if isinstance(side, BlockVector | BlockMatrix | BlockSum):
        return set(side.free_symbols)
    if isinstance(side, Permuted):
        return _symbols(side.inner)
    if isinstance(side, Product):
        return set().union(*(_symbols(f) for f in side.factors))
    if isinstance(side, Inner):
        return _symbols(side.left) | _symbols(side.right)
    return set()


def _binders(fact: Blockwise, translator: Translator) -> tuple[Binder, ...]:
    return _binders_of(_symbols(fact.statement.lhs) | _symbols(fact.statement.rhs), translator)


def _binders_of(symbols: set, translator: Translator) -> tuple[Binder, ...]:
    fixed = {s for s, _ in translator.family.fixed} | {translator.index}
    vectors = sorted({s.base.label for s in symbols if isinstance(s, sp.Indexed)}, key=str)
    reals = sorted(
        {s for s in symbols if isinstance(s, sp.Symbol) and s not in fixed} - set(vectors),
        key=lambda s: s.name,
    )
    return (
        *(Binder(s, coq_name(s), "nat -> R") for s in vectors),
        *(Binder(s, coq_name(s), "R") for s in reals),
    )


def blockwise_lemma(name: str, fact: Blockwise, chains: dict[str, Chain]) -> CoqLemma:
    """The Coq theorem of a Blockwise fact; NoProofError with the reason when there is none."""
    lt, rt = template(fact.statement.lhs), template(fact.statement.rhs)
    if lt is None or rt is None:
        raise NoProofError("a side is not one family of blocks")
    family = lt[1]
    size = _size(fact.statement.lhs)
    symbols = _symbols(fact.statement.lhs) | _symbols(fact.statement.rhs)
    taken = {coq_name(s) for s in symbols if isinstance(s, sp.Symbol)} | {coq_name(family.index)}
    j = _fresh("j", taken)
    v = _fresh("v", taken)
    translator = Translator(family, size, j)
    left, right = translator.side(fact.statement.lhs), translator.side(fact.statement.rhs)
    if left.kind != right.kind:
        raise NoProofError("the two sides are of different kinds")
    if left.text == right.text:
        raise NoProofError(
            "the two sides print as the same Coq term: a tautology (SymPy had evaluated the "
            "blocks to the same expression when the fact was built)"
        )
    bound = list(_binders(fact, translator))
    if left.kind == "scalar":
        conclusion = f"{left.text} = {right.text}"
    elif left.kind == "vector":
        conclusion = f"{_applied(left.text, j)} = {_applied(right.text, j)}"
        bound.append(Binder(None, j, "nat"))
    else:
        conclusion = f"{left.apply(v)} {j} = {right.apply(v)} {j}"
        bound += [Binder(None, v, "nat -> R"), Binder(None, j, "nat")]
    if left.kind != "scalar":
        conclusion = f"({j} < {size})%nat -> {conclusion}"
    layout = combined(left.layout, right.layout)
    if layout in ("consecutive", "pairs") or (layout == "concatenated" and fact.lemma):
        concatenated = layout == "concatenated"
        proof = _pairwise_proof(fact, translator, chains, left.kind, lt, rt, j, v, concatenated)
    else:
        proof = _enumerated_proof(fact, translator, chains, left.kind, j)
    # The binders are introduced by name, the bound test (for vectors and matrices) as Hj.
    lemma = CoqLemma(name, tuple(bound), (), conclusion, tuple(proof))
    return lemma


def _fresh(base: str, taken: set[str]) -> str:
    name, k = base, 0
    while name in taken:
        k += 1
        name = f"{base}{k}"
    return name


def _size(side) -> int:
    if isinstance(side, BlockVector | BlockMatrix):
        return side.size
    if isinstance(side, Permuted):
        return side.inner.size
    if isinstance(side, Product):
        return _size(side.factors[0])
    if isinstance(side, Inner):
        return _size(side.left)
    return 2 * len(side.terms)


def _instance(fact, translator, chains, lt, rt) -> str | None:
    """The Coq term proving block i's two sides equal (the lemma's instance), or None when the
    fact cites no lemma (its blocks must then be equal by algebra as they stand)."""
    if fact.lemma is None:
        fixed = dict(translator.family.fixed)
        lhs, rhs = (substitute(explicit(e), fixed) for e in (lt[0], rt[0]))
        # The lemma-free block script is parity, then ring: the sides must meet so.
        if not _same_matrix(PARITY(lhs), PARITY(rhs)):
            raise NoProofError("the fact cites no lemma and a block's two sides differ")
        return None
    chain = chains.get(fact.lemma.name)
    if chain is None or chain.theorem is None:
        raise NoProofError(f"the lemma {fact.lemma.name} has no Coq theorem")
    index = translator.index
    mapping = fact.bindings(index) if fact.bindings else {}
    # Bound without evaluation: cos(−kω_i) stays as the lemma's step writes it.
    steps = [substitute(explicit(s.expr), mapping) for s in fact.lemma.steps]
    fixed = dict(translator.family.fixed)
    lhs, rhs = (substitute(explicit(e), fixed) for e in (lt[0], rt[0]))

    starts = [k for k, s in enumerate(steps) if _same_matrix(lhs, s)]
    ends = [k for k, s in enumerate(steps) if _same_matrix(rhs, s)]
    pairs = [(x, y) for x in starts for y in ends if x != y]
    if not pairs:
        raise NoProofError("a block's sides are no steps of the lemma instantiated at the block")
    a, b = min(pairs, key=lambda p: abs(p[0] - p[1]))
    values = {}
    for symbol, value in mapping.items():
        if symbol.is_integer and value.is_Integer:
            values[symbol] = f"(INR {value})"
        else:
            values[symbol] = translator.printer.at(value)
    term = chain_term(translator.printer, chain, {}, a, b, values=values)
    if term is None:
        raise NoProofError(f"the lemma {fact.lemma.name} has links without a lemma")
    return term


def _same_matrix(a, b) -> bool:
    """Whether two explicit matrices are equal entry by entry by algebra."""
    try:
        return a.shape == b.shape and all(equal_by_algebra(x, y) for x, y in zip(a, b, strict=True))
    except (AttributeError, ValueError):
        return False


def _pairwise_proof(fact, translator, chains, kind, lt, rt, j, v, concatenated) -> list[str]:
    """Pair i at once: component 2i and 2i + 1 (or i and h + i, concatenated) of both sides
    written with pair i's entries, then the lemma's instance at pair i, entry by entry."""
    instance = _instance(fact, translator, chains, lt, rt)
    i = coq_name(translator.index)
    h = translator.half
    parts = is_complex(lt[0]) or is_complex(rt[0])
    if kind == "scalar":
        if concatenated:
            lines = [
                f"repeat rewrite (sum_halves_at _ {translator.d - 1} {h - 1} eq_refl).",
                f"apply sum_eq. intros {i} H{i}. assert (H{i}' : ({i} < {h})%nat) by lia.",
                f"blocks_concat H{i}'.",
            ]
        else:
            lines = [
                f"repeat rewrite (sum_pairs_at _ {translator.d - 1} {h - 1} eq_refl).",
                f"apply sum_eq. intros {i} H{i}. blocks.",
            ]
        return lines + _close(instance, [(0, 0)], complex_parts=parts)
    if concatenated:
        lines = [
            f"intros Hj. destruct (concat_cases {h} {j} Hj) as "
            f"[[{i} [H{i} ->]] | [{i} [H{i} ->]]].",
        ]
        components = (f"({v} {i})", f"({v} ({h} + {i})%nat)")
        unfold = f"blocks_concat H{i}."
    else:
        lines = [
            f"intros Hj. destruct (Nat.Even_or_Odd {j}) as [[{i} ->] | [{i} ->]]; "
            "[| rewrite Nat.add_1_r].",
        ]
        components = (f"({v} (2 * {i})%nat)", f"({v} (S (2 * {i})))")
        unfold = "blocks."
    for row in (0, 1):
        if kind == "vector":
            close = _close(instance, [(row, 0)], complex_parts=parts)
        else:
            close = _close(instance, [(row, 0), (row, 1)], components, parts)
        lines += [f"- {unfold}", *(f"  {line}" for line in close)]
    return lines


def _close(instance: str | None, entries, weights=(), complex_parts: bool = False) -> list[str]:
    """Sentences closing one component from the instance's entries (or, with no lemma, the
    blocks as written: parity, then ring). complex_parts: the component holds real parts of
    complex numbers, computed in the goal and the entries first."""
    if instance is None:
        return ["rewrite ?cos_neg, ?sin_neg; ring."]
    lines = ["complex_parts."] if complex_parts else []
    names = []
    for k, (r, c) in enumerate(entries):
        e = f"E{k}"
        names.append(e)
        lines.append(f"pose proof (f_equal (fun M : mat => M {r}%nat {c}%nat) {instance}) as {e}.")
        computed = f" complex_parts in {e}." if complex_parts else ""
        lines.append(f"mat_unfold in {e}.{computed} align {e}.")
    if len(names) == 1:
        lines.append(f"from_entry {names[0]}.")
    else:
        lines.append(f"from_entries {names[0]} {names[1]} {weights[0]} {weights[1]}.")
    return lines


def _enumerated_proof(fact, translator, chains, kind, j) -> list[str]:
    """Component by component, each computed (the concatenated layout)."""
    if translator.d > MAX_ENUMERATED:
        raise NoProofError(
            f"the concatenated layout's statements are proved component by component, for "
            f"d_model up to {MAX_ENUMERATED} (here {translator.d})"
        )
    if fact.lemma is not None:
        if kind == "scalar":
            raise NoProofError("a sum with a lemma over a permuted or mixed layout")
        values_at = _enumerated_instances(fact, translator, chains)
    else:
        _instance(fact, translator, chains, *(template(s) for s in _sides(fact)))
    if kind == "scalar":
        # The sums written out term by term, every component computed: algebra.
        return ["cbn [sum_f_R0].", "component.", "ring."]
    lines = ["intros Hj."]
    h = translator.half
    for c in range(translator.d):
        block, row = (c, 0) if c < h else (c - h, 1)
        lines.append(f"destruct {j} as [|{j}].")
        if fact.lemma is None:
            lines.append("{ component. ring. }")
            continue
        instance = values_at(block)
        entries = [(row, 0)] if kind == "vector" else [(row, 0), (row, 1)]
        if kind == "vector":
            close = _close(instance, entries)
        else:
            raise NoProofError("a matrix statement with a lemma on the concatenated layout")
        lines.append("{ component.")
        lines += [f"  {line}" for line in close]
        lines.append("}")
    lines.append("lia.")
    return lines


def _sides(fact: Blockwise) -> tuple:
    return fact.statement.lhs, fact.statement.rhs


def _enumerated_instances(fact, translator, chains):
    chain = chains.get(fact.lemma.name)
    if chain is None or chain.theorem is None:
        raise NoProofError(f"the lemma {fact.lemma.name} has no Coq theorem")

    def at(block: int) -> str:
        mapping = fact.bindings(sp.Integer(block)) if fact.bindings else {}
        values = {}
        for symbol, value in mapping.items():
            if symbol.is_integer and value.is_Integer:
                values[symbol] = f"(INR {value})"
            else:
                values[symbol] = translator.printer.at(value)
        term = chain_term(translator.printer, chain, {}, 0, len(chain.links), values=values)
        if term is None:
            raise NoProofError(f"the lemma {fact.lemma.name} has links without a lemma")
        return term

    return at
