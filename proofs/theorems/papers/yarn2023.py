"""Peng et al. 2023, YaRN (arXiv 2309.00071), Eq. 17: which base the ratio r(d) = L/λ_d uses.

The paper defines the wavelength from the model's base, λ_d = 2π·b^(2d/|D|), and the ramp of
NTK-by-parts (Eq. 17-18) on r(d) = L/λ_d with that b, not the NTK-aware b′ = b·s^(|D|/(|D|−2))
of Eq. 16. transformers' _compute_yarn_parameters (find_correction_dim) uses `base` =
rope_theta, the same b. The entry encloses, for Llama 2 (|D| = 128, b = 10000, L = 4096) at
s = 16, the pair index where r = β = 32 under b and under b′, to show the reading matters.
The paper's ramp against the code's (linear in r against linear in i) is the theorem
`rope_scaling` of module 11 (pe-proofs prove rope_scaling).
"""

from __future__ import annotations

import sympy as sp
from flint import arb

from proofs.engine.balls import precision
from proofs.engine.facts import NonNegative
from proofs.theorems.papers.common.balls import enclosure
from proofs.theorems.papers.common.entry import Entry
from proofs.theorems.rope.definitions import enclosure_fact

DIM, BASE, LENGTH, SCALE, BETA = 128, 10000, 4096, 16, 32


def index_at(turns: int, base: arb) -> arb:
    """The real pair index d where r(d) = L/λ_d equals turns: |D|·ln(L/(2π·turns))/(2·ln base)."""
    return arb(DIM) * (arb(LENGTH) / (2 * arb.pi() * turns)).log() / (2 * base.log())


def entries() -> list[Entry]:
    """One entry: Eq. 17's base is b, and the code agrees."""
    with precision(256):
        b = arb(BASE)
        b_prime = b * arb(SCALE) ** (arb(DIM) / (DIM - 2))
        with_b, with_b_prime = index_at(BETA, b), index_at(BETA, b_prime)
    return [
        Entry(
            id="yarn2023.eq17_base",
            paper='Peng et al. 2023, "YaRN" (arXiv 2309.00071)',
            where="§3.2, Eq. 17 (λ_d from §3.1; b′ is Eq. 16)",
            claim="r(d) = L/λ_d with λ_d = 2π·b^(2d/|D|), the model's base b (not b′)",
            reading="transformers' find_correction_dim(num_rotations, dim, base=rope_theta, ...)",
            verdict="holds",
            witness={
                "paper_base": "b",
                "code_base": "rope_theta (= b)",
                "index_r_eq_32_with_b": enclosure(with_b),
                "index_r_eq_32_with_b_prime": enclosure(with_b_prime),
                "b_prime": "10000*16**(128/126)",
                "see_also": "pe-proofs prove rope_scaling (the paper's ramp against the code's)",
            },
        )
    ]


def facts(found: list[Entry]) -> dict[str, tuple[NonNegative, NonNegative]]:
    """The pair index where r(d) = β under b and under b′, each enclosed by the engine."""
    b_prime = BASE * sp.Pow(SCALE, sp.Rational(DIM, DIM - 2), evaluate=False)
    ratio = sp.Rational(LENGTH, 2 * BETA) / sp.pi
    indices = tuple(
        enclosure_fact(
            f"yarn_index_r_{BETA}_with_{name}",
            f"With {text}, r(d) = {BETA} at the real pair index |D|·ln(L/(2π·{BETA}))/(2·ln base) "
            f"(|D| = {DIM}, L = {LENGTH}), which lies in {{interval}}",
            sp.Integer(DIM) * sp.log(ratio) / (2 * sp.log(base)),
            5,
        )
        for name, text, base in (
            ("b", f"b = {BASE}", sp.Integer(BASE)),
            ("b_prime", f"b′ = {BASE}·{SCALE}^({DIM}/{DIM - 2})", b_prime),
        )
    )
    return {e.id: indices for e in found if e.id == "yarn2023.eq17_base"}
