"""The frequency schedules the audit names: ω_i = base^(-i/(d/2 - shift)), i = 0 .. d/2 - 1.

shift 0 is the paper's base^(-2i/d), shift 1 tensor2tensor's base^(-i/(d/2-1)) (fairseq,
Whisper, diffusers' default), and diffusers' get_timestep_embedding takes any shift as its
downscale_freq_shift. Exact frequencies come from numeric.angles for the first two and from
mpmath here for the others, split the same way, so row·ω is reduced mod 2π as accurately.
"""

from __future__ import annotations

from functools import lru_cache

import mpmath
import numpy as np

from numeric.angles import OMEGA_BITS, Frequencies, frequency_pieces
from numeric.reference import reference_pe

SHIFTS = {"paper": 0.0, "tensor2tensor": 1.0}
# Shifts tried for a table that neither named schedule fits: halves in [-1, 2].
OTHER_SHIFTS = (0.5, 1.5, 2.0, -0.5, -1.0)


def name_of(shift: float) -> str:
    """'paper', 'tensor2tensor', or 'diffusers' (another downscale_freq_shift)."""
    for name, value in SHIFTS.items():
        if shift == value:
            return name
    return "diffusers"


def describe(shift: float) -> str:
    """The schedule in words: 'paper', 'tensor2tensor', 'diffusers' (shift 0.5)'."""
    name = name_of(shift)
    return name if name != "diffusers" else f"diffusers (downscale_freq_shift = {shift:g})"


def _split(x: mpmath.mpf) -> tuple[float, float, float]:
    """x as hi + mid + lo, hi and mid with OMEGA_BITS significant bits each (numeric.angles)."""
    pieces = []
    rest = x
    for _ in range(2):
        if rest == 0:
            pieces.append(0.0)
            continue
        mantissa, exponent = mpmath.frexp(rest)
        piece = mpmath.ldexp(mpmath.nint(mpmath.ldexp(mantissa, OMEGA_BITS)), exponent - OMEGA_BITS)
        pieces.append(float(piece))
        rest -= piece
    pieces.append(float(rest))
    return pieces[0], pieces[1], pieces[2]


def _omega(i: int, d: int, base: float, shift: float) -> mpmath.mpf:
    return mpmath.power(mpmath.mpf(base), -mpmath.mpf(i) / (mpmath.mpf(d // 2) - mpmath.mpf(shift)))


@lru_cache(maxsize=64)
def pieces(d: int, base: float, shift: float) -> Frequencies:
    """The exact frequencies of the schedule, rounded and split (numeric.angles.Frequencies)."""
    name = name_of(shift)
    if name != "diffusers":
        return frequency_pieces(d, base, name)
    with mpmath.workprec(256):
        omegas = [_omega(i, d, base, shift) for i in range(d // 2)]
        split = np.array([_split(w) for w in omegas]).T
        approx = np.array([float(w) for w in omegas])
    return Frequencies(approx, split[0], split[1], split[2])


def reference(
    positions: list[float], dims: list[int], d: int, base: float, shift: float, dps: int
) -> np.ndarray:
    """The exact entries at the positions and interleaved dims, as mpmath numbers good to dps
    digits (written out here for other shifts, independent of the float64 tables)."""
    name = name_of(shift)
    if name != "diffusers":
        return reference_pe(positions, dims, d, base=base, dps=dps, schedule=name)
    out = np.empty((len(positions), len(dims)), dtype=object)
    with mpmath.workdps(dps + 20):
        omegas = {i: _omega(i, d, base, shift) for i in {dim // 2 for dim in dims}}
        for j, position in enumerate(positions):
            p = mpmath.mpf(position)
            for k, dim in enumerate(dims):
                angle = p * omegas[dim // 2]
                out[j, k] = mpmath.cos(angle) if dim % 2 else mpmath.sin(angle)
    return out
