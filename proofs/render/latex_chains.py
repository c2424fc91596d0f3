"""Chains and facts in LaTeX: align* derivations with their justifications, facts, verdicts."""

from __future__ import annotations

import re
from collections.abc import Mapping

import sympy as sp

from proofs.engine.derivation import Derivation, Verdict
from proofs.engine.facts import FreeOf, LinearSystem, NonNegative, NonZero, Part
from proofs.engine.theorem import TheoremRun
from proofs.render.evidence import evidence
from proofs.render.latex_math import FULL_BUDGET, SIDE_BUDGET, Display, fit, latex_math, math_lines
from proofs.render.steps import step_text
from proofs.render.tex_prose import tex_text
from proofs.render.tex_width import tex_width


def _justification(text: str, width: str) -> str:
    return rf"\text{{\parbox[c]{{{width}}}{{\raggedright\footnotesize {tex_text(text)}}}}}"


def derivation_lines(
    derivation: Derivation, budget: float, names: Mapping[str, str] | None = None
) -> list[list[str]]:
    """Each step's expression as lines of at most budget pt where it can break (names: the
    LaTeX of named symbols, as the lesson's)."""
    return [math_lines(step.expr, derivation.display, budget, names) for step in derivation.steps]


def _aligned_rows(steps: list[list[str]]) -> list[list[str]]:
    """Per step, its aligned rows: '& lhs' or '&= e_j', then '& \\quad + ...' continuations."""
    return [
        [("& " if j == 0 else "&= ") + lines[0]] + [f"& {line}" for line in lines[1:]]
        for j, lines in enumerate(steps)
    ]


def derivation_math_rows(derivation: Derivation, budget: float = FULL_BUDGET) -> list[list[str]]:
    """The aligned rows of a chain, per step: the left side alone, then '= e_j' for each later
    step; a step wider than budget pt is broken at its top-level + or matrix product."""
    return _aligned_rows(derivation_lines(derivation, budget))


def side_justified(derivation: Derivation, names: Mapping[str, str] | None = None) -> bool:
    """Whether every step fits beside a justification column (else each gets its own row). The
    width estimate may be short by a sixth on sums of fractions; the margin keeps such a row
    off the justification column."""
    return all(
        1.15 * tex_width(line) <= SIDE_BUDGET
        for lines in derivation_lines(derivation, SIDE_BUDGET, names)
        for line in lines
    )


def derivation_rows(
    derivation: Derivation, *, justify: str = "parbox", names: Mapping[str, str] | None = None
) -> list[str]:
    """The chain's aligned rows with each link's justification in a \\text{} column.

    A chain whose expressions leave no room for the column gets each justification on its own
    row under its step instead. justify: "parbox" wraps the justification in a narrow
    paragraph (PDF); "text" keeps it on one line of plain \\text{} (MathJax and KaTeX, which
    have no \\parbox).
    """
    side = side_justified(derivation, names)
    steps = _aligned_rows(derivation_lines(derivation, SIDE_BUDGET if side else FULL_BUDGET, names))
    if justify == "parbox":
        steps = [[fit(row) for row in step] for step in steps]
    rows = list(steps[0])
    for step, lines in zip(derivation.steps[1:], steps[1:], strict=True):
        if justify != "parbox":
            just = rf"\text{{{mathjax_text(step_text(step))}}}"
        elif side:
            just = _justification(step_text(step), "0.27\\linewidth")
        else:
            just = _justification(f"({step_text(step)})", "0.8\\linewidth")
        rows += lines[:-1]
        rows.append(f"{lines[-1]} && {just}" if side else lines[-1])
        if not side:
            rows.append(rf"& \qquad {just}")
    return rows


def mathjax_text(text: str) -> str:
    """Prose inside \\text{} for MathJax and KaTeX: Unicode kept, specials escaped."""
    return (
        re.sub(r"([{}$&#%_])", r"\\\1", text.replace("\\", "/"))
        .replace("^", "\\^{}")
        .replace("~", " ")
    )


def aligned_block(derivation: Derivation) -> str:
    """The chain as $$\\begin{aligned}...$$, which MathJax and KaTeX both render."""
    rows = derivation_rows(derivation, justify="text")
    return "$$\n\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}\n$$"


