"""A theorem's facts as Coq lemmas: each the statement the fact checks, with a proof SymPy plans.

FreeOf e (pos):          exists M, forall pos, s_0 = M  (s_0 = ... = e a chain; none without one)
NonZero e:               e <> 0                          (signs of the hypotheses; PI's irrationality)
NonNegative e = w:       0 <= e                          (e = w by the cited rules, w a sum of squares)
LinearSystem, none:      ~ exists x, e_1 = 0 /\\ ...      (a combination of the e_j is a nonzero constant)
LinearSystem, x = v:     forall x, (e_1 = 0 /\\ ...) <-> x = v
ShiftMapFact, a map:     exists M, forall pos, M·f(pos) = f(pos + k)   (with b for an affine map)
ShiftMapFact, no map:    c(k) <> 0 -> ~ exists M, forall pos, M·f(pos) = f(pos + k)
Refutation lhs = rhs:    ~ (forall x, hyps -> lhs = rhs)   (at the point: lhs − rhs enclosed away from 0)
Blockwise facts are stated in proofs.engine.coq.blocks. A fact for which no proof is found gets
no lemma and the reason, "no proof found: ...".

One file because every fact kind maps to one Coq statement and its one proof plan, and the
kinds share the hypothesis and witness translation; each kind is a short function here.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.citation import rules_of, substitute
from proofs.engine.coq import partial_sums
from proofs.engine.coq.links import Chain
from proofs.engine.coq.partial_sums import partial_abs_sums
from proofs.engine.coq.printer import APPLICATION, ATOM, Context, Printer, coq_name, positive_base
from proofs.engine.coq.script import NoProofError, has_division, matrix_proof, rule_proof
from proofs.engine.coq.statement import (
    CoqLemma,
    Hypothesis,
    binders,
    divisors,
    integer_symbols,
    pair_sums,
)
from proofs.engine.facts import (
    FreeOf,
    LinearSystem,
    NonNegative,
    NonZero,
    Refutation,
    ShiftMapFact,
)
from proofs.engine.rules import ANGLE_ADDITION
from proofs.engine.rules.normal_form import Atoms

# Closes a goal x <> 0 for x a product, quotient, power or negation of nonzero factors (Helpers.v).
NONZERO = "nonzero"
# Closes 0 <= w for w built from squares, exponentials, sums, products, quotients and
# nonnegative numbers or symbols (Helpers.v).
NONNEGATIVE = "nonneg_by_parts"
# Closes a bound on a number by its certified enclosure (the Interval library), at growing
# precision.
ENCLOSE = (
    "first [interval with (i_prec 60) | interval with (i_prec 100) | interval with (i_prec 300)]"
)
# Closes c <> 0 for a number c by the sign of its enclosure.
CONSTANT_SIGN = f"first [apply Rgt_not_eq; {ENCLOSE} | apply Rlt_not_eq; {ENCLOSE}]"


def fact_lemma(name: str, fact, chains: dict[str, Chain]) -> CoqLemma:
    """The Coq lemma of a FreeOf, NonZero, NonNegative, LinearSystem, ShiftMapFact or Refutation
    fact; NoProofError or NotExpressibleError (ValueErrors) with the reason when there is none.
    chains: the theorem's chains built so far (a FreeOf is stated through one)."""
    if isinstance(fact, FreeOf):
        return free_of(name, fact, chains)
    if isinstance(fact, NonZero):
        return nonzero(name, fact)
    if isinstance(fact, NonNegative):
        return nonnegative(name, fact)
    if isinstance(fact, LinearSystem):
        return linear_system(name, fact)
    if isinstance(fact, ShiftMapFact):
        return shift_map(name, fact)
    if isinstance(fact, Refutation):
        return refutation(name, fact)
    raise NoProofError(f"a {type(fact).__name__} fact has no Coq statement here")


# ---------- FreeOf ----------


