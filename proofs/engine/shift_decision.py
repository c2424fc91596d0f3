"""Decide whether an encoding has a position-independent shift map M(k)·f(pos) = f(pos + k).

The method, for components built from sums and products of polynomials in pos, exp(c·pos),
sin(c·pos), cos(c·pos) (and sinh, cosh, a**(c·pos)):

1. Rewrite every component over the functions pos^n·e^{λ·pos}, λ complex; sin(c·pos) becomes
   (e^{ic·pos} − e^{−ic·pos})/2i. Functions with distinct (n, λ) are linearly independent
   over ℂ on the real line, so an identity between such sums holds iff the coefficients match.
2. Expand f(pos + k) the same way: e^{λ(pos+k)} = e^{λk}·e^{λ·pos}, (pos + k)^n by the binomial
   theorem.
3. The unknowns are the entries of M (and of b, for an affine map, whose basis gains the
   constant function 1). Matching coefficients gives a linear system, solved by
   proofs.engine.linear_system.solve_linear, which keeps every equation.
4. A solution is only a candidate: it is converted to real form and must pass a Derivation
   M·f(pos) (+ b) = f(pos + k), checked symbolically and numerically, and be free of pos.
   Only then is exists=True. A system without solution gives exists=False with a certificate:
   a combination of the coefficient equations that reduces to 0 = c(k), c provably nonzero.

What "exists" means. True: one formula M(k) works for every admissible k (the symbols'
assumptions). False: for every admissible k outside the zero set of c(k), which is stated, no
matrix works; k = 0 always admits the identity. None: the method could not decide; the reason
says why. If two exponents λ might coincide for some parameter values (is_zero of their
difference is None), a certificate of impossibility is not trusted and the answer is None;
a verified map is trusted regardless, because its identity holds term by term.

One procedure, kept in one file though it is a little over 400 lines: the candidate map, its
verification and the certificate of impossibility share the same basis and coefficient system.

One file because the method is one argument: rewrite over independent functions, solve the
coefficient system, then verify the map or certify the contradiction; each stage's output is
the next one's input, and the helpers (real forms, powers, notation) serve all three.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

import sympy as sp

from proofs.engine.budget import DEFAULT_TIMEOUT, run_with_budget, stage
from proofs.engine.derivation import Derivation, Step, Verdict
from proofs.engine.exp_poly import (
    Exponents,
    UnsupportedTermError,
    canonical,
    exp_poly,
    shift_poly,
)
from proofs.engine.floats import exact_floats, float_note
from proofs.engine.linear_system import solve_linear
from proofs.engine.number_size import check_exact_size, largest_number_bits
from proofs.engine.rules import MATRIX_PRODUCT
from proofs.engine.show import show
from proofs.engine.symbolic import diagnose
from proofs.engine.zero_test import is_zero, shield


@dataclass(frozen=True)
class Certificate:
    """Why no map exists: coefficient equations whose combination forces 0 = value.

    equations: (weight, component row (0-based), basis function, equation) for every
    equation the combination uses; the equation reads "expr = 0". value: the constant c(k)
    the combination reduces to. proof: how c(k) was shown nonzero. holds_for: the k for which
    the impossibility holds, in words.
    """

    equations: tuple[tuple[sp.Expr, int, sp.Expr, sp.Expr], ...]
    value: sp.Expr
    proof: str
    holds_for: str

    def lines(self) -> list[str]:
        """The certificate as human-readable lines."""
        out = [
            "no matrix exists: these coefficient equations (each reads lhs = 0) are incompatible"
        ]
        for weight, row, basis, eq in self.equations:
            out.append(
                f"  × {show(weight)}:  row {row + 1}, coefficient of {show(basis)}:  {show(eq)} = 0"
            )
        out.append(f"their combination leaves 0 = {show(self.value)}")
        out.append(f"which is false: {self.proof}")
        out.append(f"holds for: {self.holds_for}")
        return out


@dataclass(frozen=True)
class ShiftMap:
    """The answer of find_shift_map.

    exists: True (matrix, offset, derivation and verdict set), False (certificate set) or None.
    reason: one line. basis: the functions pos^n·e^{λ·pos} the components were rewritten over.
    free: unknowns the system left free, set to 0 in the matrix returned.
    """

    exists: bool | None
    reason: str
    components: tuple[sp.Expr, ...]
    pos: sp.Symbol
    k: sp.Symbol
    affine: bool
    matrix: sp.ImmutableMatrix | None = None
    offset: sp.ImmutableMatrix | None = None
    derivation: Derivation | None = None
    verdict: Verdict | None = None
    certificate: Certificate | None = None
    basis: tuple[sp.Expr, ...] = ()
    free: tuple[str, ...] = field(default=())

    @property
    def kind(self) -> str:
        return "affine" if self.affine else "linear"


# ---- step 4: real form, verification --------------------------------------------------------


def _euler(expr: sp.Expr) -> sp.Expr:
    """exp(a + i·b) -> e^a·(cos b + i·sin b), so trigonometric inputs give sin/cos of k."""

    def split(e: sp.exp) -> sp.Expr:
        terms = sp.Add.make_args(sp.expand(e.args[0]))
        imag = [t / sp.I for t in terms if not (t / sp.I).has(sp.I)]
        real = [t for t in terms if (t / sp.I).has(sp.I)]
        b = sp.Add(*imag)
        return sp.exp(sp.Add(*real)) * (sp.cos(b) + sp.I * sp.sin(b))

    return expr.replace(lambda e: isinstance(e, sp.exp), split)


# simplify() is skipped for values holding a number wider than this (see _tidy).
_SIMPLIFY_MAX_NUMBER_BITS = 64


def _tidy(expr: sp.Expr) -> sp.Expr:
    """simplify(expr) only when it is shorter: simplify also rewrites 10000**(2i/d) as 10**(8i/d).

    Constants SymPy would evaluate in floating point stand in as symbols meanwhile, so
    simplify cannot turn acosh(1 + 10**-20) into 0.
    """
    if len(expr.atoms(sp.Function)) <= 1 and sp.count_ops(expr) <= 3 and not _radical(expr):
        return expr  # ±f(c·k): nothing shorter to find, and simplify costs milliseconds
    if largest_number_bits(expr) > _SIMPLIFY_MAX_NUMBER_BITS:
        return expr  # exp((1 + 10**-30)*k) would be a power of exp(k/10**30) of degree 10**30
    shielded, back = shield(expr)
    simpler = sp.simplify(shielded).xreplace(back)
    return simpler if sp.count_ops(simpler) < sp.count_ops(expr) else expr


def _radical(expr: sp.Expr) -> bool:
    """Whether expr holds a power with an exponent other than an integer."""
    return any(not p.exp.is_Integer for p in expr.atoms(sp.Pow))


# The entries of a map recur (every pair of a d_model-wide map has the same form): tidied once.
@functools.lru_cache(maxsize=1024)
def _real_form(expr: sp.Expr) -> sp.Expr:
    # Merge exponentials first (e^{k(1+2i)}·e^{-ik} = e^{k(1+i)}), so that the imaginary parts
    # of e^{k}·(cos k + i sin k) cancel term by term instead of only after a trig identity.
    trig = sp.expand(_euler(sp.powsimp(sp.expand(expr), combine="exp")))
    return _tidy(trig if not trig.has(sp.I) else expr)


def _power_bases(comps: Sequence[sp.Expr], pos: sp.Symbol) -> tuple[sp.Expr, ...]:
    """The constant bases a of the powers a**(c·pos + d) in the components."""
    return tuple(
        dict.fromkeys(
            p.base for c in comps for p in c.atoms(sp.Pow) if p.exp.has(pos) and not p.base.has(pos)
        )
    )


def _as_powers(expr: sp.Expr, bases: tuple[sp.Expr, ...]) -> sp.Expr:
    """expr with each exp(t·log a), for a base a of the components, written a**t.

    Exact: SymPy defines a**t as exp(t·log a) on the principal branch. exp_poly wrote the
    component (-2)**pos as exp(pos·(log 2 + iπ)); its map entry exp(k·(log 2 + iπ)) is (-2)**k,
    the form in which M·f = f(pos + k) is the exponent law (-2)**k·(-2)**pos = (-2)**(pos + k).
    """
    for a in bases:
        log_a = sp.log(a)
        if log_a.is_zero is not False:
            continue

        def power(e: sp.exp, a: sp.Expr = a, log_a: sp.Expr = log_a) -> sp.Expr:
            t = sp.cancel(e.args[0] / log_a)
            return a**t if not t.has(sp.log, sp.I) else e

        expr = expr.replace(lambda e: isinstance(e, sp.exp), power)
    return expr


def _defined(expr: sp.Expr) -> bool:
    """Its denominator is provably nonzero: the entry is defined for every parameter value."""
    denominator = sp.denom(sp.together(expr))
    return is_zero(denominator) is False


def _vector(entries: Sequence[sp.Expr]) -> sp.ImmutableMatrix:
    return sp.ImmutableMatrix(list(entries))


def _derivation(
    m: sp.ImmutableMatrix,
    b: sp.ImmutableMatrix | None,
    f: sp.ImmutableMatrix,
    shifted: sp.ImmutableMatrix,
    affine: bool,
) -> Derivation:
    left = sp.MatMul(m, f, evaluate=False)
    if affine:
        left = sp.MatAdd(left, b, evaluate=False)
    product = m * f + (b if affine else sp.zeros(*f.shape))
    title = "M(k)·f(pos) + b(k) = f(pos + k)" if affine else "M(k)·f(pos) = f(pos + k)"
    # The last link cites the rules that close it, found by the same search a wrong citation
    # is diagnosed with; the check then applies exactly those (none found: the link cites none,
    # and any rule, certified numerically, may close it).
    product = sp.ImmutableMatrix(product)
    steps = [Step(left), Step(product, by=MATRIX_PRODUCT)]
    if product != shifted:
        steps.append(Step(shifted, by=diagnose(product, shifted), note="f(pos + k)"))
    return Derivation("shift_map", f"The shift map: {title} for all pos", tuple(steps))


# ---- the decision ---------------------------------------------------------------------------


def _check_arguments(components: object, pos: object, k: object) -> tuple[sp.Expr, ...]:
    if not isinstance(pos, sp.Symbol):
        raise TypeError(f"pos must be a SymPy Symbol, got {type(pos).__name__}")
    if not isinstance(k, sp.Symbol):
        raise TypeError(f"k must be a SymPy Symbol, got {type(k).__name__}")
    if k == pos:
        raise ValueError("k and pos must be different symbols")
    if pos.is_integer:
        raise ValueError("pos must not be an integer symbol: the question is about all real pos")
    if isinstance(components, str | bytes) or not isinstance(components, Sequence):
        raise TypeError(
            f"components must be a list of SymPy expressions, got {type(components).__name__}"
        )
    if not components:
        raise ValueError("components must hold at least one expression, got an empty list")
    out = []
    for j, c in enumerate(components):
        if isinstance(c, int) and not isinstance(c, bool):
            c = sp.Integer(c)
        if not isinstance(c, sp.Expr) or isinstance(c, sp.MatrixBase | sp.MatrixExpr):
            kind = type(c).__name__
            hint = (
                "; parse text with proofs.engine.parse.parse_expression first"
                if kind == "str"
                else ""
            )
            raise TypeError(f"component {j + 1} must be a SymPy expression, got {kind}{hint}")
        if c.has(k):
            raise ValueError(
                f"component {j + 1} ({c}) contains the shift symbol {k}; use another name"
            )
        if c.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
            raise ValueError(
                f"component {j + 1} ({c}) is not a finite function of pos: "
                "nan, oo and zoo are not allowed"
            )
        check_exact_size(c, f"component {j + 1}")
        out.append(c)
    return tuple(out)


def find_shift_map(
    components: Sequence[sp.Expr],
    pos: sp.Symbol,
    k: sp.Symbol,
    *,
    affine: bool = False,
    timeout: float | None = DEFAULT_TIMEOUT,
) -> ShiftMap:
    """Decide whether a matrix M(k), free of pos, has M(k)·f(pos) = f(pos + k) for all pos.

    components: the entries of f, SymPy expressions in pos (other symbols are constants).
    affine: ask for M(k)·f(pos) + b(k) = f(pos + k) instead. timeout: seconds (None: no
    limit); past it the answer is undecided, "timed out in <stage>". Returns a ShiftMap whose
    exists is True (with a verified matrix), False (with a certificate) or None (undecided,
    with the reason); it never guesses.
    """
    if not isinstance(affine, bool):
        raise TypeError(f"affine must be True or False, got {affine!r}")
    given = _check_arguments(components, pos, k)
    comps = tuple(exact_floats(c) for c in given)
    note = float_note(*given)

    def answer(exists: bool | None, reason: str, **kw: object) -> ShiftMap:
        return ShiftMap(exists, reason + note, comps, pos, k, affine, **kw)

    def timed_out(where: str) -> ShiftMap:
        return answer(None, f"timed out in {where} (budget {timeout} s)")

    try:
        return run_with_budget(lambda: _decide(comps, pos, k, affine, answer), timeout, timed_out)
    except RecursionError:
        raise ValueError("a component is nested too deeply to decide") from None


def _decide(comps, pos, k, affine, answer) -> ShiftMap:
    """find_shift_map's work, within the budget set by its caller."""
    kind = "affine" if affine else "linear"

    try:
        with stage("rewriting over pos^n·e^(λ·pos)"):
            raw = [exp_poly(sp.expand(c), pos) for c in comps]
    except UnsupportedTermError as bad:
        return answer(
            None,
            f"unsupported term {bad.term}: only sums and products of polynomials "
            "in pos, exp, sin, cos, sinh, cosh of (c·pos + d) are decided",
        )
    lams = [lam for p in raw for (_, lam) in p] + ([sp.Integer(0)] if affine else [])
    exps = Exponents.of(lams)
    polys = canonical(raw, exps)
    shifted = [shift_poly(p, k) for p in polys]
    keys = sorted(
        {key for p in polys + shifted for key in p}
        | ({(0, exps.rep(sp.Integer(0)))} if affine else set()),
        key=lambda t: (sp.default_sort_key(t[1]), t[0]),
    )
    basis = tuple(pos**n * sp.exp(lam * pos) for n, lam in keys)

    size = len(comps)
    m = [[sp.Dummy(f"m{i + 1}{j + 1}") for j in range(size)] for i in range(size)]
    b = [sp.Dummy(f"b{i + 1}") for i in range(size)] if affine else []
    unknowns = [u for row in m for u in row] + b
    equations, labels = [], []
    for i in range(size):
        for key in keys:
            eq = sum(m[i][j] * polys[j].get(key, 0) for j in range(size)) - shifted[i].get(key, 0)
            if affine and key[0] == 0 and key[1] == exps.rep(sp.Integer(0)):
                eq += b[i]
            equations.append(sp.expand(eq))
            labels.append((i, basis[keys.index(key)]))

    with stage("the coefficient linear system"):
        solution = solve_linear(equations, unknowns)
    if solution.status == "solved":
        values = {u: v.subs({f: 0 for f in solution.free}) for u, v in solution.solution.items()}
        return _confirm(answer, values, m, b, comps, pos, k, affine, basis, solution.free)
    generic = _generic_candidate(equations, unknowns) if solution.status == "undecided" else None
    if generic is not None:
        found = _confirm(answer, generic[0], m, b, comps, pos, k, affine, basis, generic[1])
        if found.exists:
            return found
    if exps.unsure:
        pairs = "; ".join(f"{show(a)} and {show(c)}" for a, c in exps.unsure)
        return answer(
            None,
            f"no {kind} map found, but the exponents {pairs} may coincide for some "
            "parameter values, so matching coefficients could be too strict",
            basis=basis,
        )
    cert = _certificate(equations, unknowns, labels, k)
    if isinstance(cert, str):
        return answer(None, f"{solution.reason}; {cert}", basis=basis)
    return answer(
        False,
        f"no {kind} map: the coefficient equations force 0 = {show(cert.value)}",
        certificate=cert,
        basis=basis,
    )


