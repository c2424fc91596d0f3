"""OpenAI gpt-oss (2025): its YaRN setting with `truncate: false`.

Config: head dimension 64, rope_theta 150000, factor 32, original_max_position_embeddings 4096,
beta_fast 32, beta_slow 1. transformers' _compute_yarn_parameters takes the correction
dimension i(n) = d·ln(L/(2πn))/(2·ln b) for n = beta_fast and n = beta_slow, and with truncate
false does not round them: low = 32·ln(64/π)/ln(150000), high = 32·ln(2048/π)/ln(150000).
Rounding them (⌊low⌋, ⌈high⌉, as truncate true does and as an engine did for gpt-oss) changes the
ramp (i − low)/(high − low) on every pair strictly between them; the entry encloses both ends
and the largest change of the ramp.
"""

from __future__ import annotations

import sympy as sp
from flint import arb

from proofs.engine.balls import precision
from proofs.engine.facts import NonNegative
from proofs.theorems.papers.common.balls import enclosure, sign
from proofs.theorems.papers.common.entry import Entry
from proofs.theorems.rope.definitions import enclosure_fact

DIM, BASE, LENGTH, FAST, SLOW = 64, 150000, 4096, 32, 1


def correction_dim(n: int) -> arb:
    """i(n) = d·ln(L/(2πn))/(2·ln b), as a ball."""
    return arb(DIM) * (arb(LENGTH) / (2 * arb.pi() * n)).log() / (2 * arb(BASE).log())


def _ramp(i: int, low: arb | int, high: arb | int) -> arb:
    value = (arb(i) - low) / (arb(high) - low)
    return value.max(arb(0)).min(arb(1))


def entries() -> list[Entry]:
    """The correction range's two ends, exact and enclosed, and what rounding them changes."""
    with precision(256):
        low, high = correction_dim(FAST), correction_dim(SLOW)
        floor_low, ceil_high = int(low.floor().unique_fmpz()), int(high.ceil().unique_fmpz())
        changes = {i: _ramp(i, low, high) - _ramp(i, floor_low, ceil_high) for i in range(DIM // 2)}
    moved = {i: c for i, c in changes.items() if sign(c) is not None}
    largest = max(moved, key=lambda i: abs(float(moved[i].mid())))
    return [
        Entry(
            id="gptoss2025.yarn_range",
            paper="OpenAI gpt-oss (2025), config.json rope_scaling, with transformers' _compute_yarn_parameters",
            where="rope_scaling: factor 32, beta_fast 32, beta_slow 1, truncate false",
            claim="with truncate false the correction range's ends are not rounded to integers",
            reading="head_dim 64, rope_theta 150000, original_max_position_embeddings 4096",
            verdict="holds"
            if not (low.contains_integer() or high.contains_integer())
            else "undecided",
            witness={
                "low": "32*log(64/pi)/log(150000)",
                "low_value": enclosure(low),
                "high": "32*log(2048/pi)/log(150000)",
                "high_value": enclosure(high),
                "rounded": [floor_low, ceil_high],
                "pairs_whose_ramp_changes": sorted(moved),
                "largest_change": {"pair": largest, "value": enclosure(moved[largest])},
            },
        )
    ]


def correction_dim_expr(n: int) -> sp.Expr:
    """i(n) = d·ln(L/(2πn))/(2·ln b), exact, for the engine."""
    return sp.Integer(DIM) * sp.log(sp.Rational(LENGTH, 2 * n) / sp.pi) / (2 * sp.log(BASE))


def facts(found: list[Entry]) -> dict[str, tuple[NonNegative, NonNegative]]:
    """The correction range's two ends, each enclosed by the engine between two integers."""
    ends = tuple(
        enclosure_fact(
            f"gptoss_correction_{end}",
            f"The correction range's {end} end d·ln(L/(2π·{n}))/(2·ln b) (d = {DIM}, "
            f"L = {LENGTH}, b = {BASE}) lies in {{interval}}, strictly between two integers",
            correction_dim_expr(n),
            5,
        )
        for end, n in (("low", FAST), ("high", SLOW))
    )
    return {e.id: ends for e in found if e.id == "gptoss2025.yarn_range"}