def free_of(name: str, fact: FreeOf, chains: dict[str, Chain]) -> CoqLemma:
    """exists M, forall pos, s_0 = M: the quantity s_0 a chain of the theorem starts from (s_0
    contains pos) equals the fact's expression e (free of pos) for every pos, proved from the
    chain s_0 = ... = e. The fact alone, exists M, forall pos, e = M with pos absent from e, is
    true of every e and says nothing; NoProofError when no chain ends in e."""
    for chain in chains.values():
        theorem = chain.theorem
        if theorem is None or chain.part.steps[-1].expr != fact.expr:
            continue
        start = chain.part.steps[0].expr
        frees = [b for b in theorem.binders if b.symbol in set(fact.symbols)]
        if not any(b.symbol in start.free_symbols for b in frees):
            continue
        if any(h.symbol in set(fact.symbols) for h in theorem.hypotheses):
            continue
        printer = Printer(chain.context)
        kind = "mat" if isinstance(start, sp.MatrixBase) else "R"
        after = " ".join(f"({b.name} : {b.type})" for b in frees)
        own = {b.symbol: b.name for b in theorem.binders if b.symbol is not None}
        return CoqLemma(
            name,
            tuple(b for b in theorem.binders if b not in frees),
            theorem.hypotheses,
            f"exists M : {kind}, forall {after}, {printer.term(start)} = M",
            (
                f"exists ({printer.term(fact.expr)}).",
                f"intros {' '.join(b.name for b in frees)}.",
                f"exact {theorem.application(own, hypotheses='own')}.",
            ),
        )
    names = " ".join(s.name for s in fact.symbols)
    raise NoProofError(
        f"the statement would say nothing (exists M, forall {names}, e = M holds of every e "
        f"without {names}), and no chain of the theorem ends in e to state it through"
    )


# ---------- NonZero ----------


def _fact_context(exprs: list[sp.Basic]) -> Context:
    context, _, _ = pair_sums(exprs)
    context.integers = integer_symbols(exprs, all_integers=True)
    return context


def nonzero(name: str, fact: NonZero) -> CoqLemma:
    expr = fact.expr
    context = _fact_context([expr])
    bound, hyps = binders([expr], context, signs=True)
    printer = Printer(context)
    proof = nonzero_proof(printer, expr)
    return CoqLemma(name, bound, hyps, f"{printer.term(expr)} <> 0", tuple(proof))


def nonzero_proof(printer: Printer, expr: sp.Expr) -> list[str]:
    """Sentences proving expr <> 0 (hypotheses introduced)."""
    integers = printer.context.integers
    if _pi_free_product(expr, integers):
        return [f"{NONZERO}."]
    split = _integer_minus_pi_multiple(expr, integers)
    if split is not None:
        a, b = split
        target = f"IZR ({_z(a)}) - IZR ({_z(b)}) * PI"
        return [
            f"replace ({printer.term(expr)}) with ({target}) by "
            "(rewrite ?mult_IZR, ?plus_IZR, ?opp_IZR; ring).",
            "apply int_minus_pi_multiple; lia.",
        ]
    if (n := _cos_integer_minus_1(expr, integers)) is not None:
        name = coq_name(n)
        return [
            f"replace ({printer.term(expr)}) with (cos (IZR {name}) - 1) by ring.",
            "apply cos_int_minus_1; assumption.",
        ]
    if expr.has(sp.pi) and expr.free_symbols & set(integers):
        raise NoProofError(f"no proof that {sp.sstr(expr)} is nonzero was found")
    return _factored_proof(printer, expr)


def _factored_proof(printer: Printer, expr: sp.Expr) -> list[str]:
    """expr written as its factors, each nonzero by the hypotheses (lra, with the signs of the
    logarithms the hypotheses settle) or, for a number, by its certified enclosure."""
    factored = sp.factor(sp.together(expr))
    if factored == 0 or factored.has(sp.I):
        raise NoProofError(f"no proof that {sp.sstr(expr)} is nonzero was found")
    lines = []
    if printer.term(factored) != printer.term(expr):
        closer = "field; side" if has_division(factored, expr) else "ring"
        lines.append(
            f"replace ({printer.term(expr)}) with ({printer.term(factored)}) by ({closer})."
        )
    for k, log in enumerate(sorted(factored.atoms(sp.log), key=sp.default_sort_key), start=1):
        if (log.args[0] - 1).is_positive:
            lines.append(f"assert (L{k} : 0 < {printer.term(log)}) by (apply ln_pos; lra).")
    lines.append(f"nonzero_with ltac:({CONSTANT_SIGN}).")
    return lines


def _pi_free_product(expr: sp.Expr, integers) -> bool:
    """A product, quotient, power or negation of nonzero numbers and symbols, without π."""
    for factor in sp.Mul.make_args(expr):
        base = factor.base if isinstance(factor, sp.Pow) and factor.exp.is_Integer else factor
        if base.is_Rational:
            if base == 0:
                return False
            continue
        if not (isinstance(base, sp.Symbol) and base.is_nonzero):
            return False
    return True


