"""The group laws of the shift maps in float64: M_j·M_k = M_(j+k), M_k·M_kᵀ = I, M_(−k) = M_kᵀ = M_k⁻¹.

The numeric twin of proofs/theorems/sinusoidal/group.py. Each law is checked for every (j, k) in a grid of
offsets, negative and non-integer ones included, against a rounding bound.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from numeric import validate
from numeric.result_table import Table
from numeric.rotations import rotation_blocks
from numeric.tables import frequencies

_U = 2.0**-53  # unit roundoff of float64


def group_tolerance(angle: float) -> float:
    """Bound on an entry's error for products of matrices whose angles add up to `angle` in size.

    Each angle k·ω is rounded (relative u), each sin/cos is within 2u, and a 2×2 product adds
    a couple of roundings; 4u per unit of angle and 16u in all cover every law checked here.
    """
    return 4 * _U * angle + 16 * _U


def group_table(
    *,
    d_model: int = 8,
    base: float = 10000.0,
    offsets: Iterable[float] = (0, 1, -3, 2.5, 100, -1000.25),
) -> Table:
    """Check the four group laws for every pair (j, k) of offsets; worst difference per law.

    M_k is block diagonal, so every product is taken block by block (a batch of 2×2 matrix
    products): the off-diagonal blocks of the dense product are exactly zero.
    """
    d_model = validate.d_model(d_model)
    offsets = tuple(validate.finite(k, "offsets") for k in offsets)
    if not offsets:
        raise ValueError("offsets must hold at least one number")
    omegas = frequencies(d_model, base=base)
    w_max = float(omegas.max())
    eye = np.eye(2)
    cases: dict[str, list[tuple[float, float]]] = {
        "compose": [],
        "orthogonal": [],
        "transpose": [],
        "inverse": [],
    }
    for k in offsets:
        r_k, r_minus = rotation_blocks(k, omegas), rotation_blocks(-k, omegas)
        r_k_t = np.swapaxes(r_k, -1, -2)
        tol_k = group_tolerance(2 * abs(k) * w_max)
        cases["orthogonal"].append((float(np.abs(r_k @ r_k_t - eye).max()), tol_k))
        cases["transpose"].append((float(np.abs(r_minus - r_k_t).max()), tol_k))
        cases["inverse"].append((float(np.abs(r_k @ r_minus - eye).max()), tol_k))
        for j in offsets:
            diff = float(
                np.abs(rotation_blocks(j, omegas) @ r_k - rotation_blocks(j + k, omegas)).max()
            )
            cases["compose"].append((diff, group_tolerance((abs(j) + abs(k) + abs(j + k)) * w_max)))
    laws = (
        ("M_j·M_k = M_(j+k)", "compose"),
        ("M_k·M_kᵀ = I", "orthogonal"),
        ("M_(−k) = M_kᵀ", "transpose"),
        ("M_k·M_(−k) = I", "inverse"),
    )
    rows = []
    for text, key in laws:
        found = cases[key]
        rows.append(
            (
                text,
                len(found),
                max(d for d, _ in found),
                max(d / t for d, t in found),
                all(d <= t for d, t in found),
            )
        )
    return Table(
        title=f"group laws of M_k, d_model = {d_model}, offsets {', '.join(f'{k:g}' for k in offsets)}",
        headline="the group laws of M_k",
        columns=("law", "cases", "max |difference|", "max difference / tolerance", "within"),
        rows=tuple(rows),
        formats=("", "d", ".2e", ".3f", ""),
        note="tolerance per case = 4u·(sum of |angles|) + 16u with u = 2^-53; all pairs of every case",
        passed=all(r[-1] for r in rows),
    )
