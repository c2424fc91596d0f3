"""A chain's links as Coq lemmas, and the chain itself as one Coq theorem named after its part.

Link j of a chain s_0 = s_1 = … = s_n is the lemma `{theorem}_{part}_link{j} : s_{j−1} = s_j`,
both steps printed as the theorem module wrote them (unevaluated: a matrix-product step shows
the product), about Headline's omega where the step is about the paper's frequencies. Its
proof comes from what the step cites (proofs.engine.coq.script): the cited rules' tactics, or
the cited lemma (another part) instantiated, or either of those termwise under a Σ (sum_eq).
The part is then `Theorem {part} : s_0 = s_n`, proved from its links by transitivity.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from proofs.engine.citation import Lemma, Termwise, rules_of, substitute
from proofs.engine.coq.printer import APPLICATION, Context, NotExpressibleError, Printer, coq_name
from proofs.engine.coq.script import NoProofError, is_matrix, matrix_proof, rule_proof
from proofs.engine.coq.statement import (
    Binder,
    CoqLemma,
    Hypothesis,
    binders,
    integer_symbols,
    pair_sums,
)
from proofs.engine.derivation import Derivation
from proofs.engine.rules import Rule
from proofs.engine.rules.normal_form import equal_by_algebra
from proofs.engine.rules.rule import CoqPlan

# A matrix's (0, 0) entry: how a 1×1 lemma is used where its step is a scalar.
ENTRY_00 = "(fun M : mat => M 0%nat 0%nat)"


@dataclass
class Chain:
    """The Coq lemmas of one Derivation part: its links (None where none was found, with the
    reason) and, when every link has one, the part's theorem."""

    part: Derivation
    context: Context
    links: list[CoqLemma | None] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    theorem: CoqLemma | None = None
    theorem_reason: str = ""


def chain_context(part: Derivation) -> tuple[Context, tuple[Binder, ...], frozenset]:
    """How the chain's symbols are written: the pairs' Σ bound n, integers as IZR."""
    exprs = [s.expr for s in part.steps]
    context, nat_binders, skip = pair_sums(exprs)
    context.integers = integer_symbols(exprs)
    return context, nat_binders, skip


def build_chain(theorem: str, part: Derivation, known: dict[str, Chain], name: str) -> Chain:
    """The chain's link lemmas and theorem. known: the chains already built (the lemmas a step
    may cite). name: the Coq name of the part's theorem."""
    try:
        context, nat_binders, skip = chain_context(part)
    except NotExpressibleError as exc:
        chain = Chain(part, Context())
        chain.links = [None] * (len(part.steps) - 1)
        chain.reasons = [f"no proof found: {exc}"] * (len(part.steps) - 1)
        chain.theorem_reason = f"no proof found: {exc}"
        return chain
    chain = Chain(part, context)
    for j, (a, b) in enumerate(zip(part.steps, part.steps[1:], strict=False), start=1):
        lemma_name = f"{theorem}_{part.name}_link{j}"
        try:
            lemma = link_lemma(lemma_name, a.expr, b.expr, b.by, context, nat_binders, skip, known)
        except (NotExpressibleError, NoProofError) as exc:
            chain.links.append(None)
            chain.reasons.append(f"no proof found: {exc}")
            continue
        words = f"link {j}: {b.cited}" + (f" ({b.note})" if b.note else "")
        chain.links.append(_with_comment(lemma, f"{part.title}\n{words}"))
        chain.reasons.append("")
    missing = [j for j, link in enumerate(chain.links, start=1) if link is None]
    if missing:
        chain.theorem_reason = (
            f"no proof found: link{'s' if len(missing) > 1 else ''} "
            f"{', '.join(map(str, missing))} of the chain {'have' if len(missing) > 1 else 'has'}"
            " no lemma, so the chain is not composed"
        )
        return chain
    chain.theorem = part_theorem(name, part, chain)
    return chain


def _with_comment(lemma: CoqLemma, text: str) -> CoqLemma:
    return CoqLemma(
        lemma.name, lemma.binders, lemma.hypotheses, lemma.conclusion, lemma.proof, text
    )


