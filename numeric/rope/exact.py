"""The RoPE formulas in mpmath, written out on their own: the yardstick for the NumPy maps.

Nothing here is shared with numeric.rope.scaling or numeric.rope.papers, so that agreement
between the two is evidence. Each function evaluates the real-number formula at `dps` decimal
digits (the reference code's floor and ceiling are taken of the exact correction dimensions)
and returns an mpmath number.

>>> str(yarn_code(38, 128, 10000, 16, 4096))[:12]
'0.0014799925'
"""

from __future__ import annotations

import mpmath

DPS = 50


def _mpf(x: float | int | str) -> mpmath.mpf:
    return mpmath.mpf(x)


def theta(i: int, d: int, b: float) -> mpmath.mpf:
    """θ_i = b^(−2i/d)."""
    with mpmath.workdps(DPS + 10):
        return +mpmath.power(_mpf(b), -_mpf(2 * i) / d)


def correction_dim(n: float, d: int, b: float, length: int) -> mpmath.mpf:
    """The real index at which L/λ_i = n: d·ln(L/(2πn)) / (2·ln b)."""
    with mpmath.workdps(DPS + 10):
        return d * mpmath.log(_mpf(length) / (_mpf(n) * 2 * mpmath.pi)) / (2 * mpmath.log(_mpf(b)))


def yarn_code(
    i: int,
    d: int,
    b: float,
    s: float,
    length: int,
    beta_fast: float = 32,
    beta_slow: float = 1,
    truncate: bool = True,
) -> mpmath.mpf:
    """θ′_i of the reference code: ramp linear in i between ⌊i(β_fast)⌋ and ⌈i(β_slow)⌉,
    clamped to [0, d − 1], θ′ = θ/s·ramp + θ·(1 − ramp)."""
    with mpmath.workdps(DPS + 10):
        low = correction_dim(beta_fast, d, b, length)
        high = correction_dim(beta_slow, d, b, length)
        if truncate:
            low, high = mpmath.floor(low), mpmath.ceil(high)
        low, high = max(low, _mpf(0)), min(high, _mpf(d - 1))
        if low == high:
            high += _mpf("0.001")
        ramp = min(max((i - low) / (high - low), _mpf(0)), _mpf(1))
        t = theta(i, d, b)
        return +(t / s * ramp + t * (1 - ramp))


def yarn_paper(
    i: int, d: int, b: float, s: float, length: int, alpha: float = 1, beta: float = 32
) -> mpmath.mpf:
    """θ′_i of the paper (§3.2): γ(L/λ_i) with γ linear in r between α and β."""
    with mpmath.workdps(DPS + 10):
        t = theta(i, d, b)
        r = _mpf(length) * t / (2 * mpmath.pi)
        gamma = (
            _mpf(0) if r < alpha else _mpf(1) if r > beta else (r - alpha) / (_mpf(beta) - alpha)
        )
        return +((1 - gamma) * t / s + gamma * t)


def llama3(i: int, d: int, b: float, s: float, low: float, high: float, length: int) -> mpmath.mpf:
    """θ′_i of Meta's apply_scaling, on exact numbers: by the wavelength λ_i against L/high and L/low."""
    with mpmath.workdps(DPS + 10):
        t = theta(i, d, b)
        wavelength = 2 * mpmath.pi / t
        if wavelength < _mpf(length) / high:
            return t
        if wavelength > _mpf(length) / low:
            return t / s
        smooth = (length / wavelength - low) / (_mpf(high) - low)
        return +((1 - smooth) * t / s + smooth * t)


def dynamic_base(b: float, s: float, d: int, seq_len: int, length: int) -> mpmath.mpf:
    """b·(s·l/L − (s − 1))^(d/(d−2)) with l = max(seq_len, L)."""
    with mpmath.workdps(DPS + 10):
        l = max(seq_len, length)
        return +(_mpf(b) * (_mpf(s) * l / length - (_mpf(s) - 1)) ** (_mpf(d) / (d - 2)))


def decay_average(r: int, d: int, b: float) -> mpmath.mpf:
    """RoFormer's (2/d)·Σ_{j=1}^{d/2} |S_j(r)| with S_j(r) = Σ_{k<j} e^{i·r·θ_k} (§3.4.3)."""
    with mpmath.workdps(DPS + 10):
        partial = mpmath.mpc(0)
        total = _mpf(0)
        for k in range(d // 2):
            partial += mpmath.expj(r * theta(k, d, b))
            total += abs(partial)
        return +(2 * total / d)
