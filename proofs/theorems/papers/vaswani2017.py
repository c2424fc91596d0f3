"""Vaswani et al. 2017, "Attention Is All You Need", §3.5: "The wavelengths form a geometric
progression from 2π to 10000·2π."

PE(pos, 2i) = sin(pos/10000^(2i/d_model)): pair i has wavelength λ_i = 2π·10000^(2i/d_model),
i = 0 … d_model/2 − 1. For d_model = 512 the largest is 2π·10000^(255/256), not 2π·10000: the
progression stops one ratio short of it. The claim's upper end is decided by a ball of the gap
2π·10000 − λ_255.
"""

from __future__ import annotations

import sympy as sp
from flint import arb

from proofs.engine.facts import Refutation
from proofs.theorems.papers.common.balls import decided_sign, enclosure
from proofs.theorems.papers.common.entry import Entry

D_MODEL = 512


def entries() -> list[Entry]:
    """One entry: the wavelength range for the paper's d_model = 512."""
    top = D_MODEL // 2 - 1

    def gap() -> arb:
        return 2 * arb.pi() * 10000 - 2 * arb.pi() * arb(10000) ** (arb(2 * top) / D_MODEL)

    sign, gap_ball = decided_sign(gap)
    largest = 2 * arb.pi() * arb(10000) ** (arb(2 * top) / D_MODEL)
    # Any certified nonzero gap refutes "to 10000·2π"; here the top falls short (sign +1).
    verdict = "undecided" if sign is None else "fails"
    return [
        Entry(
            id="vaswani2017.wavelengths",
            paper='Vaswani et al. 2017, "Attention Is All You Need"',
            where="§3.5",
            claim="the wavelengths form a geometric progression from 2π to 10000·2π",
            reading=f"d_model = {D_MODEL} (the paper's base model), pairs i = 0..{top}",
            verdict=verdict,
            witness={
                "lowest": "2*pi",
                "highest": f"2*pi*10000**({2 * top}/{D_MODEL})",
                "highest_value": enclosure(largest),
                "claimed_highest": "2*pi*10000",
                "gap": "2*pi*10000 - 2*pi*10000**(255/256)",
                "gap_value": enclosure(gap_ball),
                "ratio": "10000**(1/256)",
            },
        )
    ]


WIDTH = sp.Symbol("d_model", integer=True, positive=True, even=True)


def facts(found: list[Entry]) -> dict[str, Refutation]:
    """The claim's upper end, λ_(d/2 − 1) = 2π·10000^((d − 2)/d) = 2π·10000 for every even
    d_model, refuted at the paper's d_model = 512 (when the entry fails)."""
    top = 2 * sp.pi * sp.Pow(10000, (WIDTH - 2) / WIDTH, evaluate=False)
    refuted = Refutation(
        "vaswani_top_wavelength",
        "The largest wavelength 2π·10000^((d − 2)/d) is 10000·2π for every even d_model "
        f"(tried at d_model = {D_MODEL})",
        sp.Eq(top, 2 * sp.pi * 10000, evaluate=False),
        ((WIDTH, sp.Integer(D_MODEL)),),
    )
    return {e.id: refuted for e in found if e.verdict == "fails"}