def _integer_minus_pi_multiple(expr: sp.Expr, integers) -> tuple[sp.Expr, sp.Expr] | None:
    """(a, b) with expr = a − b·π, a and b integer polynomials in the integer symbols, b ≠ 0
    by the hypotheses (a monomial in nonzero symbols); None otherwise."""
    poly = sp.Poly(sp.expand(expr), sp.pi)
    if poly.degree() != 1:
        return None
    b, a = poly.all_coeffs()
    b = -b
    for part in (a, b):
        if not part.free_symbols <= set(integers):
            return None
        try:
            coefficients = sp.Poly(part, *part.free_symbols or {sp.Dummy()}).coeffs()
        except sp.PolynomialError:  # sin(n): not a polynomial in the integer symbols
            return None
        if not all(c.is_Integer for c in coefficients):
            return None
    if not all(f.is_Integer or (f in integers and f.is_nonzero) for f in sp.Mul.make_args(b)):
        return None
    return a, b


def _z(expr: sp.Expr) -> str:
    """An integer polynomial in Coq's Z notation."""
    return sp.sstr(expr).replace("**", "^") + "%Z" if expr.free_symbols else f"{expr}%Z"


def _cos_integer_minus_1(expr: sp.Expr, integers) -> sp.Symbol | None:
    """n when expr is cos(n) − 1 for a nonzero integer symbol n, else None."""
    if not (isinstance(expr, sp.Add) and len(expr.args) == 2 and sp.Integer(-1) in expr.args):
        return None
    for t in expr.args:
        if isinstance(t, sp.cos) and t.args[0] in integers and t.args[0].is_nonzero:
            return t.args[0]
    return None


# ---------- Refutation ----------

# The relation the claim states, and how its instance E at the point contradicts D, the sign of
# its two sides' difference that the enclosure certifies (a, b: the instance's two sides).
_REFUTED = {
    sp.Equality: ("=", "a - b <> 0", CONSTANT_SIGN, "exact (D (Rminus_diag_eq _ _ E))"),
    sp.LessThan: ("<=", "b < a", ENCLOSE, "exact (Rlt_not_le _ _ D E)"),
    sp.GreaterThan: (">=", "a < b", ENCLOSE, "exact (Rlt_not_ge _ _ D E)"),
    sp.StrictLessThan: ("<", "b < a", ENCLOSE, "exact (Rlt_asym _ _ D E)"),
    sp.StrictGreaterThan: (">", "a < b", ENCLOSE, "exact (Rlt_asym _ _ D E)"),
}
# Closes a hypothesis of the claim at the point's numbers (a sign, an integer's range).
_AT_POINT = (
    "ltac:(first [lra | lia | (apply IZR_lt; lia) | (apply IZR_le; lia) | (apply IZR_neq; lia)])"
)


def _entry(side: sp.Basic) -> sp.Basic:
    """A 1×1 matrix side (a score ⟨q, Gκ⟩) as its one entry."""
    return side.as_explicit()[0, 0] if getattr(side, "shape", None) == (1, 1) else side


