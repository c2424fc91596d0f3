"""The course notes as a lesson: the module's order, its words and tables, and the proofs.

build_lesson takes the verified theorems (proofs.cli.verify) and the module's tables
(numeric.module_tables), and writes the lesson once as blocks (proofs.render.lesson_blocks);
every format prints the same blocks. Chains are taken from the verified theorems, never
rebuilt here, so what the notes show is what was checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import sympy as sp

from numeric.checks.layouts import conventions_table
from numeric.table import Table
from proofs.definitions import BASE, D_MODEL, OMEGA_I, POS, I, K, L, omega, rotation_matrix
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import Part
from proofs.render.latex_math import latex_math
from proofs.render.lesson_blocks import (
    AppendixStart,
    Block,
    Chain,
    Emph,
    Equations,
    Figure,
    Heading,
    Items,
    Lesson,
    Link,
    Para,
    Piece,
    ProofEnd,
    Quote,
    Ref,
    Section,
    TableBlock,
    TheoremStatement,
)
from proofs.render.notes_checked import Checked

TITLE = "The sinusoidal positional encoding, proved"
SUBTITLE = "Companion notes to module 10"

PE = sp.Function("PE")
PE_I = sp.Function("PE_i")
R = sp.Function("R")
P = sp.Symbol("p", real=True)
THETA = sp.Symbol("theta", real=True)
MAX_LEN = sp.Symbol("max_len", positive=True)
# Printing only: the last pair's frequency and the shift matrix's name.
OMEGA_0 = sp.Symbol("omega_0", positive=True)
OMEGA_1 = sp.Symbol("omega_1", positive=True)
OMEGA_2 = sp.Symbol("omega_2", positive=True)
OMEGA_LAST = sp.Symbol("omega_last", positive=True)
r = sp.Function("r")

# Names of things the lesson mentions as wholes (vectors, norms, matrices by name): each is a
# SymPy symbol, set by the printer from this table as pos and ω_i are (proofs.definitions).
NAMES: dict[str, str] = {
    "omega_0": r"\omega_{0}",
    "omega_1": r"\omega_{1}",
    "omega_2": r"\omega_{2}",
    "omega_last": r"\omega_{d_{\mathrm{model}}/2-1}",
    "omega_next": r"\omega_{i+1}",
    "M_k": r"M_{k}",
    "M_j": r"M_{j}",
    "M_jk": r"M_{j+k}",
    "M_kT": r"M_{k}^{\mathsf{T}}",
    "M_minus_k": r"M_{-k}",
    "M_pT": r"M_{p}^{\mathsf{T}}",
    "M_minus_p": r"M_{-p}",
    "M_m": r"M_{m}",
    "M_mp": r"M_{m-p}",
    "Id": r"I",
    "P": r"P",
    "P_T": r"P^{\mathsf{T}}",
    "C": r"C",
    "S": r"S",
    "norm_pe": r"\lVert \operatorname{PE}(\mathrm{pos}) \rVert^{2}",
    "dot_pk": r"\operatorname{PE}(p) \cdot \operatorname{PE}(p + k)",
    "dot_back": r"\operatorname{PE}(\mathrm{pos}) \cdot \operatorname{PE}(\mathrm{pos} - k)",
    "dot_ahead": r"\operatorname{PE}(\mathrm{pos}) \cdot \operatorname{PE}(\mathrm{pos} + k)",
    "dist": r"\lVert \operatorname{PE}(\mathrm{pos} + k) - \operatorname{PE}(\mathrm{pos}) \rVert^{2}",
    "affine": r"r \mapsto r + k/L",
    "score": r"\bigl(R(p\theta)\, q\bigr)^{\mathsf{T}} R(m\theta)\, \kappa",
    "score_rel": r"q^{\mathsf{T}} R\bigl((m - p)\theta\bigr)\, \kappa",
    "s_p": r"s(p)",
    "dim": r"\mathrm{dim}",
    "kappa": r"\kappa",
    "ddots": r"\ddots",
    "max_len": r"\mathrm{max\_len}",
    "u_dot_v": r"u \cdot v",
    "uT_v": r"u^{\mathsf{T}} v",
}


def named(name: str) -> sp.Symbol:
    """The symbol the printer sets as NAMES[name]; noncommutative, so products keep their order."""
    return sp.Symbol(name, commutative=False)


M_K = named("M_k")

# Figure stem -> (drawing function, keyword arguments); every format draws the same figures.
FIGURES: dict[str, tuple[str, dict[str, object]]] = {
    "heatmap": ("numeric.plots.heatmap.heatmap_figure", {"max_len": 50, "d_model": 64}),
    "spectrum": ("numeric.plots.frequencies.frequencies_figure", {"max_len": 50, "d_model": 8}),
    "circle": ("numeric.plots.circle.circle_figure", {"k": 5, "positions": (0, 3, 7)}),
    "similarity": ("numeric.plots.similarity.similarity_figure", {"d_model": 8, "max_len": 50}),
}
FIGURE_NUMBER = {"heatmap": 1, "circle": 2, "similarity": 3, "spectrum": 4}


def fig(stem: str) -> Ref:
    """A reference to a figure by its stem."""
    return Ref("Figure", f"fig:{stem}", FIGURE_NUMBER[stem])


THEOREM_NUMBER = {
    "frequencies": 1,
    "bounded": 2,
    "unique": 3,
    "rotation": 4,
    "ramp": 5,
    "similarity": 6,
    "dot_product": 7,
    "group": 8,
    "layouts": 9,
    "rope": 10,
}


def thm(name: str) -> Ref:
    """A reference to a theorem by its name."""
    return Ref("Theorem", f"thm:{name}", THEOREM_NUMBER[name])


# Rules written as a formula, and the name the lesson gives them.
RULE_NAMES = {
    "cos(p − q) = cos p cos q + sin p sin q": "angle subtraction",
    "Pythagorean identity sin²x + cos²x = 1": "Pythagorean identity",
    "(Ab)ᵀ = bᵀAᵀ": "transpose of a product",
}


# Short rules that would carry a formula, in words.
SHORT_NAMES = {
    "factor out ω_i": "factor out the frequency",
    "read back as qᵀ·R((m − p)θ)·κ": "read back as a product",
    "regroup by q_a·κ_b": "regroup the terms",
    "count the d_model/2 terms": "count the terms",
}


def short_rule(justification: str) -> str:
    """The rule of a step in a few words: its name, or the text before a colon or semicolon."""
    text = RULE_NAMES.get(justification, justification)
    short = text.split(":")[0].split(";")[0].split(" (")[0].strip()
    return SHORT_NAMES.get(short, short)


def lesson_chain(derivation: Derivation, *, frequency_symbol: bool = True) -> Derivation:
    """The derivation with each rule cut to its name (the appendix keeps the full text), the
    frequency shown as ω_i (unless frequency_symbol is False: a chain about ω_i itself), and a
    step that prints like the one before merged into it."""
    display = derivation.display
    if frequency_symbol and (omega(), OMEGA_I) not in display:
        display = (*display, (omega(), OMEGA_I))
    steps: list[Step] = []
    for s in derivation.steps:
        rule = short_rule(s.justification)
        if steps and latex_math(s.expr, display) == latex_math(steps[-1].expr, display):
            steps[-1] = Step(steps[-1].expr, f"{steps[-1].justification}, {rule}")
            continue
        steps.append(Step(s.expr, rule))
    return replace(derivation, steps=tuple(steps), display=display)


class _Parts:
    """The verified parts of the theorems, looked up by theorem and title prefix."""

    def __init__(self, checked: Sequence[Checked], brief: bool) -> None:
        self.by_name = {c.name: c for c in checked}
        self.brief = brief

    def part(self, name: str, prefix: str) -> Part:
        for pr in self.by_name[name].result.parts:
            if pr.part.title.startswith(prefix):
                if pr.verdict.status != "proved":
                    raise ValueError(f"theorem {name}: part {prefix!r} is not proved")
                return pr.part
        raise ValueError(f"theorem {name} has no part titled {prefix!r}…")

    def chain(self, name: str, prefix: str, *intro: Piece) -> Chain:
        part = self.part(name, prefix)
        if not isinstance(part, Derivation):
            raise TypeError(f"theorem {name}: part {prefix!r} is not a chain")
        return Chain(lesson_chain(part, frequency_symbol=name != "frequencies"), tuple(intro))

    def twin(self, name: str, caption: str | tuple[Piece, ...]) -> tuple[Block, ...]:
        """The theorem's twin table, in the full notes only (the brief keeps the module's)."""
        table = self.by_name[name].table
        source = f'registry.build("{name}").run_twin()'
        return () if self.brief or table is None else (TableBlock(table, caption, None, source),)


def module_table(
    tables: dict[str, Table],
    key: str,
    caption: str | tuple[Piece, ...],
    note: str | None = None,
) -> TableBlock:
    """One of the module's tables (numeric.module_tables), recomputed live."""
    return TableBlock(tables[key], caption, note, f'tables["{key}"]')