def link_checks(verdict: Verdict) -> str:
    """One sentence: how each link of a chain was checked (rules, points, worst difference)."""
    if not verdict.links:
        return ""
    rules = [link.symbolic.rule or "not reduced" for link in verdict.links]
    points = sorted({link.numeric.points for link in verdict.links})
    worst = max(link.numeric.max_relative for link in verdict.links)
    marks = ", ".join(f"({j}) {rule}" for j, rule in enumerate(rules, 1))
    pts = "/".join(str(p) for p in points)
    return (
        f"Symbolic reduction of each link: {marks}. Numeric check: {pts} seeded points per link, "
        f"largest relative difference {worst:.1e}."
    )


def fact_lines(part: Part, display: Display = ()) -> list[str]:
    """The fact's display as aligned rows ("& ..."), wide sums broken like a chain's steps.

    display: substitutions for printing only, such as the theorem's derivations use. Any fact
    type with an expr works; LinearSystem shows its equations, a sign fact its witness.
    """
    if isinstance(part, LinearSystem):
        rows = [f"{latex_math(e, display)} &= {latex_math(sp.Integer(0))}" for e in part.equations]
        return [r"& \left\{\begin{aligned}" + r" \\ ".join(rows) + r"\end{aligned}\right."]
    if not isinstance(part, FreeOf | NonZero | NonNegative):
        raise TypeError(f"cannot print a part of type {type(part).__name__}: it has no expr")
    lines = math_lines(part.expr, display)
    if isinstance(part, NonZero):
        lines[-1] += r" \neq 0"
    elif isinstance(part, NonNegative):
        # A sign fact shown through its witness: expr = witness >= 0.
        shown_witness = math_lines(part.witness, display)
        shown_witness[-1] += r" \geq 0"
        rows = [f"& {line}" for line in lines] + [f"&= {shown_witness[0]}"]
        return rows + [f"& {line}" for line in shown_witness[1:]]
    return [f"& {line}" for line in lines]


def equation_lines(formula: sp.Basic, display: Display = ()) -> list[str]:
    """A formula as aligned rows; an equation is aligned at its = and both sides may break."""
    if isinstance(formula, sp.Equality):
        lhs = math_lines(formula.lhs, display)
        rhs = math_lines(formula.rhs, display)
        if len(lhs) == len(rhs) == 1 and tex_width(f"{lhs[0]} = {rhs[0]}") <= FULL_BUDGET:
            return [f"{lhs[0]} &= {rhs[0]}"]
        return [f"& {line}" for line in lhs] + [f"&= {rhs[0]}"] + [f"& {r}" for r in rhs[1:]]
    return [f"& {line}" for line in math_lines(formula, display)]


def shown_fact(part: Part, display: Display = ()) -> list[tuple[str, Derivation | list[str]]]:
    """What a fact displays: (caption, aligned rows) pairs, or (caption, Derivation) for a
    chain, which each printer sets its own way. A fact with evidence (proofs.render.evidence:
    block structure, a map found, a certificate) is shown by it; any other by its caption and
    its expression."""
    shown = evidence(part)
    if not shown:
        return [(fact_caption(part), fact_lines(part, display))]
    out: list[tuple[str, Derivation | list[str]]] = []
    for caption, content in shown:
        if isinstance(content, Derivation):
            out.append((caption, content))
        elif isinstance(content, tuple):
            out.append((caption, [r for f in content for r in equation_lines(f, display)]))
        else:
            out.append((caption, equation_lines(content, display)))
    return out


def theorem_display(result: TheoremRun) -> Display:
    """Every derivation's display substitutions, for printing the theorem's facts alike."""
    pairs: list[tuple[sp.Basic, sp.Basic]] = []
    for pr in result.parts:
        if isinstance(pr.part, Derivation):
            pairs += [p for p in pr.part.display if p not in pairs]
    return tuple(pairs)


def fact_caption(part: Part) -> str:
    """What a fact asserts, in words, with the expression shown below it."""
    if isinstance(part, FreeOf):
        return f"The expression below does not contain {', '.join(s.name for s in part.symbols)}."
    if isinstance(part, NonZero):
        return "The expression below is nonzero."
    if isinstance(part, LinearSystem):
        unknowns = ", ".join(u.name for u in part.unknowns)
        if part.expect == "inconsistent":
            return f"The linear system below, in the unknown {unknowns}, has no solution."
        wanted = ", ".join(f"{u} = {v}" for u, v in part.expect.items())
        return (
            f"The linear system below, in the unknown {unknowns}, has the unique solution {wanted}."
        )
    if isinstance(part, NonNegative):
        return "The expression below equals its witness, which is nonnegative."
    return "The expression this fact is about:"
