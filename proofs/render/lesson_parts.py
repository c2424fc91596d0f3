"""The lesson's vocabulary: its notation (symbols, functions and the names of things shown as
wholes), its figures, and the verified parts of the theorems that the prose quotes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import sympy as sp

from proofs.definitions import OMEGA_I, omega
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import Part
from proofs.engine.theorem import TheoremRun
from proofs.render.latex_math import latex_math
from proofs.render.lesson_blocks import (
    Block,
    Chain,
    Piece,
    TableBlock,
)

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


# Figure stem -> (drawing function, keyword arguments); every format draws the same figures.
FIGURES: dict[str, tuple[str, dict[str, object]]] = {
    "heatmap": ("numeric.plots.heatmap.heatmap_figure", {"max_len": 50, "d_model": 64}),
    "spectrum": ("numeric.plots.frequencies.frequencies_figure", {"max_len": 50, "d_model": 8}),
    "circle": ("numeric.plots.circle.circle_figure", {"k": 5, "positions": (0, 3, 7)}),
    "similarity": ("numeric.plots.similarity.similarity_figure", {"d_model": 8, "max_len": 50}),
}


def lesson_chain(derivation: Derivation, *, frequency_symbol: bool = True) -> Derivation:
    """The derivation with each step's note dropped (the rule it cites is named; the appendix
    keeps the note), the frequency shown as ω_i (unless frequency_symbol is False: a chain
    about ω_i itself), and a step that prints like the one before merged into it."""
    display = derivation.display
    if frequency_symbol and (omega(), OMEGA_I) not in display:
        display = (*display, (omega(), OMEGA_I))
    steps: list[Step] = []
    for s in derivation.steps:
        if steps and latex_math(s.expr, display) == latex_math(steps[-1].expr, display):
            merged = f"{steps[-1].note}, {s.cited}" if steps[-1].note else s.cited
            steps[-1] = Step(steps[-1].expr, steps[-1].by, merged)
            continue
        steps.append(Step(s.expr, s.by))
    return replace(derivation, steps=tuple(steps), display=display)


class Parts:
    """The verified parts of the theorems, looked up by theorem and part name."""

    def __init__(self, checked: Sequence[TheoremRun], brief: bool) -> None:
        self.by_name = {c.name: c for c in checked}
        self.brief = brief

    def part(self, name: str, part_name: str) -> Part:
        """The part called part_name of theorem name; it must be proved (the notes print only
        proved parts). KeyError naming the parts there are, for a name that is not one."""
        result = self.by_name[name].part(part_name)
        if result.verdict.status != "proved":
            raise RuntimeError(f"theorem {name}: part {part_name!r} is not proved")
        return result.part

    def chain(self, name: str, part_name: str, *intro: Piece) -> Chain:
        part = self.part(name, part_name)
        if not isinstance(part, Derivation):
            raise TypeError(f"theorem {name}: part {part_name!r} is not a chain")
        return Chain(lesson_chain(part, frequency_symbol=name != "frequencies"), tuple(intro))

    def twin(self, name: str, caption: str | tuple[Piece, ...]) -> tuple[Block, ...]:
        """The theorem's twin table, in the full notes only (the brief keeps the module's)."""
        table = self.by_name[name].table
        source = f'registry.build("{name}").run_twin()'
        return () if self.brief or table is None else (TableBlock(table, caption, None, source),)


def bound_equation(fact: Part, symbol: sp.Basic, value: sp.Basic) -> sp.Basic:
    """A bound fact as 'expr = witness ≥ 0', with value written as symbol (x for pos·ω_i)."""
    sub = {value: symbol}
    return sp.GreaterThan(
        sp.Eq(fact.expr.subs(sub), fact.witness.subs(sub), evaluate=False), 0, evaluate=False
    )
