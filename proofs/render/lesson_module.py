"""The module's first sections, in its order: the formula and its frequencies, bounded, unique."""

from __future__ import annotations

import sympy as sp

from numeric.result_table import Table
from proofs.definitions import BASE, D_MODEL, OMEGA_I, POS, I, omega
from proofs.engine.facts import Part
from proofs.render.lesson_blocks import Emph, Equations, Figure, Para, ProofEnd, Section
from proofs.render.lesson_parts import (
    FIGURE_NUMBER,
    OMEGA_0,
    PE,
    Parts,
    eq,
    fig,
    module_table,
    named,
    pair,
    quote,
    theorem,
    thm,
)

# ── The module's sections ────────────────────────────────────────────────────────────────────


def formula_section(parts: Parts, tables: dict[str, Table]) -> Section:
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
                "frequencies", "omega_ratio", Emph("Proof."), " Divide consecutive frequencies:"
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
            parts.chain("frequencies", "pair_period"),
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
                    Emph("What this means."),
                    " ",
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


def bounded_section(parts: Parts, tables: dict[str, Table]) -> Section:
    facts = [
        parts.part("bounded", name)
        for name in (
            "sin_at_most_1",
            "sin_at_least_minus_1",
            "cos_at_most_1",
            "cos_at_least_minus_1",
        )
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
            parts.chain("bounded", "pair_unit_length", Emph("Proof."), " One pair has length 1:"),
            Para(
                (
                    "Each bound is a square, which cannot be negative (write ",
                    eq(sp.Symbol("x"), POS * OMEGA_I),
                    "):",
                ),
            ),
            Equations(tuple(bound_equation(f) for f in facts)),
            Para(("Summing the pair identity over the pairs gives the length of the row:",)),
            parts.chain("bounded", "norm_any_d"),
            ProofEnd(),
            module_table(tables, "bounds", "The module's bound check on the (50, 8) table."),
            Para(
                (
                    Emph("What this means."),
                    " ",
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


def unique_section(parts: Parts, tables: dict[str, Table]) -> Section:
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
            parts.chain("unique", "first_pair_distance"),
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
                    Emph("What this means."),
                    " ",
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
