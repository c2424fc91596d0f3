"""Liu et al. 2023, "Scaling Laws of RoPE-based Extrapolation" (arXiv 2310.05209).

Critical dimension (Eq. 13): d_extra = 2·⌈(d/2)·log_10000(T_train/2π)⌉, stated 92 for LLaMA 2
(d = 128, T_train = 4096). Extrapolation bound (Eq. 16b): T_extra = 2π·β^(d_extra/d), here for
β = 10⁶. Tuning base (Eq. 16a): β₀ = 10000^(log_{T_train/2π}(T_tune/2π)) for a 16K tune, one
entry per reading of "16K" (16000 or 16384). The ceiling is decided by a ball of its argument
that excludes every integer; the closed forms are exact, with enclosures.
"""

from __future__ import annotations

import sympy as sp
from flint import arb

from proofs.engine.balls import precision
from proofs.engine.facts import NonNegative
from proofs.theorems.papers.common.balls import enclosure
from proofs.theorems.papers.common.entry import Entry
from proofs.theorems.rope.definitions import enclosure_fact

PAPER = 'Liu et al. 2023, "Scaling Laws of RoPE-based Extrapolation" (arXiv 2310.05209)'
DIM, T_TRAIN, STATED = 128, 4096, 92


def critical_argument() -> arb:
    """(d/2)·ln(T_train/2π)/ln(10000), whose ceiling is d_extra/2."""
    return arb(DIM // 2) * (arb(T_TRAIN) / (2 * arb.pi())).log() / arb(10000).log()


def entries() -> list[Entry]:
    """d_extra for LLaMA 2, T_extra for β = 10⁶, β₀ for a 16K tune (two readings)."""
    with precision(256):
        inner = critical_argument()
        decided = not inner.contains_integer()
        d_extra = 2 * (int(inner.floor().unique_fmpz()) + 1) if decided else None
        t_extra = 2 * arb.pi() * arb(10) ** (arb(6 * d_extra) / DIM) if d_extra else None
        tunes = {
            k: arb(10000)
            ** ((arb(k) / (2 * arb.pi())).log() / (arb(T_TRAIN) / (2 * arb.pi())).log())
            for k in (16000, 16384)
        }
    found = [
        Entry(
            id="liu2023.d_extra",
            paper=PAPER,
            where="§3, Eq. 13",
            claim="d_extra = 2*ceil((d/2)*log_10000(T_train/(2*pi))) = 92 for LLaMA 2",
            reading="d = 128, T_train = 4096",
            verdict="undecided" if d_extra is None else ("holds" if d_extra == STATED else "fails"),
            witness={
                "value": d_extra,
                "argument": "64*log(4096/(2*pi))/log(10000)",
                "argument_value": enclosure(inner),
            },
        ),
    ]
    if t_extra is not None:
        found.append(
            Entry(
                id="liu2023.t_extra",
                paper=PAPER,
                where="§3, Eq. 16b",
                claim="T_extra = 2*pi*beta**(d_extra/d), for beta = 10**6 (LLaMA 2)",
                reading="d_extra = 92 as computed above; no number is transcribed to compare",
                verdict="holds",
                witness={
                    "exact": f"2*pi*10**(6*{d_extra}/{DIM})",
                    "value": enclosure(t_extra),
                },
            )
        )
    for k, value in tunes.items():
        found.append(
            Entry(
                id=f"liu2023.beta0.T{k}",
                paper=PAPER,
                where="§3, Eq. 16a",
                claim="beta_0 = 10000**(log_{T_train/(2*pi)}(T_tune/(2*pi))) for a 16K tune",
                reading=f'"16K" = {k} positions, T_train = 4096; no number is transcribed to compare',
                verdict="holds",
                witness={
                    "exact": f"10000**(log({k}/(2*pi))/log(4096/(2*pi)))",
                    "value": enclosure(value),
                },
            )
        )
    return found


def _ratio(t: int) -> sp.Expr:
    return sp.Rational(t, 2) / sp.pi


def facts(found: list[Entry]) -> dict[str, NonNegative]:
    """Each entry's value enclosed by the engine: d_extra's ceiling argument (an enclosure
    between two integers fixes the ceiling), T_extra and β₀."""
    stated: dict[str, NonNegative] = {}
    for e in found:
        if e.id == "liu2023.d_extra" and e.witness["value"] is not None:
            argument = sp.Integer(DIM // 2) * sp.log(_ratio(T_TRAIN)) / sp.log(10000)
            stated[e.id] = enclosure_fact(
                "liu_d_extra_argument",
                "(d/2)·log_10000(T_train/2π) at d = 128, T_train = 4096 lies in {interval}, so its "
                f"ceiling is {e.witness['value'] // 2} and d_extra = {e.witness['value']}",
                argument,
                5,
            )
        elif e.id == "liu2023.t_extra":
            d_extra = next(f for f in found if f.id == "liu2023.d_extra").witness["value"]
            value = 2 * sp.pi * sp.Pow(10, sp.Rational(6 * d_extra, DIM), evaluate=False)
            stated[e.id] = enclosure_fact(
                "liu_t_extra",
                f"T_extra = 2π·(10⁶)^({d_extra}/{DIM}) lies in {{interval}}",
                value,
                5,
            )
        elif e.id.startswith("liu2023.beta0.T"):
            tune = int(e.id.rpartition("T")[2])
            exponent = sp.log(_ratio(tune)) / sp.log(_ratio(T_TRAIN))
            stated[e.id] = enclosure_fact(
                f"liu_beta0_{tune}",
                f"β₀ = 10000^(log_(T_train/2π)(T_tune/2π)) for T_tune = {tune} lies in {{interval}}",
                sp.Pow(10000, exponent, evaluate=False),
                5,
            )
    return stated