def _generic_candidate(
    equations: list[sp.Expr], unknowns: list[sp.Symbol]
) -> tuple[dict[sp.Symbol, sp.Expr], tuple[sp.Symbol, ...]] | None:
    """A solution for generic parameter values (verified afterwards, never trusted as is)."""
    solutions = sp.linsolve(equations, unknowns)
    if not isinstance(solutions, sp.FiniteSet) or not solutions.args:
        return None
    values = solutions.args[0]
    free = tuple(sorted(set().union(*(v.free_symbols for v in values)) & set(unknowns), key=str))
    return {u: v.subs({f: 0 for f in free}) for u, v in zip(unknowns, values, strict=True)}, free


def _confirm(answer, values, m, b, comps, pos, k, affine, basis, free) -> ShiftMap:
    """Turn a solution of the coefficient system into a map, and keep it only if it verifies."""
    size = len(comps)
    bases = _power_bases(comps, pos)

    def entry(value: sp.Expr) -> sp.Expr:
        return _as_powers(_real_form(value), bases)

    matrix = sp.ImmutableMatrix(
        [[entry(values[m[i][j]]) for j in range(size)] for i in range(size)]
    )
    offset = _vector([entry(values[u]) for u in b]) if affine else None
    entries = list(matrix) + (list(offset) if affine else [])
    undefined = [e for e in entries if not _defined(e)]
    if undefined:
        return answer(
            None,
            f"a map exists only where {show(sp.denom(sp.together(undefined[0])))} ≠ 0, "
            "and that cannot be decided",
            basis=basis,
        )
    f = _vector(comps)
    derivation = _derivation(
        matrix, offset, f, _vector([c.subs(pos, pos + k) for c in comps]), affine
    )
    with stage("verifying the candidate map"):
        verdict = derivation.verify(timeout=None)
    free_of_pos = pos not in sp.ImmutableMatrix(entries).free_symbols
    free_names = tuple(str(u).lstrip("_") for u in free)
    if verdict.proved and free_of_pos:
        note = f"; free entries {', '.join(free_names)} set to 0" if free_names else ""
        return answer(
            True,
            f"{'an affine' if affine else 'a linear'} map exists and verifies: "
            f"{verdict.reason}{note}",
            matrix=matrix,
            offset=offset,
            derivation=derivation,
            verdict=verdict,
            basis=basis,
            free=free_names,
        )
    why = verdict.reason if not verdict.proved else "the map contains pos"
    return answer(
        None,
        f"the candidate map did not verify ({why})",
        derivation=derivation,
        verdict=verdict,
        basis=basis,
    )