def refutation(name: str, fact: Refutation) -> CoqLemma:
    """~ (forall x, hyps -> claim), proved by the claim's instance at the point: its two sides'
    difference enclosed (the Interval library) on the side that contradicts it."""
    lhs, rhs = (_entry(side) for side in fact.claim.args)
    relation, sign, closer, contradiction = _REFUTED[type(fact.claim)]
    sums = [s for side in (lhs, rhs) for s in side.atoms(sp.Sum)]
    indices = {limit[0] for s in sums for limit in s.limits}
    if sums and all(limit[2].free_symbols <= indices for s in sums for limit in s.limits):
        # Σs over numeral ranges, or ranges set by an outer Σ's index (a claim at one d): no d
        # to bind.
        context, pairs, size = Context(), (), frozenset()
        context.integers = integer_symbols([lhs, rhs], all_integers=True)
    else:
        context = _fact_context([lhs, rhs])
        _, pairs, size = pair_sums([lhs, rhs])
    bound, hyps = binders([lhs, rhs], context, pairs, skip=size, signs=True)
    # The claim is about the integers its symbols range over: a nonnegative one says so (the
    # claim over every integer would be a stronger one, its refutation a weaker statement).
    hyps += tuple(
        Hypothesis(
            f"H_{b.name}_sign", f"(0 {'<' if b.symbol.is_positive else '<='} {b.name})%Z", b.symbol
        )
        for b in bound
        if b.type == "Z" and b.symbol.is_nonnegative
    )
    printer = Printer(context)
    if any(side.has(sp.floor, sp.ceiling) for side in (lhs, rhs)):
        raise NoProofError("the Interval library cannot enclose a floor or a ceiling")
    point = dict(fact.at)
    if any(b.symbol not in point for b in bound if b.symbol is not None):
        raise NoProofError("the claim binds a variable the counterexample gives no value")
    claim = CoqLemma(name, bound, hyps, f"{printer.term(lhs)} {relation} {printer.term(rhs)}", ())
    # The Σs' symbolic d is bound as its count of pairs n (d = 2(n + 1)): n = d/2 − 1 at the point.
    values = [
        f"({point[next(iter(size))] // 2 - 1}%nat)"
        if b.symbol is None
        else f"({point[b.symbol]}%Z)"
        if b.type == "Z"
        else f"({printer.term(point[b.symbol])})"
        for b in bound
    ]
    if totals := partial_abs_sums(sp.Tuple(lhs, rhs)):
        return _refuted_by_partial_sums(name, claim, fact, totals, printer, context, values, hyps)
    # The Σs at the point written out term by term, their d and indices numerals, for Interval.
    # (and the paper's frequencies unfolded, which Interval does not know).
    unfold = " try unfold omega in E." + (
        " simpl sum_f_R0 in E; try unfold omega in E; rewrite ?INR_IZR_INZ in E;"
        " simpl Z.of_nat in E."
        if sums
        else ""
    )
    proof = (
        f"intro H. pose proof ({' '.join(['H', *values, *[_AT_POINT] * len(hyps)])}) as E.{unfold}",
        f"match type of E with ?a {relation} ?b => assert (D : {sign}) by ({closer}) end.",
        f"{contradiction}.",
    )
    return CoqLemma(name, (), (), f"~ ({claim.statement})", proof)


# The instance's difference a − b must lie on this side of 0 to contradict the claim (least,
# greatest: its range when each Σ ranges over its bound).
_BREAKS = {
    sp.Equality: lambda least, most: least > 0 or most < 0,
    sp.LessThan: lambda least, most: least > 0,
    sp.StrictLessThan: lambda least, most: least >= 0,
    sp.GreaterThan: lambda least, most: most < 0,
    sp.StrictGreaterThan: lambda least, most: most <= 0,
}


def _refuted_by_partial_sums(
    name: str, claim: CoqLemma, fact: Refutation, totals, printer, context, values, hyps
) -> CoqLemma:
    """The refutation's proof when its sides hold Σs of lengths of partial sums (RoFormer's
    average): each Σ at the point bounded (proofs.engine.coq.partial_sums), then lra."""
    lhs, rhs = (_entry(side) for side in fact.claim.args)
    point = dict(fact.at)
    # The Σs as the instance E writes them: each bound symbol replaced by its value's text.
    names = {
        b.symbol: (
            f"IZR {point[b.symbol]}" if point[b.symbol] >= 0 else f"IZR ({point[b.symbol]})",
            APPLICATION,
        )
        if b.type == "Z"
        else (f"({printer.term(point[b.symbol])})", ATOM)
        for b in claim.binders
        if b.symbol is not None
    }
    at = Printer(Context(names, context.integers, context.naturals))
    bounds = {total: partial_sums.bound(total, point, at) for total in totals}
    least, most = partial_sums.linear_range(lhs - rhs, bounds, point)
    if not _BREAKS[type(fact.claim)](least, most):
        raise NoProofError("the Σs' bounds are too wide to contradict the claim at the point")
    proof = (
        f"intro H. pose proof ({' '.join(['H', *values, *[_AT_POINT] * len(hyps)])}) as E.",
        *(b.assertion(f"B{i}") for i, b in enumerate(bounds.values())),
        "lra.",
    )
    return CoqLemma(name, (), (), f"~ ({claim.statement})", proof)