def quote(*pieces: Piece) -> Quote:
    """The module's words, quoted."""
    return Quote(pieces)


def eq(lhs: sp.Basic, rhs: sp.Basic) -> sp.Eq:
    """An equation kept as written."""
    return sp.Eq(lhs, rhs, evaluate=False)


def pair(pos: sp.Expr, w: sp.Expr = OMEGA_I) -> sp.ImmutableMatrix:
    return sp.ImmutableMatrix([sp.sin(pos * w), sp.cos(pos * w)])


def theorem(name: str, title: str, *pieces: Piece, formulas: Sequence[sp.Basic] = ()) -> Block:
    return TheoremStatement(THEOREM_NUMBER[name], f"thm:{name}", title, pieces, tuple(formulas))


# ── Front matter ─────────────────────────────────────────────────────────────────────────────


def introduction(brief: bool) -> Section:
    last = (
        ""
        if brief
        else " The appendix says, step by step, how each check was made and what it found."
    )
    return Section(
        "introduction",
        "Introduction",
        (
            Para(
                (
                    "Module 09 showed that attention on its own cannot tell word orders apart: "
                    "it compares tokens, not places, so position has to be added to each token's "
                    "embedding before attention runs. Module 10 builds the scheme of the original "
                    "Transformer, fixed sines and cosines at different frequencies, and checks "
                    "it numerically on a table of 50 positions with ",
                    eq(D_MODEL, 8),
                    ": every value lies in ",
                    sp.Interval(-1, 1),
                    ", all 50 rows are different, and one rotation matrix, which depends on the "
                    "offset ",
                    K,
                    " only, moves the encoding of ",
                    POS,
                    " to that of ",
                    POS + K,
                    " at five tested positions.",
                ),
            ),
            Para(
                (
                    "These notes prove the same properties for every position, every offset and "
                    "every ",
                    D_MODEL,
                    ", so the checks at a few points become facts. Each proof is a short chain "
                    "of equalities with the rule of each step written beside it. Every step was "
                    "checked twice, independently: once by exact algebra, and once by "
                    "evaluating both sides at random points to many digits. The tables are the "
                    "module's own, recomputed when these notes were made, so their digits are "
                    "the module's. One section goes beyond the module: the independent "
                    "challenge, where the notes prove what a linear ramp really loses." + last,
                ),
            ),
        ),
    )


def definitions() -> Section:
    return Section(
        "definitions",
        "Definitions",
        (
            Para(
                (
                    "Dimensions come in pairs, one sine and one cosine at the same frequency. "
                    "For a position ",
                    POS,
                    " and a pair index ",
                    I,
                    " from ",
                    sp.Integer(0),
                    " to ",
                    D_MODEL / 2 - 1,
                    ":",
                ),
            ),
            Equations(
                (
                    eq(PE(POS, 2 * I), sp.sin(POS * OMEGA_I)),
                    eq(PE(POS, 2 * I + 1), sp.cos(POS * OMEGA_I)),
                    eq(OMEGA_I, omega()),
                )
            ),
            Para(
                (
                    "Since ",
                    eq(OMEGA_I, sp.Pow(BASE ** (2 * I / D_MODEL), -1, evaluate=False)),
                    ", the angle ",
                    POS * OMEGA_I,
                    " is the module's ",
                    POS,
                    " divided by ",
                    BASE ** (2 * I / D_MODEL),
                    ". We call ",
                    OMEGA_I,
                    " the frequency of pair ",
                    I,
                    ", and write ",
                    eq(PE_I(POS), sp.Tuple(*pair(POS))),
                    " for pair ",
                    I,
                    " and ",
                    PE(POS),
                    " for the whole column of ",
                    D_MODEL,
                    " values. A dot product is ",
                    eq(named("u_dot_v"), named("uT_v")),
                    ". The module's rotation matrix and the block-diagonal matrix that applies it "
                    "to every pair are",
                ),
            ),
            Equations(
                (
                    eq(R(THETA), rotation_matrix(THETA)),
                    eq(M_K, block_shift()),
                )
            ),
            Para(
                (
                    "Each ",
                    sp.Integer(0),
                    " is a ",
                    sp.Integer(2),
                    "-by-",
                    sp.Integer(2),
                    " block of zeros. The module's alternative, the linear ramp, is one "
                    "number per position: ",
                    eq(r(POS), POS / L),
                    " with ",
                    eq(L, MAX_LEN),
                    ".",
                ),
            ),
        ),
    )