def _certificate(
    equations: list[sp.Expr],
    unknowns: list[sp.Symbol],
    labels: list[tuple[int, sp.Expr]],
    k: sp.Symbol,
) -> Certificate | str:
    """A combination y of the equations with yᵀA = 0 and y·b = c(k) ≠ 0, or why there is none."""
    a, rhs = sp.linear_eq_to_matrix(equations, unknowns)
    ys = [sp.Dummy(f"y{j}") for j in range(len(equations))]
    left_null = solve_linear(
        [sum(a[j, c] * ys[j] for j in range(len(ys))) for c in range(a.cols)], ys
    )
    if left_null.status != "solved":
        return f"no certificate either: {left_null.reason}"
    for t in left_null.free:
        weights = [
            sp.cancel(left_null.solution[y].subs({f: int(f == t) for f in left_null.free}))
            for y in ys
        ]
        # Proved nonzero in exact form; simplify() only tidies what is shown.
        exact = sp.expand(sum(w * r for w, r in zip(weights, rhs, strict=True)))
        proof = _nonzero_in(exact, k)
        value = _tidy(_real_form(exact))
        if proof is None:
            continue
        used = tuple(
            (w, labels[j][0], labels[j][1], equations[j]) for j, w in enumerate(weights) if w != 0
        )
        return Certificate(used, value, proof, _where(value, k))
    return "no combination of the equations was shown to be nonzero"