def _nonnegative_by_partial_sums(name: str, expr: sp.Expr, totals) -> CoqLemma:
    """0 <= expr, a number built from Σs of lengths of partial sums (an enclosure of RoFormer's
    average), linear or a product of linear factors: each Σ bounded, then lra."""
    bounds = {total: partial_sums.bound(total, {}, Printer()) for total in totals}
    factors = sp.Mul.make_args(expr) if isinstance(expr, sp.Mul) else (expr,)
    if not all(partial_sums.linear_range(f, bounds, {})[0] >= 0 for f in factors):
        raise NoProofError("the Σs' bounds are too wide to show the number is ≥ 0")
    proof = (
        *(b.assertion(f"B{i}") for i, b in enumerate(bounds.values())),
        "first [lra | repeat apply Rmult_le_pos; lra].",
    )
    return CoqLemma(name, (), (), f"0 <= {Printer().term(expr)}", proof)


# ---------- NonNegative ----------


def _by_parts(expr: sp.Expr) -> bool:
    """Whether expr ≥ 0 follows from its parts (what nonneg_by_parts does): squares and even
    powers, sums, products and quotients of such, exponentials, real powers of positive numbers, sinh of
    what is ≥ 0, square roots, absolute values, and nonnegative numbers and symbols."""
    if isinstance(expr, sp.Pow):
        if expr.exp == 2 and expr.base.is_real is True:
            return True
        if expr.exp == -1:
            return _by_parts(expr.base) and expr.base.is_nonzero is not False
        if expr.exp.is_Integer and expr.exp.is_even and expr.base.is_real is True:
            # An even power is ≥ 0; 1/x^(2m) needs x ≠ 0, which the hypotheses then give.
            return expr.exp > 0 or expr.base.is_nonzero is True
        if not expr.exp.is_Integer:
            return positive_base(expr.base) or expr.exp == sp.Rational(1, 2)
        return expr.exp > 0 and _by_parts(expr.base)
    if isinstance(expr, sp.Add | sp.Mul):
        return all(_by_parts(a) for a in expr.args)
    if isinstance(expr, sp.exp | sp.Abs):
        return True
    if isinstance(expr, sp.sinh):
        return _by_parts(expr.args[0])
    return (expr.is_number or expr.is_Symbol) and expr.is_nonnegative is True


def _signed(expr: sp.Expr) -> set[sp.Basic]:
    """The symbols whose signs the proof that expr ≥ 0 by its parts uses: those outside
    squares, exponentials and real powers (which are ≥ 0 whatever their arguments)."""
    if isinstance(expr, sp.Symbol):
        return {expr}
    if isinstance(expr, sp.exp | sp.Abs) or (
        isinstance(expr, sp.Pow) and (expr.exp == 2 or not expr.exp.is_Integer)
    ):
        return set()
    return set().union(*(_signed(a) for a in expr.args)) if expr.args else set()


def nonnegative(name: str, fact: NonNegative) -> CoqLemma:
    expr, witness = fact.expr, fact.witness
    if not expr.free_symbols and (totals := partial_abs_sums(expr)):
        return _nonnegative_by_partial_sums(name, expr, totals)
    context, _, _ = pair_sums([expr])
    statement = Printer(context)
    bound, hyps = binders([expr, witness], context, signs=True)
    # Signs the proof uses: of the symbols the witness is ≥ 0 by, and of those in divisors.
    used = _signed(witness) | {
        s for e in (expr, witness) for f in divisors(e) if not f.is_Symbol for s in f.free_symbols
    }
    hyps = tuple(h for h in hyps if h.symbol in used or h.symbol is None)
    conclusion = f"0 <= {statement.term(expr)}"
    if not expr.free_symbols:
        # A number: its certified enclosure (the Interval library), as the engine's ball.
        proof: tuple[str, ...] = (f"{ENCLOSE}.",)
        return CoqLemma(name, bound, hyps, conclusion, proof)
    if not _by_parts(witness):
        raise NoProofError(f"the witness {witness} is not ≥ 0 by its parts")
    printer = Printer(context, canonical=True)
    rules = rules_of(fact.by) if fact.by is not None else ()
    if statement.term(expr) == statement.term(witness):
        proof = (f"{NONNEGATIVE}.",)
    else:
        proof = (
            f"enough (E : {statement.term(expr)} = {statement.term(witness)}).",
            f"{{ rewrite E. {NONNEGATIVE}. }}",
            *rule_proof(printer, expr, witness, rules),
        )
    return CoqLemma(name, bound, hyps, conclusion, proof)


# ---------- LinearSystem ----------