def block_shift() -> sp.ImmutableMatrix:
    """M_k by its blocks: R(kω_0), …, R(kω_last) on the diagonal, zero blocks elsewhere."""
    dots = named("ddots")
    return sp.ImmutableMatrix([[R(K * OMEGA_0), 0, 0], [0, dots, 0], [0, 0, R(K * OMEGA_LAST)]])


# ── The module's sections ────────────────────────────────────────────────────────────────────


def formula_section(parts: _Parts, tables: dict[str, Table]) -> Section:
    return Section(
        "formula",
        "The formula and its frequencies",
        (
            quote(
                "Each pair of dimensions oscillates at a different frequency — low dimension "
                "indices oscillate fast (high frequency), high dimension indices oscillate "
                "slowly (low frequency, since the divisor ",
                BASE ** (2 * I / D_MODEL),
                " grows with ",
                I,
                ").",
            ),
            theorem(
                "frequencies",
                "Low pairs turn fast, high pairs slowly",
                "For every ",
                D_MODEL,
                ", the first frequency is ",
                eq(OMEGA_0, 1),
                ", each frequency is a fixed factor below the one before, and pair ",
                I,
                " repeats after ",
                eq(2 * sp.pi / OMEGA_I, 2 * sp.pi * BASE ** (2 * I / D_MODEL)),
                ", a period that grows with ",
                I,
                ".",
                formulas=(
                    eq(
                        sp.Symbol("omega_next", positive=True) / OMEGA_I,
                        BASE ** (-2 / D_MODEL),
                    ),
                ),
            ),
            parts.chain(
                "frequencies", "Consecutive", Emph("Proof."), " Divide consecutive frequencies:"
            ),
            Para(
                (
                    "The factor is below ",
                    sp.Integer(1),
                    " because ",
                    BASE,
                    " exceeds ",
                    sp.Integer(1),
                    " and the exponent is negative; at ",
                    eq(I, 0),
                    " the exponent of ",
                    OMEGA_I,
                    " is ",
                    sp.Integer(0),
                    ", so ",
                    eq(OMEGA_0, 1),
                    ". For the period, shift the position by ",
                    2 * sp.pi / OMEGA_I,
                    ":",
                ),
            ),
            parts.chain("frequencies", "Pair i repeats"),
            ProofEnd(),
            module_table(
                tables,
                "pe_rows",
                "The module's rows PE(0), PE(1) and PE(10) of the (50, 8) table, recomputed.",
            ),
            Para(
                (
                    "Row ",
                    PE(0),
                    " is ",
                    sp.Integer(0),
                    ", ",
                    sp.Integer(1),
                    ", ",
                    sp.Integer(0),
                    ", ",
                    sp.Integer(1),
                    ", … because ",
                    eq(sp.sin(0, evaluate=False), 0),
                    " and ",
                    eq(sp.cos(0, evaluate=False), 1),
                    " at every frequency. From ",
                    PE(1),
                    " to ",
                    PE(10),
                    " the first pair (",
                    eq(OMEGA_0, 1),
                    ") has moved a long way, while the last pair has hardly moved.",
                ),
            ),
            *parts.twin("frequencies", "The frequency and the period of each pair."),
            Figure(
                "heatmap",
                FIGURE_NUMBER["heatmap"],
                "fig:heatmap",
                (
                    "The encoding ",
                    PE(POS, named("dim")),
                    " for 50 positions and ",
                    eq(D_MODEL, 64),
                    ". Low dimensions (bottom) alternate fast; high dimensions barely change.",
                ),
            ),
            Para(
                (
                    Emph("What this means. "),
                    "Each pair is a clock hand turning at its own speed: the first pair turns "
                    "once every ",
                    2 * sp.pi,
                    " positions, each later pair more slowly (",
                    fig("heatmap"),
                    "). Fast pairs tell neighbouring positions apart; slow pairs tell far-apart "
                    "regions apart.",
                ),
            ),
        ),
    )


def bounded_section(parts: _Parts, tables: dict[str, Table]) -> Section:
    facts = [
        parts.part("bounded", t)
        for t in ("sin(pos·ω_i) ≤", "sin(pos·ω_i) ≥", "cos(pos·ω_i) ≤", "cos(pos·ω_i) ≥")
    ]
    return Section(
        "bounded",
        "Bounded",
        (
            quote(
                "Every value stays within [-1, 1] — bounded, unlike raw position indices which "
                "grow without limit, a real practical advantage for combining with token "
                "embeddings whose values are typically also small."
            ),
            theorem(
                "bounded",
                "The encoding is bounded and every row has the same length",
                "For every real ",
                POS,
                ", every entry of ",
                PE(POS),
                " lies in ",
                sp.Interval(-1, 1),
                ", and every row has the same squared length:",
                formulas=(eq(named("norm_pe"), D_MODEL / 2),),
            ),
            parts.chain(
                "bounded", "One pair has unit length", Emph("Proof."), " One pair has length 1:"
            ),
            Para(
                (
                    "Each bound is a square, which cannot be negative (write ",
                    eq(sp.Symbol("x"), POS * OMEGA_I),
                    "):",
                ),
            ),
            Equations(tuple(bound_equation(f) for f in facts)),
            Para(("Summing the pair identity over the pairs gives the length of the row:",)),
            parts.chain("bounded", "The whole vector, any d_model"),
            ProofEnd(),
            module_table(tables, "bounds", "The module's bound check on the (50, 8) table."),
            Para(
                (
                    Emph("What this means. "),
                    "Whatever the position, even ",
                    eq(POS, sp.Pow(10, 6, evaluate=False)),
                    ", the encoding's values stay as small as a token embedding's, and every "
                    "position adds a vector of the same length ",
                    sp.Pow(D_MODEL / 2, sp.Rational(1, 2), evaluate=False),
                    ". The colour scale of ",
                    fig("heatmap"),
                    " ends at ",
                    sp.Integer(-1),
                    " and ",
                    sp.Integer(1),
                    " for this reason. A raw index ",
                    POS,
                    " grows without bound.",
                ),
            ),
        ),
    )