def _nonzero_in(value: sp.Expr, k: sp.Symbol) -> str | None:
    """How value is known not to vanish (for every, or for generic, admissible k), or None."""
    if is_zero(value) is False:
        return "it is nonzero for every admissible value of its symbols"
    if k.is_integer or not value.has(k):
        return None  # exponential polynomials may vanish at every integer (sin(π·k))
    try:
        poly = exp_poly(sp.expand(value), k)
    except UnsupportedTermError:
        return None
    exps = Exponents.of([lam for _, lam in poly])
    if exps.unsure:
        return None
    for (n, lam), c in canonical([poly], exps)[0].items():
        if is_zero(c) is False:
            term = show(k**n * sp.exp(lam * k))
            return (
                f"as a function of k it has the nonzero coefficient {show(c)} "
                f"of {term} over independent functions k^n·e^(λk), so it is not identically 0"
            )
    return None


def _where(value: sp.Expr, k: sp.Symbol) -> str:
    if is_zero(value) is False:
        return f"every admissible k ({_domain_words(k)})"
    return f"every admissible k with {show(value)} ≠ 0 (k = 0 always admits the identity map)"


def _domain_words(k: sp.Symbol) -> str:
    words = [
        w for w in ("positive", "negative", "nonzero", "integer", "real") if k.assumptions0.get(w)
    ]
    return f"{k} {' '.join(words)}" if words else f"{k} any complex number"