def linear_system(name: str, fact: LinearSystem) -> CoqLemma:
    equations, unknowns = [sp.sympify(e) for e in fact.equations], list(fact.unknowns)
    context = _fact_context(equations)
    statement = Printer(context)
    params = [e for e in equations]
    bound, hyps = binders(params, context, signs=True)
    bound = tuple(b for b in bound if b.symbol not in unknowns)
    hyps = tuple(h for h in hyps if h.symbol not in unknowns)
    names = " ".join(coq_name(u) for u in unknowns)
    system = " /\\ ".join(f"{statement.term(e)} = 0" for e in equations)
    matrix, rhs = sp.linear_eq_to_matrix(equations, unknowns)
    if fact.expect == "inconsistent":
        try:
            weights = _inconsistency(matrix, rhs, equations, unknowns)
        except NoProofError:
            powers = _one_base_powers(equations)
            if powers is None:
                raise
            proof = _powers_inconsistency(statement, equations, unknowns, hyps, *powers)
            return CoqLemma(name, bound, hyps, f"~ (exists {names} : R, {system})", proof)
        constant = sp.cancel(sum(w * e for w, e in zip(weights, equations, strict=True)))
        pattern = " ".join(f"E{j}" for j in range(len(equations)))
        combination = " + ".join(
            f"({statement.term(w)}) * ({statement.term(e)})"
            for w, e in zip(weights, equations, strict=True)
            if w != 0
        )
        closer = "field; side" if has_division(*weights, *equations) else "ring"
        rewrites = ", ".join(f"E{j}" for j, w in enumerate(weights) if w != 0)
        proof = (
            f"intros [{names} {_conjunction(pattern)}].",
            f"assert (Z : {statement.term(constant)} = 0).",
            f"{{ transitivity ({combination}); [{closer} | rewrite {rewrites}; ring]. }}",
            f"assert (NZ : {statement.term(constant)} <> 0).",
            f"{{ {' '.join(nonzero_proof(statement, constant))} }}",
            "exact (NZ Z).",
        )
        conclusion = f"~ (exists {names} : R, {system})"
        return CoqLemma(name, bound, hyps, conclusion, proof)
    solution = fact.expect
    values = " /\\ ".join(f"{coq_name(u)} = {statement.term(solution[u])}" for u in unknowns)
    labels = [f"E{j}" for j in range(len(equations))]
    lines = [f"intros {names}.", "split.", f"- intros {_conjunction(' '.join(labels))}."]
    for u in unknowns:
        weights = _expressing(equations, unknowns, u, solution[u])
        used = [(w, e, label) for w, e, label in zip(weights, equations, labels, strict=True) if w]
        combination = " + ".join(
            f"({statement.term(w)}) * ({statement.term(e)})" for w, e, _ in used
        )
        closer = "field; side" if has_division(*weights, *equations) else "ring"
        fact_name = f"D_{coq_name(u)}"
        lines.append(
            f"  assert ({fact_name} : {coq_name(u)} - {statement.term(solution[u])} = "
            f"{combination}) by ({closer})."
        )
        lines.append(f"  rewrite {', '.join(label for _, _, label in used)} in {fact_name}.")
    lines.append("  " + ("repeat split; " if len(unknowns) > 1 else "") + "lra.")
    arrows = _conjunction(" ".join("->" for _ in unknowns))
    closer = "field; side" if has_division(*equations) else "ring"
    lines.append(f"- intros {arrows}. repeat split; {closer}.")
    conclusion = f"forall {names} : R, {system} <-> {values}"
    return CoqLemma(name, bound, hyps, conclusion, tuple(lines))


def _one_base_powers(equations: list[sp.Expr]) -> tuple[sp.Integer, int, list[sp.Pow]] | None:
    """The base b, the common denominator q and the powers b^(k/q) (k ≥ 1) of equations whose
    only non-integer powers are positive rational powers of one integer b; None otherwise."""
    powers = sorted(
        {p for e in equations for p in e.atoms(sp.Pow) if not p.exp.is_Integer},
        key=lambda p: p.exp,
    )
    if not powers or not all(p.exp.is_Rational and p.exp > 0 for p in powers):
        return None
    bases = {p.base for p in powers}
    if len(bases) != 1 or not (base := next(iter(bases))).is_Integer or base <= 1:
        return None
    return base, int(sp.ilcm(1, *[p.exp.q for p in powers])), powers