def link_lemma(
    name: str,
    lhs: sp.Basic,
    rhs: sp.Basic,
    by,
    context: Context,
    nat_binders: tuple[Binder, ...],
    skip: frozenset,
    known: dict[str, Chain],
) -> CoqLemma:
    """The lemma `name : lhs = rhs` with its proof from the citation by."""
    statement = Printer(context)
    left, right = statement.term(lhs), statement.term(rhs)
    if left == right:
        raise NoProofError("the step's two sides print as the same Coq term: a tautology")
    cited = rules_of(by) if isinstance(by, Rule | tuple) else ()
    powers = any(r.coq_plan in (CoqPlan.EXPONENT_LAWS, CoqPlan.POWER_LAWS) for r in cited)
    bound, hypotheses = binders(
        [lhs, rhs],
        context,
        nat_binders,
        skip=skip,
        exponents=powers,
        bases=powers,
    )
    printer = Printer(context, canonical=True)
    proof = citation_proof(printer, lhs, rhs, by, known)
    return CoqLemma(name, bound, hypotheses, f"{left} = {right}", tuple(proof))


def citation_proof(printer: Printer, lhs: sp.Basic, rhs: sp.Basic, by, known) -> list[str]:
    """Sentences proving lhs = rhs (hypotheses introduced) from the citation by."""
    if by is None:
        raise NoProofError("the step cites nothing")
    if isinstance(by, Termwise):
        return termwise_proof(printer, lhs, rhs, by, known)
    if isinstance(by, Lemma):
        return lemma_proof(printer, lhs, rhs, by, known)
    rules = rules_of(by)
    missing = [r.words for r in rules if not r.coq]
    if missing:
        raise NoProofError(f"the cited rule {', '.join(missing)} has no Coq tactic")
    return rule_proof(printer, lhs, rhs, rules)


def termwise_proof(printer: Printer, lhs, rhs, by: Termwise, known) -> list[str]:
    """Σ f = Σ g over one range, summand by summand (sum_eq)."""
    if not (isinstance(lhs, sp.Sum) and isinstance(rhs, sp.Sum)):
        raise NoProofError("a termwise step needs a Σ on both sides")
    (i, low, high), (j, low_b, high_b) = lhs.limits[0], rhs.limits[0]
    if (low, high) != (low_b, high_b) or len(lhs.limits) + len(rhs.limits) != 2:
        raise NoProofError("the two Σs run over different ranges")
    g = rhs.function if i == j else substitute(rhs.function, {j: i})
    name = coq_name(i)
    inner = printer.with_names({i: (f"INR {name}", APPLICATION)})
    body = citation_proof(inner, lhs.function, g, by.inner, known)
    return ["apply sum_eq.", f"intros {name} H_{name}.", "cbv beta.", *body]


def _same(a: sp.Basic, b: sp.Basic) -> bool:
    a, b = _scalar(a), _scalar(b)
    if is_matrix(a) != is_matrix(b):
        return False
    try:
        return equal_by_algebra(a, b)
    except ValueError:
        return False


def _scalar(expr: sp.Basic) -> sp.Basic:
    if isinstance(expr, sp.MatrixBase) and expr.shape == (1, 1):
        return expr[0, 0]
    return expr


def lemma_proof(printer: Printer, lhs, rhs, by: Lemma, known) -> list[str]:
    """lhs = rhs through two steps of the cited chain, its symbols bound: lhs equals step a by
    algebra, step a equals step b by the chain's links (or its theorem), step b equals rhs."""
    cited = known.get(by.derivation.name)
    if cited is None:
        raise NoProofError(f"the cited lemma {by.derivation.name} is no chain of this theorem")
    steps = by.instances()
    starts = [k for k, s in enumerate(steps) if _same(lhs, s)]
    ends = [k for k, s in enumerate(steps) if _same(rhs, s)]
    if not starts or not ends:
        raise NoProofError("the step's sides are no steps of the cited lemma")
    a, b = min(((x, y) for x in starts for y in ends if x != y), key=lambda p: abs(p[0] - p[1]))
    term = chain_term(printer, cited, by.bindings, a, b)
    if term is None:
        raise NoProofError(f"the cited lemma {by.derivation.name} has links without a lemma")
    project = is_matrix(steps[a]) and not is_matrix(lhs)
    statement = Printer(printer.context)
    start, end = steps[a], steps[b]
    if project:
        term = f"(f_equal {ENTRY_00} {term})"
    lines: list[str] = []
    left_text = statement.term(lhs)
    start_text = statement.term(start) + (" 0%nat 0%nat" if project else "")
    end_text = statement.term(end) + (" 0%nat 0%nat" if project else "")
    if start_text != left_text:
        closing = _algebra(printer, lhs, start, project)
        lines += [f"transitivity ({start_text}).", "{", *_indent(closing), "}"]
    if end_text != statement.term(rhs):
        lines += [f"transitivity ({end_text}).", "{", f"  refine {term}; side.", "}"]
        lines += _algebra(printer, end, rhs, project, reverse=True)
    else:
        lines.append(f"refine {term}; side.")
    return lines


