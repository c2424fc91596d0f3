"""xPos in float64 and float16: the twin of proofs/theorems/rope/xpos.py.

rotary-embedding-torch's xPos (ζ_i = (2i + 0.4·d)/(1.4·d), γ = 512, powers (t − L//2)/γ):
- scores of a sequence against the same sequence shifted by s agree (relative), within rounding;
- the same-sign variant (keys scaled by ζ^power too) does not;
- the first power u at which pair 0's key scale ζ_0^(−u/γ) is infinite in float16: rounded once
  from the exact value (the theorem's 4533), and along the library's path (ζ^(u/γ) in float32,
  cast to float16, a subnormal there, then inverted in float16).
"""

from __future__ import annotations

import numpy as np

from numeric import validate
from numeric.result_table import Table
from numeric.rope.scaling import default_frequencies
from numeric.rope.xpos import SCALE_BASE, first_fp16_overflow, xpos_zeta

_U = 2.0**-53
THEOREM_FIRST_OVERFLOW = 4533


def _score(q, k, m, n, freqs, zeta, key_sign: int = -1) -> float:
    """⟨ζ^(m/γ)G(mθ)q, ζ^(key_sign·n/γ)G(nθ)k⟩, pairs (2i, 2i + 1)."""
    qp, kp = q.reshape(-1, 2), k.reshape(-1, 2)

    def turn(p, pos, power):
        c, s = np.cos(pos * freqs), np.sin(pos * freqs)
        scale = zeta ** (power / SCALE_BASE)
        return np.stack([p[:, 0] * c - p[:, 1] * s, p[:, 0] * s + p[:, 1] * c], -1) * scale[:, None]

    return float(np.sum(turn(qp, m, m) * turn(kp, n, key_sign * n)))


def rope_xpos_table(*, head_dim: int = 64, base: float = 10000.0, seed: int = 0) -> Table:
    """The xPos checks; see the module docstring."""
    head_dim = validate.d_model(head_dim, "head_dim")
    base = validate.base(base)
    rng = np.random.default_rng(validate.integer(seed, "seed"))
    freqs, zeta = default_frequencies(head_dim, base), xpos_zeta(head_dim)
    q, k = rng.standard_normal(head_dim), rng.standard_normal(head_dim)
    rows = []
    worst, same_gap = 0.0, 0.0
    for _ in range(256):
        m, n = rng.integers(-1024, 1024, size=2).astype(np.float64)
        s = float(rng.integers(-1024, 1024))
        ref = _score(q, k, m, n, freqs, zeta)
        size = abs(ref) + np.linalg.norm(q) * np.linalg.norm(k) * float(
            np.max(zeta ** ((m - n) / SCALE_BASE))
        )
        worst = max(worst, abs(_score(q, k, m + s, n + s, freqs, zeta) - ref) / size)
        same = _score(q, k, m, n, freqs, zeta, 1)
        moved = _score(q, k, m + s, n + s, freqs, zeta, 1)
        same_gap = max(same_gap, abs(moved - same) / max(abs(same), abs(moved)))
    tolerance = (8 * _U * 4096 + 64 * _U) * head_dim
    rows.append(
        (
            "score(m + s, n + s) = score(m, n)",
            "256 random m, n, s; |·| < 1024",
            worst,
            tolerance,
            True,
        )
    )
    rows.append(("same-sign scale is not relative", "same 256", same_gap, 0.01, False))
    first = first_fp16_overflow(float(zeta[0]))
    checked = [
        (*r[:4], "at most" if r[4] else "above", (float(r[2]) <= r[3]) == r[4]) for r in rows
    ]
    checked.append(
        (
            "key scale of pair 0 infinite in fp16 from u =",
            "exact, rounded once",
            first["exact"],
            THEOREM_FIRST_OVERFLOW,
            "equal",
            first["exact"] == THEOREM_FIRST_OVERFLOW,
        )
    )
    # The library's path rounds ζ^(u/γ) to a float16 subnormal before inverting it, so it may
    # overflow earlier than the exact value, never later.
    library = first["library"]
    checked.append(
        (
            "key scale of pair 0 infinite in fp16 from u =",
            "library path (fp32, fp16, inverse)",
            library,
            THEOREM_FIRST_OVERFLOW,
            "at most",
            library is not None and library <= THEOREM_FIRST_OVERFLOW,
        )
    )
    return Table(
        title=f"xPos (rotary-embedding-torch), head_dim = {head_dim}, b = {base:g}, γ = {SCALE_BASE}",
        headline="xPos scores are relative, and its key scale leaves fp16 at u = 4533",
        columns=("claim", "case", "value", "bound", "expected", "as expected"),
        rows=tuple(checked),
        formats=("", "", ".3e", ".3e", "", ""),
        note=(
            f"random q, k, positions (seed {seed}); the overflow rows give the first u (= t − L//2) "
            "with an infinite key scale, against the theorem's 4533"
        ),
        passed=all(r[-1] for r in checked),
    )