def _powers_inconsistency(
    printer: Printer, equations: list[sp.Expr], unknowns: list, hyps, base, q: int, powers
) -> tuple[str, ...]:
    """The proof that equations in powers b^(k/q) have no solution: with y = b^(1/q) each power
    is y^k (Rpower_pow, Rpower_mult), a polynomial combination of the equations is s·K(y) with
    s a symbol the hypotheses make nonzero, and K(b^(1/q)) ≠ 0 by its enclosure."""
    y = sp.Dummy("y", positive=True)
    power_of = {p: int(p.exp * q) for p in powers}
    in_y = [e.xreplace({p: y**k for p, k in power_of.items()}) for e in equations]
    matrix, _ = sp.linear_eq_to_matrix(in_y, unknowns)
    for vector in matrix.T.nullspace():
        weights = [sp.cancel(w) for w in vector]
        denominator = sp.lcm([sp.fraction(sp.together(w))[1] for w in weights])
        weights = [sp.expand(sp.cancel(w * denominator)) for w in weights]
        constant = sp.expand(sum(w * e for w, e in zip(weights, in_y, strict=True)))
        if constant == 0 or constant.free_symbols & set(unknowns):
            continue
        factor, rest = sp.factor_terms(constant).as_independent(y, as_Add=False)
        nonzero = {h.symbol: h.name for h in hyps if h.text.endswith("<> 0")}
        if not (factor.is_Symbol and factor in nonzero and rest.free_symbols <= {y}):
            continue
        rest = sp.expand(rest)
        atom = f"Rpower {base} (1 / {q})"
        context = Context(printer.context.names | {y: (atom, APPLICATION)})
        context.integers = printer.context.integers
        in_terms = Printer(context)
        equals = [f"E{j}" for j in range(len(equations))]
        pattern = _conjunction(" ".join(equals))
        for u in reversed(unknowns):
            pattern = f"[{coq_name(u)} {pattern}]"
        lines = [f"intros {pattern}."]
        for k in sorted(set(power_of.values()) - {1}):
            lines.append(
                f"assert (P{k} : Rpower {base} ({k} / {q}) = {atom} ^ {k}) by (rewrite <- "
                "Rpower_pow by apply Rpower_pos; rewrite Rpower_mult; f_equal; "
                "rewrite INR_IZR_INZ; simpl; field)."
            )
        rewrites = ", ".join(f"?P{k}" for k in sorted(set(power_of.values()) - {1}))
        combination = " + ".join(
            f"({in_terms.term(w)}) * ({printer.term(e)})"
            for w, e in zip(weights, equations, strict=True)
            if w != 0
        )
        used = ", ".join(label for label, w in zip(equals, weights, strict=True) if w != 0)
        polynomial = in_terms.term(rest)
        lines += [
            f"assert (Z : {coq_name(factor)} * ({polynomial}) = 0).",
            f"{{ transitivity ({combination});",
            f"  [rewrite {rewrites}; field | rewrite {used}; ring]. }}",
            f"assert (NZ : {polynomial} <> 0) by ({CONSTANT_SIGN}).",
            f"exact (Rmult_integral_contrapositive_currified _ _ {nonzero[factor]} NZ Z).",
        ]
        return tuple(lines)
    raise NoProofError(
        f"no combination of the equations in powers of {base}^(1/{q}) is a nonzero symbol "
        "times a number"
    )


def _conjunction(names: str) -> str:
    """An intro pattern for a right-nested conjunction of the names: [A [B C]]."""
    parts = names.split()
    if len(parts) == 1:
        return parts[0]
    pattern = parts[-1]
    for p in reversed(parts[:-1]):
        pattern = f"[{p} {pattern}]"
    return pattern


def _identity(weights: list[sp.Expr], equations: list[sp.Expr], target: sp.Expr) -> bool:
    """Whether Σ w_j e_j = target is an identity of rational functions in the atoms as written
    (powers of one base not combined: what field proves)."""
    atoms = Atoms()
    combination = sum(
        atoms.polynomial(w) * atoms.polynomial(e) for w, e in zip(weights, equations, strict=True)
    )
    return sp.cancel(sp.together(combination - atoms.polynomial(target))) == 0


def _inconsistency(matrix, rhs, equations, unknowns) -> list[sp.Expr]:
    """Weights w with Σ w_j e_j free of the unknowns and nonzero."""
    for vector in matrix.T.nullspace():
        weights = [sp.cancel(w) for w in vector]
        constant = sp.cancel(sum(w * e for w, e in zip(weights, equations, strict=True)))
        if constant.free_symbols & set(unknowns) or constant == 0:
            continue
        if not _identity(weights, equations, constant):
            raise NoProofError(
                "the combination forcing 0 = c holds only once powers of one base are combined "
                "(as 10**(1/7)·10**(2/7) = 10**(3/7)), which the script does not do"
            )
        return weights
    raise NoProofError("no combination of the equations is a nonzero constant")


