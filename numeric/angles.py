"""Angles k·ω mod 2π in float64 with an error of an ulp of π, for the tables (numeric.tables).

ω_i is kept in 256-bit precision and split into three float64 pieces w1 + w2 + w3, and 2π into
P1 + P2 + P3, the leading pieces short enough that m·w1 and n·P1 are exact for every position m
and multiple n a table uses. Subtracting n·2π then cancels the large part of m·ω without error,
where the direct float64 product would already have lost the digits that decide sin and cos.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import mpmath
import numpy as np

# Bits kept in the leading pieces of ω and 2π: |m| < 2**31 times a 22-bit piece, and a
# multiple n < 2**29 of 2π times a 24-bit piece, are both exact in float64.
OMEGA_BITS = 22
_TWO_PI_BITS = 24


def _split(x: mpmath.mpf, bits: int) -> tuple[float, float, float]:
    """x as hi + mid + lo: hi and mid carry `bits` significant bits each, lo is the rest."""
    pieces = []
    rest = x
    for _ in range(2):
        if rest == 0:
            pieces.append(0.0)
            continue
        mantissa, exponent = mpmath.frexp(rest)
        piece = mpmath.ldexp(mpmath.nint(mpmath.ldexp(mantissa, bits)), exponent - bits)
        pieces.append(float(piece))
        rest -= piece
    pieces.append(float(rest))
    return pieces[0], pieces[1], pieces[2]


with mpmath.workprec(256):
    _P1, _P2, _P3 = _split(2 * mpmath.pi, _TWO_PI_BITS)
_INV_TWO_PI = 1.0 / (2.0 * math.pi)


@dataclass(frozen=True)
class Frequencies:
    """ω_i (correctly rounded) and its split into exact-product pieces w1 + w2 + w3."""

    approx: np.ndarray
    w1: np.ndarray
    w2: np.ndarray
    w3: np.ndarray


def omega(i: int, d_model: int, base: float, schedule: str = "paper") -> mpmath.mpf:
    """ω_i in the working precision: base^(-2i/d_model), or tensor2tensor's base^(-i/(d_model/2 - 1))."""
    if schedule == "tensor2tensor":
        # tensor2tensor guards d_model = 2 (one pair) with max(..., 1).
        return mpmath.power(mpmath.mpf(base), -mpmath.mpf(i) / max(d_model // 2 - 1, 1))
    return mpmath.power(mpmath.mpf(base), -mpmath.mpf(2 * i) / d_model)


@lru_cache(maxsize=64)
def frequency_pieces(d_model: int, base: float, schedule: str = "paper") -> Frequencies:
    """The pair frequencies ω_i of d_model (schedule "paper" or "tensor2tensor"), rounded and split."""
    with mpmath.workprec(256):
        omegas = [omega(i, d_model, base, schedule) for i in range(d_model // 2)]
        pieces = np.array([_split(w, OMEGA_BITS) for w in omegas]).T
        approx = np.array([float(w) for w in omegas])
    return Frequencies(approx, pieces[0], pieces[1], pieces[2])


def _two_sum(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


def reduced_angles(m: np.ndarray, freq: Frequencies) -> np.ndarray:
    """m·ω_i reduced to about [-π, π] with an absolute error of an ulp of π; m is a column of ints."""
    n = np.rint(m * freq.approx * _INV_TWO_PI)
    # Both products are exact and so is their difference (it is a multiple of w1's last bit
    # and small), so the large part of the angle cancels without error.
    s = m * freq.w1 - n * _P1
    s, e1 = _two_sum(s, m * freq.w2)
    s, e2 = _two_sum(s, -n * _P2)
    return s + (e1 + e2 + (m * freq.w3 - n * _P3))


def fraction_phase(fraction: float, d_model: int, base: float, schedule: str) -> np.ndarray:
    """fraction·ω_i modulo 2π, for a non-integer start."""
    with mpmath.workprec(256):
        two_pi = 2 * mpmath.pi
        return np.array(
            [
                float(mpmath.fmod(fraction * omega(i, d_model, base, schedule), two_pi))
                for i in range(d_model // 2)
            ]
        )