def bound_equation(fact: Part) -> sp.Basic:
    """A bound fact as 'expr = witness ≥ 0', in x = pos·ω_i."""
    x = sp.Symbol("x", real=True)
    w = omega()
    sub = {POS * w: x}
    expr = fact.expr.subs(sub)
    witness = fact.witness.subs(sub)
    return sp.GreaterThan(sp.Eq(expr, witness, evaluate=False), 0, evaluate=False)


def unique_section(parts: _Parts, tables: dict[str, Table]) -> Section:
    p, q = sp.Symbol("p", integer=True), sp.Symbol("q", integer=True)
    m = sp.Symbol("m", integer=True)
    return Section(
        "unique",
        "Unique",
        (
            quote(
                "50 unique rows out of 50 — no two positions (across the 50 tested) share an "
                "identical encoding."
            ),
            theorem(
                "unique",
                "Distinct positions have distinct encodings",
                "For every ",
                D_MODEL,
                " and all integers ",
                sp.Ne(p, q),
                ", ",
                sp.Ne(PE(p), PE(q)),
                ". Already the first pair differs.",
            ),
            Para(
                (
                    Emph("Proof."),
                    " The first pair has ",
                    eq(OMEGA_0, 1),
                    " (",
                    thm("frequencies"),
                    "), so it is ",
                    eq(sp.Function("PE_0")(POS), sp.Tuple(*pair(POS, 1))),
                    ". The squared distance between the first pairs at ",
                    p,
                    " and ",
                    q,
                    " is",
                ),
            ),
            parts.chain("unique", "Squared distance"),
            Para(
                (
                    "It vanishes only if ",
                    eq(sp.cos(p - q), 1),
                    ", that is, if ",
                    eq(p - q, 2 * sp.pi * m),
                    " for an integer ",
                    m,
                    ". For ",
                    eq(m, 0),
                    " this says ",
                    eq(p, q),
                    ". For ",
                    sp.Ne(m, 0),
                    " it says ",
                    eq(sp.pi, (p - q) / (2 * m)),
                    ", a fraction, but ",
                    sp.pi,
                    " is irrational. So the first pairs, and with them the rows, differ.",
                ),
            ),
            ProofEnd(),
            module_table(tables, "unique", "The module's uniqueness check on the (50, 8) table."),
            Para(
                (
                    Emph("What this means. "),
                    "The first pair walks round the unit circle one radian per position (",
                    fig("circle"),
                    ") and, because a full turn is ",
                    2 * sp.pi,
                    ", an irrational number of positions, it never lands twice on the same point. "
                    "So no table is ever long enough to repeat a row, and the encoding always "
                    "gives attention the distinction that module 09 showed it needs. The proof "
                    "uses that positions are integers: for real positions and ",
                    eq(D_MODEL, 8),
                    " the frequencies ",
                    sp.Integer(1),
                    ", ",
                    sp.Rational(1, 10),
                    ", ",
                    sp.Rational(1, 100),
                    ", ",
                    sp.Rational(1, 1000),
                    " share the period ",
                    2000 * sp.pi,
                    ", and ",
                    eq(PE(POS + 2000 * sp.pi), PE(POS)),
                    ".",
                ),
            ),
        ),
    )


def rotation_section(parts: _Parts, tables: dict[str, Table]) -> Section:
    return Section(
        "rotation",
        "The rotation",
        (
            quote(
                "For any fixed offset k, there exists a linear transformation that maps PE(pos) "
                "to PE(pos + k), the same transformation regardless of what pos is."
            ),
            theorem(
                "rotation",
                "A fixed rotation shifts the encoding",
                "For all real ",
                POS,
                " and ",
                K,
                " and every pair ",
                I,
                ", the rotation ",
                R(K * OMEGA_I),
                ", which does not contain ",
                POS,
                ", moves pair ",
                I,
                " from ",
                POS,
                " to ",
                POS + K,
                "; so ",
                M_K,
                " moves the whole encoding:",
                formulas=(
                    eq(
                        sp.MatMul(rotation_matrix(K * OMEGA_I), pair(POS), evaluate=False),
                        pair(POS + K),
                    ),
                    eq(sp.Mul(M_K, PE(POS), evaluate=False), PE(POS + K)),
                ),
            ),
            parts.chain(
                "rotation", "One pair", Emph("Proof."), " Multiply out and use angle addition:"
            ),
            Para(
                (
                    "Nothing in ",
                    R(K * OMEGA_I),
                    " depends on ",
                    POS,
                    ": its entries are ",
                    sp.cos(K * OMEGA_I),
                    " and ",
                    sp.sin(K * OMEGA_I),
                    ". The matrix ",
                    M_K,
                    " is block diagonal, so its block ",
                    I,
                    " acts on pair ",
                    I,
                    " alone; the pair identity, once per block, gives ",
                    eq(sp.Mul(M_K, PE(POS), evaluate=False), PE(POS + K)),
                    ".",
                ),
            ),
            ProofEnd(),
            module_table(
                tables,
                "rotation",
                "The module's check: one R(5) on dims 0-1 predicts PE(pos+5) from PE(pos).",
                "The same R(5) at every pos; match: predicted equals actual to the module's tolerance.",
            ),
            Figure(
                "circle",
                FIGURE_NUMBER["circle"],
                "fig:circle",
                (
                    "The first pair ",
                    sp.Tuple(*pair(POS, 1)),
                    " on the unit circle at ",
                    eq(POS, 0),
                    ", ",
                    sp.Integer(3),
                    ", ",
                    sp.Integer(7),
                    " (circles) and at ",
                    POS + 5,
                    " (squares). The same rotation by the angle ",
                    eq(K, 5),
                    " takes each circle to its square.",
                ),
                width=0.36,
            ),
            Para(
                (
                    Emph("What this means. "),
                    "Moving ",
                    K,
                    " positions on is one matrix multiplication, by the same matrix wherever "
                    "you start (",
                    fig("circle"),
                    "). A layer that has learned ",
                    M_K,
                    " for one offset can apply it at every position, so relative position "
                    "(\u201cthe token three back\u201d) is ordinary linear algebra. The proof "
                    "never used that ",
                    POS,
                    " or ",
                    K,
                    " is an integer.",
                ),
            ),
        ),
    )