def _indent(lines: list[str]) -> list[str]:
    return [f"  {line}" for line in lines]


def _algebra(printer: Printer, a, b, project: bool, *, reverse: bool = False) -> list[str]:
    """a = b by algebra; project: the matrix side is used through its (0, 0) entry."""
    if project:
        matrix, scalar = (a, b) if reverse else (b, a)
        entry = _entries00(matrix)
        first, second = (entry, scalar) if reverse else (scalar, entry)
        return ["mat_unfold.", *rule_proof(printer, first, second, ())]
    if is_matrix(a) or is_matrix(b):
        return matrix_proof(printer, a, b, lambda x, y: rule_proof(printer, x, y, ()))
    return rule_proof(printer, a, b, ())


def _entries00(matrix: sp.Basic) -> sp.Expr:
    from proofs.engine.coq.script import entries

    return entries(matrix)[0, 0]


def chain_term(
    printer: Printer,
    chain: Chain,
    bindings: dict,
    a: int,
    b: int,
    *,
    values: dict[sp.Symbol, str] | None = None,
) -> str | None:
    """A Coq term proving step a = step b of chain with its symbols bound (holes for the
    hypotheses); None if a link on the way has no lemma. values: bindings already printed."""
    if a > b:
        inner = chain_term(printer, chain, bindings, b, a, values=values)
        return None if inner is None else f"(eq_sym {inner})"
    n = len(chain.links)
    values = {**{s: printer.at(v) for s, v in bindings.items()}, **(values or {})}
    for symbol in {b.symbol for link in chain.links if link for b in link.binders} - set(values):
        if symbol is not None:
            values[symbol] = printer.at(symbol)
    if (a, b) == (0, n) and chain.theorem is not None:
        return chain.theorem.application(_typed(chain.theorem, values))
    lemmas = chain.links[a:b]
    if any(link is None for link in lemmas):
        return None
    terms = [link.application(_typed(link, values)) for link in lemmas]
    term = terms[-1]
    for t in reversed(terms[:-1]):
        term = f"(eq_trans {t} {term})"
    return term


def _typed(lemma: CoqLemma, values: dict) -> dict:
    """values for lemma's binders; a natural-number or integer binder takes its symbol's name."""
    out = {}
    for binder in lemma.binders:
        if binder.symbol is None:
            continue
        value = values.get(binder.symbol, binder.name)
        if binder.type != "R":
            value = value.removeprefix("IZR ").removeprefix("INR ")
        out[binder.symbol] = value
    return out


def part_theorem(name: str, part: Derivation, chain: Chain) -> CoqLemma:
    """`Theorem name : s_0 = s_n`, from the links by transitivity."""
    links = [link for link in chain.links if link is not None]
    binder_list: list[Binder] = []
    hyps: list[Hypothesis] = []
    for link in links:
        for b in link.binders:
            if b.name not in {x.name for x in binder_list}:
                binder_list.append(b)
        for h in link.hypotheses:
            if h.text not in {x.text for x in hyps}:
                hyps.append(h)
    order = {"nat": 0, "Z": 1, "R": 2}
    binder_list.sort(key=lambda b: (order[b.type], b.name))
    statement = Printer(chain.context)
    conclusion = f"{statement.term(part.steps[0].expr)} = {statement.term(part.steps[-1].expr)}"
    own = {b.symbol: b.name for b in binder_list if b.symbol is not None}
    terms = [link.application(own, hypotheses="own") for link in links]
    term = terms[-1]
    for t in reversed(terms[:-1]):
        term = f"(eq_trans {t} {term})"
    return CoqLemma(
        name, tuple(binder_list), tuple(hyps), conclusion, (f"exact {term}.",), keyword="Theorem"
    )
