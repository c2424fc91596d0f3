"""2-D axial RoPE in float64: the twin of proofs/theorems/rope/axial.py.

Random q and k of a head whose first half of pairs turns with x and second half with y (the
layout of torchtune's vision RoPE and timm's grid RoPE), at every pair of patches of a grid:
- the score depends on (Δx, Δy) alone: the spread of the scores sharing one (Δx, Δy);
- it equals ⟨q, R(Δx, Δy)k⟩;
- a diagonal offset (k, k) is no offset (j, 0) along x: for each k, the smallest over j of the
  largest |score(k, k) − score(j, 0)| over random q and k;
- nor the offset √2·k along x.
Differences are relative to ‖q‖·‖k‖.
"""

from __future__ import annotations

import numpy as np

from numeric import validate
from numeric.result_table import Table
from numeric.rope.axial import axial_scores, grid_positions, split_axes
from numeric.rope.scaling import default_frequencies

_U = 2.0**-53
# A separation well above rounding: what the diagonal rows must exceed.
_APART = 1e-3


def rope_axial_table(
    *, head_dim: int = 64, base: float = 10000.0, grid: int = 8, samples: int = 16, seed: int = 0
) -> Table:
    """The axial RoPE checks on a grid × grid patch grid; see the module docstring."""
    head_dim = validate.d_model(head_dim, "head_dim")
    if head_dim % 4:
        raise ValueError(f"head_dim must be a multiple of 4 (pairs for x and y), got {head_dim}")
    base = validate.base(base)
    grid = validate.integer(grid, "grid")
    if not 2 <= grid <= 64:
        raise ValueError(f"grid must be in [2, 64], got {grid}")
    rng = np.random.default_rng(validate.integer(seed, "seed"))
    pairs = head_dim // 2
    axes = split_axes(pairs)
    # Each axis gets the frequencies of a head of width head_dim/2, as torchtune's vision RoPE.
    freqs = np.tile(default_frequencies(head_dim // 2, base), 2)
    at = grid_positions(grid, grid)
    rows = []

    q, k = rng.standard_normal(head_dim), rng.standard_normal(head_dim)
    size = float(np.linalg.norm(q) * np.linalg.norm(k))
    scores = axial_scores(q, k, at, at, axes, freqs) / size
    delta = (at[None, :, :] - at[:, None, :]).reshape(-1, 2)
    flat = scores.reshape(-1)
    keys = (delta[:, 0] + grid) * (4 * grid) + (delta[:, 1] + grid)
    order = np.argsort(keys, kind="stable")
    groups = np.split(flat[order], np.flatnonzero(np.diff(keys[order])) + 1)
    spread = max(float(g.max() - g.min()) for g in groups)
    angle = float(2 * grid * freqs.max())
    tolerance = 8 * _U * angle * pairs + 32 * _U * pairs
    rows.append(
        ("score depends on (Δx, Δy) alone", f"{len(groups)} offsets", spread, tolerance, True)
    )
    relative = axial_scores(q, k, np.zeros((1, 2)), delta, axes, freqs)[0] / size
    worst = float(np.max(np.abs(relative - flat)))
    rows.append(("score = ⟨q, R(Δx, Δy)k⟩", f"{flat.size} pairs", worst, tolerance, True))

    qs, ks = rng.standard_normal((samples, head_dim)), rng.standard_normal((samples, head_dim))
    js = np.arange(-2 * grid, 2 * grid + 1, dtype=np.float64)
    closest = np.inf
    isotropic = np.inf
    for step in range(1, grid):
        diag = np.array([[step, step]], dtype=np.float64)
        along = np.stack([js, np.zeros_like(js)], axis=1)
        gaps = np.zeros(js.size)
        gap_iso = 0.0
        for qv, kv in zip(qs, ks, strict=True):
            s = float(np.linalg.norm(qv) * np.linalg.norm(kv))
            d = axial_scores(qv, kv, np.zeros((1, 2)), diag, axes, freqs)[0, 0] / s
            gaps = np.maximum(
                gaps, np.abs(axial_scores(qv, kv, np.zeros((1, 2)), along, axes, freqs)[0] / s - d)
            )
            iso = np.array([[np.sqrt(2) * step, 0.0]])
            gap_iso = max(
                gap_iso,
                float(abs(axial_scores(qv, kv, np.zeros((1, 2)), iso, axes, freqs)[0, 0] / s - d)),
            )
        closest = min(closest, float(gaps.min()))
        isotropic = min(isotropic, gap_iso)
    rows.append(
        (
            "(k, k) is no (j, 0): min over k, j of max gap",
            f"k < {grid}, |j| ≤ {2 * grid}",
            closest,
            _APART,
            False,
        )
    )
    rows.append(("(k, k) is not (√2·k, 0)", f"k < {grid}", isotropic, _APART, False))
    checked = [(*r, (r[2] <= r[3]) == r[4]) for r in rows]
    return Table(
        title=f"2-D axial RoPE, head_dim = {head_dim}, b = {base:g}, {grid}×{grid} grid",
        headline="axial scores depend on (Δx, Δy) alone, and a diagonal is no axis offset",
        columns=("claim", "case", "value", "bound", "at most the bound", "as expected"),
        rows=tuple(checked),
        formats=("", "", ".3e", ".3e", "", ""),
        note=(
            f"random q, k (seed {seed}); values relative to ‖q‖·‖k‖; the first two rows must be "
            "within rounding, the last two must exceed the bound"
        ),
        passed=all(r[-1] for r in checked),
    )