def ramp_section(parts: _Parts, brief: bool) -> Section:
    a = sp.Symbol("a", real=True)
    blocks: list[Block] = [
        quote(
            "Raw integers grow unboundedly, and there's no natural linear relationship between "
            "“position 5” and “position 10” the way there is between PE(5) and PE(10)."
        ),
        Para(
            (
                "The raw index ",
                POS,
                " fails the bound of ",
                thm("bounded"),
                ". The ramp ",
                eq(r(POS), POS / L),
                " of the independent challenge is bounded on the table, so the question is "
                "what it loses. Two theorems answer it.",
            ),
        ),
        theorem(
            "ramp",
            "The ramp has no linear shift, but an affine one",
            "For every real ",
            sp.Ne(K, 0),
            " no number ",
            a,
            ", the same for all ",
            POS,
            ", gives ",
            eq(a * r(POS), r(POS + K)),
            ". The affine map ",
            named("affine"),
            " does move ",
            r(POS),
            " to ",
            r(POS + K),
            " for every ",
            POS,
            ".",
        ),
        parts.chain(
            "ramp", "What a single scalar", Emph("Proof."), " The scalar would have to make"
        ),
        Para(
            (
                "vanish for every ",
                POS,
                ". A polynomial in ",
                POS,
                " that vanishes everywhere has zero coefficients, so ",
                eq(a, 1),
                " and ",
                eq(K / L, 0),
                ", impossible for ",
                sp.Ne(K, 0),
                ". The affine map works at every position:",
            ),
        ),
        parts.chain("ramp", "The ramp does admit"),
        ProofEnd(),
        Para(
            (
                "So the ramp does have a shift that ignores where you are. What it loses shows "
                "in the quantity attention computes, the dot product of two encodings:",
            ),
        ),
        theorem(
            "similarity",
            "Similarity sees the offset under the sinusoids, the position under the ramp",
            "For all real ",
            P,
            " and ",
            K,
            " and every ",
            D_MODEL,
            ", the dot product of the sinusoidal encodings depends on the offset ",
            K,
            " alone, while the ramp's product depends on ",
            P,
            ":",
            formulas=(
                eq(
                    named("dot_pk"),
                    sp.Sum(sp.cos(K * OMEGA_I), (I, 0, D_MODEL / 2 - 1)),
                ),
                eq(sp.Mul(r(P), r(P + K), evaluate=False), P * (P + K) / L**2),
            ),
        ),
        parts.chain("similarity", "The sinusoidal similarity", Emph("Proof."), " One pair:"),
        parts.chain(
            "similarity", "The whole vector", "Summing over the pairs, nothing depends on ", P, ":"
        ),
        Para(
            (
                "For the ramp write ",
                eq(named("s_p"), sp.Mul(r(P), r(P + K), evaluate=False)),
                ". A function of ",
                K,
                " alone would have second difference ",
                sp.Integer(0),
                " in ",
                P,
                "; the ramp's is not:",
            ),
        ),
        parts.chain("similarity", "The ramp's similarity"),
        parts.chain("similarity", "Its second difference"),
        Para(
            (
                "and ",
                sp.Ne(2 / L**2, 0, evaluate=False),
                " since ",
                sp.StrictGreaterThan(L, 0, evaluate=False),
                ".",
            )
        ),
        ProofEnd(),
    ]
    blocks += parts.twin(
        "similarity", "Both similarities read off the tables, at four positions p."
    )
    blocks += [
        Figure(
            "similarity",
            FIGURE_NUMBER["similarity"],
            "fig:similarity",
            (
                "Left: ",
                named("dot_pk"),
                " against ",
                K,
                " for ",
                eq(P, 0),
                ", ",
                sp.Integer(10),
                ", ",
                sp.Integer(20),
                ", ",
                sp.Integer(30),
                ": the four curves coincide. Right: ",
                sp.Mul(r(P), r(P + K), evaluate=False),
                " for the same ",
                P,
                ": four different lines.",
            ),
        ),
        Para(
            (
                Emph("What this means. "),
                "Attention scores two positions by a dot product. Under the sinusoidal "
                "encoding that score sees only how far apart the positions are (",
                fig("similarity"),
                ", left); under the ramp it sees where they are (right): positions ",
                sp.Integer(1),
                " apart score ",
                sp.Integer(0),
                " at the start of the table and almost ",
                sp.Integer(1),
                " at its end. A model using the ramp has to learn relative position from scratch.",
            ),
        ),
    ]
    return Section("ramp", "The raw index and the ramp", tuple(blocks))


# ── Beyond the module (full notes) ───────────────────────────────────────────────────────────


def dot_product_section(parts: _Parts) -> Section:
    blocks: list[Block] = [
        Para(
            (
                "The sinusoidal half of ",
                thm("similarity"),
                " has two more consequences: the distance between two encodings depends on "
                "the offset alone, and the dot product cannot tell an offset before from one "
                "after.",
            ),
        ),
        theorem(
            "dot_product",
            "Distance depends on the offset, and the dot product is even",
            "For all real ",
            POS,
            " and ",
            K,
            ":",
            formulas=(
                eq(
                    named("dist"),
                    sp.Sum(2 - 2 * sp.cos(K * OMEGA_I), (I, 0, D_MODEL / 2 - 1)),
                ),
                eq(named("dot_back"), named("dot_ahead")),
            ),
        ),
        parts.chain("dot_product", "One pair: ‖PE_i", Emph("Proof."), " One pair:"),
        parts.chain("dot_product", "The whole vector, any d_model: ‖", "Summed over the pairs:"),
        parts.chain("dot_product", "One pair, k before and k after", "And the pair k before:"),
        ProofEnd(),
    ]
    blocks += parts.twin("dot_product", "Dot products read off the table at several positions.")
    blocks.append(
        Para(
            (
                Emph("What this means. "),
                "The left panel of ",
                fig("similarity"),
                " is the same curve for every ",
                P,
                ". It is symmetric in ",
                K,
                ", so a dot product of encodings alone says how far, not which way; "
                "direction has to come from a learned map such as ",
                M_K,
                ".",
            ),
        )
    )
    return Section("dot_product", "The dot product and the distance", tuple(blocks), True)