def _expressing(equations, unknowns, unknown, value) -> list[sp.Expr]:
    """Weights w with Σ w_j e_j = unknown − value identically."""
    ws = sp.symbols(f"w0:{len(equations)}")
    combination = sp.expand(
        sum(w * e for w, e in zip(ws, equations, strict=True)) - (unknown - value)
    )
    conditions = [combination.coeff(u) for u in unknowns]
    conditions.append(combination.subs({u: 0 for u in unknowns}))
    solution = sp.solve(conditions, ws, dict=True)
    if not solution:
        raise NoProofError(f"{unknown} − {value} is no combination of the equations")
    free = {w: 0 for w in ws}
    return [sp.cancel(sp.sympify(solution[0].get(w, w)).subs(free)) for w in ws]


# ---------- ShiftMapFact ----------


def shift_map(name: str, fact: ShiftMapFact) -> CoqLemma:
    f, pos, k = fact.expr, fact.pos, fact.k
    shifted = sp.ImmutableMatrix([substitute(e, {pos: sp.Add(pos, k, evaluate=False)}) for e in f])
    size = f.shape[0]
    context = _fact_context(list(f))
    statement = Printer(context)
    column, target = statement.term(_column(f)), statement.term(_column(shifted))
    answer = fact.answer()
    bound, hyps = binders([*f, k], context, signs=not answer.exists)
    bound = tuple(b for b in bound if b.symbol != pos)
    hyps = tuple(h for h in hyps if h.symbol != pos)
    image = f"mmul {size} M ({column})"
    if answer.exists is None:
        raise NoProofError("find_shift_map did not decide")
    if answer.exists:
        printer = Printer(context, canonical=True)
        m = answer.matrix
        lhs = sp.MatMul(m, _column(f), evaluate=False)
        if fact.affine:
            lhs = sp.MatAdd(lhs, answer.offset, evaluate=False)
        entries = matrix_proof(
            printer,
            lhs,
            _column(shifted),
            lambda a, b: rule_proof(printer, a, b, (ANGLE_ADDITION,)),
        )
        offset = f", {statement.at(answer.offset)}" if fact.affine else ""
        witnesses = f"exists {statement.at(m)}{offset}"
        if fact.affine:
            conclusion = (
                f"exists M b : mat, forall {coq_name(pos)} : R, madd ({image}) b = {target}"
            )
        else:
            conclusion = f"exists M : mat, forall {coq_name(pos)} : R, {image} = {target}"
        proof = (f"{witnesses}.", f"intro {coq_name(pos)}.", *entries)
        return CoqLemma(name, bound, hyps, conclusion, proof)
    value = fact.evidence().value
    if fact.affine:
        raise NoProofError("the absence of an affine map is not stated")
    at_zero = [sp.simplify(e.subs(pos, 0)) for e in f]
    if any(v != 0 for v in at_zero):
        raise NoProofError("the encoding is not 0 at pos = 0, where the proof evaluates it")
    rows = [r for r in range(size) if sp.simplify(shifted[r].subs(pos, 0) - value) == 0]
    if not rows:
        raise NoProofError(f"no component of f(k) is the certificate's value {value}")
    r = rows[0]
    printer = Printer(context, canonical=True)
    image_at_0 = substitute(shifted[r], {pos: sp.Integer(0)})
    close = rule_proof(printer, value, image_at_0, ())
    proof = (
        "intros Hv [M H]. apply Hv.",
        f"pose proof (f_equal (fun A : mat => A {r}%nat 0%nat) (H 0)) as E. mat_unfold in E.",
        "rewrite ?sin_0, ?cos_0 in E.",
        f"transitivity ({statement.term(image_at_0)}).",
        "{",
        *(f"  {line}" for line in close),
        "}",
        "rewrite <- E. first [ring | field; side].",
    )
    conclusion = (
        f"{statement.term(value)} <> 0 -> ~ (exists M : mat, forall {coq_name(pos)} : R, "
        f"{image} = {target})"
    )
    return CoqLemma(name, bound, hyps, conclusion, proof)


def _column(entries: sp.ImmutableMatrix) -> sp.ImmutableMatrix:
    """entries as a column (a one-entry column is printed col [x], not rows [[x]])."""
    return sp.ImmutableMatrix(list(entries))
