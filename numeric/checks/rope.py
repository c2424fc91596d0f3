"""RoPE scores in float64: ⟨M_p q, M_m k⟩ depends on p and m only through m − p.

The numeric twin of proofs/theorems/rope/bridge.py. Random query and key vectors are rotated pair by pair at
every position of a grid; each shift s compares score(p, m) with score(p + s, m + s), and a
last row compares score(p, m) with ⟨q, M_(m−p) k⟩. Both the RoPE schedule θ_i = ω_i and
random angles θ_i are checked.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from numeric import validate
from numeric.result_table import Table
from numeric.rotations import rotation_blocks
from numeric.tables import frequencies

_U = 2.0**-53  # unit roundoff of float64


def rotate(vectors: np.ndarray, positions: np.ndarray, thetas: np.ndarray) -> np.ndarray:
    """M_pos·v for each position: shape (positions, pairs, 2), pairs interleaved in v."""
    pairs = np.asarray(vectors, dtype=np.float64).reshape(-1, 2)
    blocks = np.stack([rotation_blocks(p, thetas) for p in positions])
    return (blocks @ pairs[None, :, :, None])[..., 0]


def scores(
    q: np.ndarray, k: np.ndarray, ps: np.ndarray, ms: np.ndarray, thetas: np.ndarray
) -> np.ndarray:
    """score[a, b] = ⟨M_(ps[a]) q, M_(ms[b]) k⟩."""
    return np.einsum("pia,mia->pm", rotate(q, ps, thetas), rotate(k, ms, thetas))


def rope_tolerance(angle: float, scale: float) -> float:
    """Bound on a score's error: angles up to `angle` rounded at u, sin/cos at 2u, the sum of
    products at a few u, all times the size ‖q‖·‖k‖ of the score."""
    return (8 * _U * angle + 32 * _U) * scale


def rope_table(
    *,
    d_model: int = 8,
    base: float = 10000.0,
    positions: int = 64,
    shifts: Iterable[float] = (1, 7, -5, 100.5, 1000),
    seed: int = 0,
) -> Table:
    """score(p, m) − score(p + s, m + s) over a grid of p, m in [0, positions), for each shift s."""
    d_model = validate.d_model(d_model)
    positions = validate.max_len(positions, "positions")
    if positions == 0:
        raise ValueError("positions must be positive, got 0")
    shifts = tuple(validate.finite(s, "shifts") for s in shifts)
    rng = np.random.default_rng(validate.integer(seed, "seed"))
    q, k = rng.standard_normal(d_model), rng.standard_normal(d_model)
    scale = float(np.linalg.norm(q) * np.linalg.norm(k))
    grid = np.arange(positions, dtype=np.float64)
    schedules = (
        ("θ_i = ω_i", frequencies(d_model, base=base)),
        ("random θ_i", rng.uniform(0.0, 1.0, d_model // 2)),
    )
    rows = []
    for name, thetas in schedules:
        t_max = float(thetas.max())
        base_scores = scores(q, k, grid, grid, thetas)
        for s in shifts:
            diff = float(np.abs(scores(q, k, grid + s, grid + s, thetas) - base_scores).max())
            tol = rope_tolerance((positions + abs(s)) * t_max, scale)
            rows.append((name, f"s = {s:g}", positions**2, diff, tol, diff <= tol))
        # ⟨q, M_δ k⟩ once per offset δ = m − p, then read off for every (p, m).
        deltas = np.arange(-(positions - 1), positions, dtype=np.float64)
        by_offset = np.einsum("ia,dia->d", q.reshape(-1, 2), rotate(k, deltas, thetas))
        relative = by_offset[(grid[None, :] - grid[:, None]).astype(int) + positions - 1]
        diff = float(np.abs(relative - base_scores).max())
        tol = rope_tolerance(positions * t_max, scale)
        rows.append((name, "⟨q, M_(m−p) k⟩", positions**2, diff, tol, diff <= tol))
    return Table(
        title=f"RoPE scores depend only on m − p: d_model = {d_model}, p, m in [0, {positions})",
        headline="RoPE scores depend only on m − p",
        columns=(
            "angles",
            "compared with",
            "(p, m) pairs",
            "max |difference|",
            "tolerance",
            "within",
        ),
        rows=tuple(rows),
        formats=("", "", "d", ".2e", ".2e", ""),
        note=(
            f"random q, k (seed {seed}); tolerance = (8u·max angle + 32u)·‖q‖·‖k‖ with u = 2^-53"
        ),
        passed=all(r[-1] for r in rows),
    )