def group_section(parts: _Parts) -> Section:
    j = sp.Symbol("j", real=True)
    blocks: list[Block] = [
        theorem(
            "group",
            "The shifts form a group of rotations",
            "For all real ",
            j,
            " and ",
            K,
            ", and blockwise for every ",
            D_MODEL,
            ":",
            formulas=(
                eq(named("M_j") * M_K, named("M_jk")),
                eq(M_K * named("M_kT"), named("Id")),
                eq(named("M_minus_k"), named("M_kT")),
            ),
        ),
        parts.chain("group", "Composition", Emph("Proof."), " Composition, block by block:"),
        parts.chain("group", "Orthogonality", "Orthogonality:"),
        parts.chain("group", "Shifting back", "Shifting back:"),
        Para(
            (
                "Each law holds for every block, and products and transposes of block-diagonal "
                "matrices are taken block by block, so it holds for ",
                M_K,
                ".",
            ),
        ),
        ProofEnd(),
    ]
    blocks += parts.twin("group", "The group laws checked in floating point.")
    blocks.append(
        Para(
            (
                Emph("What this means. "),
                "Shifting by ",
                j,
                " and then by ",
                K,
                " is shifting by ",
                j + K,
                "; shifting back is the transpose, and no shift changes lengths. The offsets "
                "behave like numbers under addition, exactly as positions should.",
            ),
        )
    )
    return Section("group", "Group laws", tuple(blocks), True)


def layouts_section(parts: _Parts) -> Section:
    w = sp.Symbol("omega", positive=True)
    c, s = sp.MatrixSymbol("C", 2, 2), sp.MatrixSymbol("S", 2, 2)
    blocks: list[Block] = [
        Para(
            (
                "Many implementations store all sines first and all cosines after, "
                "and some use another frequency schedule. Neither change matters.",
            ),
        ),
        theorem(
            "layouts",
            "Layouts and schedules keep the rotation",
            "For every frequency ",
            sp.StrictGreaterThan(w, 0, evaluate=False),
            ", ",
            R(K * w),
            " moves the pair at frequency ",
            w,
            " by ",
            K,
            ". For the layout of all sines then all cosines, the shift matrix is, with ",
            named("C"),
            " and ",
            named("S"),
            " the diagonal matrices of the ",
            sp.cos(K * OMEGA_I),
            " and ",
            sp.sin(K * OMEGA_I),
            ",",
            formulas=(sp.BlockMatrix([[c, s], [-s, c]]),),
        ),
        parts.chain(
            "layouts",
            "Any frequency",
            Emph("Proof."),
            " The rotation identity never used the value of the frequency:",
        ),
        Para(
            (
                "The second layout is a permutation ",
                named("P"),
                " of the first, and a permutation is orthogonal, so ",
                named("P") * M_K * named("P_T"),
                " shifts it. Regrouping rows and columns gathers the cosines in ",
                named("C"),
                " and the sines in ",
                named("S"),
                ". An odd ",
                D_MODEL,
                " leaves one sine without its cosine; padding it with a zero keeps a shift "
                "matrix, while a lone sine admits none.",
            ),
        ),
        ProofEnd(),
    ]
    blocks += parts.twin("layouts", "Layouts and schedules checked in floating point.")
    blocks.append(
        Para(
            (
                "Real implementations use several of these conventions, and they disagree "
                "silently: a checkpoint trained with one is wrong under another. The next table "
                "builds a small encoding in each convention from that convention's formula, "
                "then names the convention again from the numbers alone, by fitting each "
                "column's frequency and phase; the shift check passes on every one, as the "
                "theorem says it must.",
            ),
        )
    )
    if not parts.brief:
        blocks.append(
            TableBlock(
                conventions_table(),
                "The conventions of real implementations, identified from their tables.",
                None,
                "conventions_table()",
            )
        )
    blocks.append(
        Para(
            (
                Emph("What this means. "),
                "The rotation property belongs to the pairing of each sine with its cosine, "
                "not to the base 10000, the spacing of the frequencies, the order of the "
                "dimensions, the first position or a common scale.",
            ),
        )
    )
    return Section("layouts", "Layouts and frequency schedules", tuple(blocks), True)


def rope_section(parts: _Parts) -> Section:
    m = sp.Symbol("m", real=True)
    q = sp.Symbol("q")
    kappa = named("kappa")
    blocks: list[Block] = [
        Para(
            (
                "Module 11 applies the rotation of ",
                thm("rotation"),
                " to the query and the key themselves instead of adding a vector to the "
                "input. Write ",
                q,
                " for a query at position ",
                P,
                " and ",
                kappa,
                " for a key at position ",
                m,
                " (the letter ",
                K,
                " stays the offset).",
            ),
        ),
        theorem(
            "rope",
            "Rotated scores depend only on the offset",
            "For all real ",
            q,
            ", ",
            kappa,
            ", ",
            THETA,
            ", ",
            P,
            " and ",
            m,
            ":",
            formulas=(eq(named("score"), named("score_rel")),),
        ),
        parts.chain("rope", "One pair", Emph("Proof."), " Expand and use angle subtraction:"),
        Para(
            (
                "Whole vectors follow block by block with ",
                M_K,
                " in place of ",
                R(K * OMEGA_I),
                ", using ",
                eq(named("M_pT"), named("M_minus_p")),
                " and ",
                eq(named("M_minus_p") * named("M_m"), named("M_mp")),
                " from ",
                thm("group"),
                ".",
            ),
        ),
        ProofEnd(),
    ]
    blocks.append(
        Para(
            (
                Emph("What this means. "),
                "With RoPE the score itself, not just a learnable map, depends on the offset ",
                m - P,
                " alone: relative position is built into attention.",
            ),
        )
    )
    return Section("rope", "The bridge to RoPE (module 11)", tuple(blocks), True)


# ── Exercises, challenge, quiz ───────────────────────────────────────────────────────────────


