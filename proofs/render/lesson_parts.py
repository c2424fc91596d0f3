"""The lesson's vocabulary: its notation (symbols, functions and the names of things shown as
wholes), its figures, and the verified parts of the theorems that the prose quotes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import sympy as sp

from proofs.engine.citation import Lemma, Termwise, words
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
from proofs.theorems.sinusoidal.definitions import OMEGA_I, omega

# Each course module's lesson: its title and the line under it.
TITLES = {
    10: "The sinusoidal positional encoding, proved",
    11: "Rotary position embeddings (RoPE), proved",
}
SUBTITLES = {module: f"Companion notes to module {module}" for module in TITLES}

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

# Numbers of the RoPE sections set as the notes set them (θ′_i, b′, the ramp's low and high):
# ordinary positive symbols (proofs.render.lesson_math), printed as this table says.
ROPE_LATEX: dict[str, str] = {
    "theta_prime_i": r"\theta'_{i}",
    "theta_prime_0": r"\theta'_{0}",
    "theta_prime_33": r"\theta'_{33}",
    "theta_prime_38": r"\theta'_{38}",
    "theta_last": r"\theta_{d/2-1}",
    "theta_prime_last": r"\theta'_{d/2-1}",
    "b_prime": r"b'",
    "theta_prime_next": r"\theta'_{i+1}",
    "gamma_next": r"\gamma_{i+1}",
    "h_next": r"h_{i+1}",
    "S_next": r"S_{i+1}",
    "two_m8": r"2^{-8}",
    "two_m9": r"2^{-9}",
    "two_m22": r"2^{-22}",
    "two_24_plus_1": r"2^{24} + 1",
    "three_roundings": r"(1 + 2^{-24})^{2}(1 + 2^{-8}) - 1",
    "nearest_half": r"\lvert N - y \rvert \le 1/2",
    "fl_error": r"\lvert \operatorname{fl}(x) - x \rvert \le 2^{-\nu} x",
    "low": r"\mathrm{low}",
    "high": r"\mathrm{high}",
}
ROPE_NAMES = tuple(ROPE_LATEX)

# Names of things the lesson mentions as wholes (vectors, norms, matrices by name): each is a
# SymPy symbol, set by the printer from this table as pos and ω_i are (proofs.theorems.sinusoidal.definitions).
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
    "norm_pe0": r"\lVert \operatorname{PE}_{0}(p) - \operatorname{PE}_{0}(q) \rVert^{2}",
    "norm_pei": r"\lVert \operatorname{PE}_{i}(\mathrm{pos}) \rVert^{2}",
    "dot_pair": r"\operatorname{PE}_{i}(p) \cdot \operatorname{PE}_{i}(p + k)",
    "dist_pair": r"\lVert \operatorname{PE}_{i}(\mathrm{pos} + k) - \operatorname{PE}_{i}(\mathrm{pos}) \rVert^{2}",
    "dot_pair_back": r"\operatorname{PE}_{i}(\mathrm{pos}) \cdot \operatorname{PE}_{i}(\mathrm{pos} - k)",
    "dot_pair_ahead": r"\operatorname{PE}_{i}(\mathrm{pos}) \cdot \operatorname{PE}_{i}(\mathrm{pos} + k)",
    "A": r"A",
    "M_k0": r"M_{k_{0}}",
    "bilinear": r"\operatorname{PE}(p)^{\mathsf{T}} A \operatorname{PE}(q)",
    "head_score": r"\operatorname{PE}(p)^{\mathsf{T}} M_{k_{0}} \operatorname{PE}(q)",
    "head_pair": r"\operatorname{PE}_{i}(p)^{\mathsf{T}} R(k_{0}\omega_{i}) \operatorname{PE}_{i}(q)",
    "projected": r"\bigl(x_{p} + \operatorname{PE}(p)\bigr)^{\mathsf{T}} W_{Q}^{\mathsf{T}} W_{K} \bigl(x_{q} + \operatorname{PE}(q)\bigr)",
    "W_QK": r"W_{Q}^{\mathsf{T}} W_{K}",
    "head_pair_peak": r"\operatorname{PE}_{i}(p)^{\mathsf{T}} R(k_{0}\omega_{i}) \operatorname{PE}_{i}(p - k_{0})",
    "head_score_peak": r"\operatorname{PE}(p)^{\mathsf{T}} M_{k_{0}} \operatorname{PE}(p - k_{0})",
    "s_pq": r"s(p, q)",
    "s_step": r"f(p, q + 1) - f(p, q)",
    "sqrt_d": r"\sqrt{d_{\mathrm{model}}}",
    "R2": r"\mathbb{R}^{2}",
    "q_vec": r"q",
    # Rotary embeddings: the whole sums and maxima the RoPE sections name.
    "abs_S_sum": r"\sum_{j=1}^{d/2} \lvert S_{j}(r) \rvert",
    "abel_sum": r"\sum_{i} h_{i} z_{i} = -\sum_{i} S_{i+1} \left(h_{i+1} - h_{i}\right)",
    "max_step": r"\max_{i} \lvert h_{i+1} - h_{i} \rvert",
    "rope_score": r"\langle G(m\theta)\, q,\; G(n\theta)\, \kappa \rangle",
    "rope_score_rel": r"\langle q,\; G\bigl((n - m)\theta\bigr)\, \kappa \rangle",
    **{name: latex for name, latex in ROPE_LATEX.items()},
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
    # The RoPE sections: Llama 3's settings, and RoFormer's d = 128, b = 10^4 at every distance.
    "rope_scaling": (
        "numeric.plots.rope_scaling.scaling_figure",
        {"dim": 128, "base": 500000.0, "factor": 8.0, "original": 8192},
    ),
    "rope_decay": (
        "numeric.plots.rope_decay.decay_figure",
        {"dim": 128, "base": 10000.0, "max_distance": 131072},
    ),
}


@dataclass(frozen=True)
class ShownChain:
    """A verified chain as the lesson shows it (lesson_chain): its name, steps and display
    substitutions, printed like a Derivation but never checked again."""

    name: str
    steps: tuple[Step, ...]
    display: tuple[tuple[sp.Basic, sp.Basic], ...] = ()


def as_scalar(expr: sp.Basic) -> sp.Basic:
    """A 1×1 matrix as its entry (the lesson prints no 1×1 matrices); anything else as it is."""
    if isinstance(expr, sp.MatrixBase) and expr.shape == (1, 1):
        return expr[0, 0]
    return expr


def plain(expr: sp.Basic) -> str:
    """expr on one line as a reader writes it: 10000^(−2·i/d_model), not SymPy's 10000**(-2*i/…).

    >>> plain(sp.Symbol("k") * -1)
    '−k'
    """
    text = sp.sstr(expr).replace("**", "^").replace("*", "·").replace("Max(", "max(")
    return text.replace("-", "−").replace("omega", "ω")


def citation_words(by: object) -> str:
    """How the lesson names what justifies a step: a rule by its name ("angle addition"), a
    lemma by what it is ("the one-pair identity, with −k for k"), never by a code name."""
    if isinstance(by, Termwise):
        return f"{citation_words(by.inner)}, term by term"
    if isinstance(by, Lemma):
        lemma = by.derivation
        one_pair = lemma.name.startswith("pair_") or lemma.name.endswith("_pair")
        text = "the one-pair identity" if one_pair else f"the identity “{lemma.title}”"
        bound = [
            f"{plain(value)} for {plain(symbol)}"
            for symbol, value in by.bindings.items()
            if value != symbol
        ]
        return text + (f", with {', '.join(bound)}" if bound else "")
    return words(by)  # type: ignore[arg-type]


def lesson_chain(derivation: Derivation, *, frequency_symbol: bool = True) -> ShownChain:
    """The derivation as the lesson shows it: each step justified by what it cites, in words
    (citation_words; the theorem's note for the reader is dropped), a 1×1 matrix shown as its
    entry, the frequency shown as ω_i (unless frequency_symbol is False: a chain about ω_i
    itself), and a step that prints like the one before merged into it."""
    display = derivation.display
    if frequency_symbol and (omega(), OMEGA_I) not in display:
        display = (*display, (omega(), OMEGA_I))
    steps: list[Step] = []
    shown = (Step(as_scalar(s.expr), None, citation_words(s.by)) for s in derivation.steps)
    for s in shown:
        if steps and latex_math(s.expr, display) == latex_math(steps[-1].expr, display):
            merged = f"{steps[-1].note}, {s.note}" if steps[-1].note else s.note
            steps[-1] = Step(steps[-1].expr, None, merged)
            continue
        steps.append(s)
    return ShownChain(derivation.name, tuple(steps), display)


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
