"""The RoPE formulas in mpmath, written out on their own: the yardstick for the NumPy maps.

Nothing here is shared with numeric.rope.scaling or numeric.rope.papers, so that agreement
between the two is evidence. Each function evaluates the real-number formula at DPS decimal
digits and returns an mpmath number. Each scaling method's own exact reference is in its file
(numeric/rope/methods, ScalingMethod.exact), written apart from its NumPy map in the same way.

>>> str(theta(1, 128, 10000))[:12]
'0.8659643233'
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


def decay_average(r: int, d: int, b: float) -> mpmath.mpf:
    """RoFormer's (2/d)·Σ_{j=1}^{d/2} |S_j(r)| with S_j(r) = Σ_{k<j} e^{i·r·θ_k} (§3.4.3)."""
    with mpmath.workdps(DPS + 10):
        partial = mpmath.mpc(0)
        total = _mpf(0)
        for k in range(d // 2):
            partial += mpmath.expj(r * theta(k, d, b))
            total += abs(partial)
        return +(2 * total / d)