def exercises_section(tables: dict[str, Table]) -> Section:
    w1 = omega(1, 8)
    theta = 3 * w1
    # Exercise 3's answer, read off the tables: the last position (exercise 1's table has the
    # module's max_len rows) and the full turns counted for each dim.
    last = int(tables["exercise_1"].rows[0][0]) - 1
    turns = ", ".join(f"{row[5]} for dim {row[0]}" for row in tables["exercise_3"].rows)
    return Section(
        "exercises",
        "Exercises with worked solutions",
        (
            Heading(2, ("Exercise 1 — the full table at a larger ", D_MODEL)),
            quote(
                "Compute sinusoidal_pe(max_len, d_model) for your own choice of max_len and "
                "d_model (try a larger d_model, like 64), and confirm all rows are unique and "
                "all values fall within [-1, 1]."
            ),
            Para(
                (
                    Emph("Solution."),
                    " ",
                    thm("bounded"),
                    " and ",
                    thm("unique"),
                    " hold for every ",
                    D_MODEL,
                    " and every table length, so the outcome is known before computing: every "
                    "value lies in ",
                    sp.Interval(-1, 1),
                    " and no two rows coincide. The computation at ",
                    eq(D_MODEL, 64),
                    " agrees:",
                ),
            ),
            module_table(tables, "exercise_1", ("Exercise 1 recomputed at ", eq(D_MODEL, 64), ".")),
            Heading(2, ("Exercise 2 — another pair and another offset",)),
            quote(
                "Repeat the rotation-matrix check using a different dimension pair (e.g., dims "
                "2-3) and a different offset k."
            ),
            Para(
                (
                    Emph("Solution."),
                    " Dims 2 and 3 are pair ",
                    eq(I, 1),
                    ". With ",
                    eq(D_MODEL, 8),
                    " its frequency is ",
                    eq(OMEGA_1, w1),
                    ", so for ",
                    eq(K, 3),
                    " ",
                    thm("rotation"),
                    " gives the single matrix",
                ),
            ),
            Equations((eq(R(theta), rotation_matrix(theta)),)),
            Para(
                (
                    "which moves the pair from every ",
                    POS,
                    " to ",
                    POS + 3,
                    ". The table confirms it at the module's five positions:",
                ),
            ),
            module_table(
                tables,
                "exercise_2",
                "Exercise 2: one R(3/10) on dims 2-3.",
                "The same R(3/10) at every pos; match: predicted equals actual to the module's tolerance.",
            ),
            Heading(2, ("Exercise 3 — the frequency spectrum",)),
            quote(
                "Plot PE(pos, dim) as a function of pos, for several fixed dimension indices "
                "spanning low to high i. Confirm the lower dimension indices oscillate visibly "
                "faster."
            ),
            Para(
                (
                    Emph("Solution."),
                    " By ",
                    thm("frequencies"),
                    ", pair ",
                    I,
                    " has period ",
                    2 * sp.pi / OMEGA_I,
                    ", so across positions ",
                    sp.Integer(0),
                    " to ",
                    sp.Integer(last),
                    " it makes ",
                    sp.floor(last * OMEGA_I / (2 * sp.pi)),
                    " full turns: ",
                    turns,
                    " (",
                    fig("spectrum"),
                    "). The curves are drawn through many points between the integer positions, "
                    "so what you see is the wave itself, not an artefact of sampling.",
                ),
            ),
            module_table(
                tables, "exercise_3", "Exercise 3: periods and full turns over 50 positions."
            ),
            Figure(
                "spectrum",
                FIGURE_NUMBER["spectrum"],
                "fig:spectrum",
                (
                    PE(POS, named("dim")),
                    " against ",
                    POS,
                    " for ",
                    eq(D_MODEL, 8),
                    ", dims ",
                    sp.Integer(0),
                    ", ",
                    sp.Integer(2),
                    ", ",
                    sp.Integer(4),
                    ", ",
                    sp.Integer(6),
                    " (pairs ",
                    sp.Integer(0),
                    " to ",
                    sp.Integer(3),
                    "); dots mark the integer positions the table holds.",
                ),
            ),
        ),
    )


def challenge_section() -> Section:
    return Section(
        "challenge",
        "The independent challenge",
        (
            quote(
                "A teammate suggests replacing sinusoidal positional encoding with a simple "
                "linear ramp (position / max_len, one single number appended to each token's "
                "embedding). Write two or three sentences on what specific capability this "
                "simplification would lose."
            ),
            Para(
                (
                    Emph("Model answer."),
                    " The ramp does encode position, and even its shift has a rule "
                    "that ignores where you are: ",
                    eq(r(POS + K), r(POS) + K / L),
                    " (",
                    thm("ramp"),
                    "); what it lacks is a linear one, and with it the property that matters "
                    "to attention. Attention compares positions by dot products, and ",
                    eq(named("dot_pk"), sp.Sum(sp.cos(K * OMEGA_I), (I, 0, D_MODEL / 2 - 1))),
                    " depends on the offset ",
                    K,
                    " alone, whereas ",
                    eq(sp.Mul(r(P), r(P + K), evaluate=False), P * (P + K) / L**2),
                    " depends on where ",
                    P,
                    " sits (",
                    thm("similarity"),
                    ", ",
                    fig("similarity"),
                    "). So with the ramp, \u201cthree tokens back\u201d looks different at every "
                    "position, and the model must learn relative position from scratch instead "
                    "of getting it from the encoding.",
                ),
            ),
        ),
    )


QUIZ = (
    "What are the two formulas defining sinusoidal positional encoding, and what varies across dimension pairs?",
    "What did the verified uniqueness check confirm, and why does that matter given module 09's findings?",
    "What specific mathematical property did the rotation-matrix verification confirm, and why is it the real justification for choosing sine/cosine specifically?",
    "What real problem does a raw, unbounded position integer have that sinusoidal encoding avoids?",
    "Why would a simple linear ramp value lose real capability compared to sinusoidal encoding, even though it does encode absolute position?",
)


def quiz_section() -> Section:
    answers: tuple[tuple[Piece, ...], ...] = (
        (
            eq(PE(POS, 2 * I), sp.sin(POS * OMEGA_I)),
            " and ",
            eq(PE(POS, 2 * I + 1), sp.cos(POS * OMEGA_I)),
            " with ",
            eq(OMEGA_I, omega()),
            ". The frequency varies: it falls with ",
            I,
            ", so low pairs turn fast and high pairs slowly (",
            thm("frequencies"),
            ").",
        ),
        (
            "Every position gets its own encoding: 50 of 50 rows in the module, and every "
            "integer position whatever the table length (",
            thm("unique"),
            "). Module 09 showed that without a distinguishing signal attention cannot tell "
            "word orders apart.",
        ),
        (
            "For each offset ",
            K,
            " one matrix ",
            M_K,
            ", built from ",
            K,
            " and the frequencies only, maps ",
            PE(POS),
            " to ",
            PE(POS + K),
            " at every position (",
            thm("rotation"),
            "). So relative position is a linear map a layer can learn once and use everywhere.",
        ),
        (
            "It grows without bound and swamps token embeddings at large positions; the "
            "sinusoidal values stay in ",
            sp.Interval(-1, 1),
            " (",
            thm("bounded"),
            ").",
        ),
        (
            "Not because its shift depends on the position: ",
            named("affine"),
            " works everywhere (",
            thm("ramp"),
            "). It has no linear shift, and the dot product of two ramp values depends on "
            "where the positions are, not only on their offset, unlike the sinusoidal dot "
            "product (",
            thm("similarity"),
            ").",
        ),
    )
    items = tuple(
        (Emph(question), " ", *answer) for question, answer in zip(QUIZ, answers, strict=True)
    )
    return Section("quiz", "Checkpoint quiz", (Items(items, numbered=True),))


def author_notes_section(brief: bool) -> Section:
    even: tuple[Piece, ...] = ("proved in the full notes",) if brief else (thm("dot_product"),)
    return Section(
        "author_notes",
        "Notes for the course author",
        (
            Para(
                (
                    "Places where the module's text is imprecise or wrong, with what to write instead.",
                )
            ),
            Items(
                (
                    (
                        Emph("The ramp (Discussion of the challenge, quiz answer 5). "),
                        "The module says a ramp's relationship between two positions \u201cdepends on "
                        "where those positions are relative to max_len\u201d and that no single "
                        "transformation maps the ramp value at ",
                        P,
                        " to that at ",
                        P + K,
                        " independent of ",
                        P,
                        ". But the affine map ",
                        named("affine"),
                        " does exactly that (",
                        thm("ramp"),
                        "); only a linear map is impossible. What the ramp really loses is "
                        "that its similarity ",
                        eq(sp.Mul(r(P), r(P + K), evaluate=False), P * (P + K) / L**2),
                        " depends on ",
                        P,
                        ", while ",
                        named("dot_pk"),
                        " depends on ",
                        K,
                        " alone (",
                        thm("similarity"),
                        "). Suggested wording: \u201cThe ramp has no linear shift, and the dot "
                        "product of two ramp values depends on where the positions are, not only "
                        "on how far apart they are.\u201d",
                    ),
                    (
                        Emph("\u201cNo natural linear relationship\u201d for the raw index. "),
                        "The raw index shifts by adding ",
                        K,
                        " (an affine map), and with a constant feature appended even linearly. "
                        "Its real problems are that it is unbounded and that its dot products "
                        "depend on the positions. Suggested wording: \u201cno bounded encoding "
                        "whose similarity depends on the offset alone\u201d.",
                    ),
                    (
                        Emph("Uniqueness. "),
                        "\u201c50 of 50 tested\u201d is true for every table length, for integer "
                        "positions (",
                        thm("unique"),
                        "). Over real positions it fails: for ",
                        eq(D_MODEL, 8),
                        ", ",
                        eq(PE(POS + 2000 * sp.pi), PE(POS)),
                        ". Worth one sentence, since the rotation argument works for real positions.",
                    ),
                    (
                        Emph("\u201cThe same transformation regardless of pos\u201d. "),
                        "Right, and it also needs no integer offset; but the dot product it "
                        "induces is even in ",
                        K,
                        " (",
                        *even,
                        "), so similarity alone cannot tell \u201c",
                        K,
                        " before\u201d from \u201c",
                        K,
                        " after\u201d. Worth a sentence in the section on the rotation.",
                    ),
                    (
                        Emph("Bounded. "),
                        "The printed minimum \u201c-0.9999...\u201d is right for 50 positions; the "
                        "bound itself is exact for every position (",
                        thm("bounded"),
                        "), and every row has length ",
                        sp.Pow(D_MODEL / 2, sp.Rational(1, 2), evaluate=False),
                        ".",
                    ),
                )
            ),
        ),
    )


REFERENCES = (
    "Vaswani, A. et al. (2017). Attention Is All You Need. NeurIPS. Section 3.5, \u201cPositional "
    "Encoding\u201d: the formula and the relative-position property. https://arxiv.org/abs/1706.03762",
    "Rush, A. et al. The Annotated Transformer (Harvard NLP): a line-by-line implementation "
    "matching the module's sinusoidal_pe. https://nlp.seas.harvard.edu/annotated-transformer/",
    "Kazemnejad, A. (2019). Transformer Architecture: The Positional Encoding: a visual "
    "derivation of the rotation property. "
    "https://kazemnejad.com/blog/transformer_architecture_positional_encoding/",
    "Track 02, Module 09: Why Positional Information Is Needed.",
    "Track 02, Module 11: Rotary Position Embeddings (RoPE).",
)


def references_section() -> Section:
    items = []
    for ref in REFERENCES:
        text, _, url = ref.partition(" https://")
        items.append((text, " ", Link("https://" + url)) if url else (text,))
    return Section("references", "References", (Items(tuple(items), numbered=True),))


def conclusion_section(brief: bool) -> Section:
    more = (
        ""
        if brief
        else " The full notes go on to distances, the group laws of the shifts, other layouts "
        "and schedules, and the bridge to RoPE."
    )
    return Section(
        "summary",
        "Summary",
        (
            Para(
                (
                    "The sinusoidal encoding is bounded (",
                    thm("bounded"),
                    "), gives every position its own vector (",
                    thm("unique"),
                    "), and moves by ",
                    K,
                    " positions under one rotation that ignores the starting position (",
                    thm("rotation"),
                    "). Its dot products see only offsets, which a ramp's do not (",
                    thm("similarity"),
                    ")." + more,
                ),
            ),
        ),
    )


# ── Appendix: how each step was checked ──────────────────────────────────────────────────────


def appendix_section(checked: Sequence[Checked]) -> Section:
    from proofs.render.lesson_appendix import appendix_blocks

    return Section(
        "appendix",
        "How each step was checked",
        (AppendixStart(), *appendix_blocks(checked)),
        True,
    )


# ── The whole lesson ─────────────────────────────────────────────────────────────────────────

MODULE_TABLES = (
    "pe_rows",
    "bounds",
    "unique",
    "rotation",
    "exercise_1",
    "exercise_2",
    "exercise_3",
)


def build_lesson(
    checked: Sequence[Checked], module_tables: Sequence[Table], *, brief: bool
) -> Lesson:
    """The lesson from the verified theorems and the module's tables (numeric.module_report)."""
    tables = dict(zip(MODULE_TABLES, module_tables, strict=True))
    parts = _Parts(checked, brief)
    sections = [
        introduction(brief),
        definitions(),
        formula_section(parts, tables),
        bounded_section(parts, tables),
        unique_section(parts, tables),
        rotation_section(parts, tables),
        ramp_section(parts, brief),
    ]
    if not brief:
        sections += [
            dot_product_section(parts),
            group_section(parts),
            layouts_section(parts),
            rope_section(parts),
        ]
    sections += [
        exercises_section(tables),
        challenge_section(),
        quiz_section(),
        conclusion_section(brief),
        author_notes_section(brief),
        references_section(),
    ]
    if not brief:
        sections.append(appendix_section(checked))
    return Lesson(TITLE, tuple(sections), dict(FIGURES))


def brief_theorems() -> tuple[str, ...]:
    """The theorems the brief notes use."""
    return ("frequencies", "bounded", "unique", "rotation", "ramp", "similarity")
