"""A black-box apply_rope probed with basis vectors: the 2×2 block of every pair at every position.

RoPE at position p is a linear map M_p of the head's components; apply_rope(e_k, p) is its
column k. The probe sends all head_dim basis vectors at once (a batch of head_dim rows per
position, x of shape (head_dim, positions, head_dim)), a few hundred positions per call, and
keeps only what the audit needs, so memory stays bounded whatever the number of positions:
- which components each one mixes with (from the first positions): its partner, or none;
- per pair (a, b): M[a,a] and M[b,a] (cos and sin of the a-side), M[b,b] and −M[a,b] (the
  b-side, equal to them in a rotation);
- the largest entry outside the pairs' blocks, and how far unpaired components are from
  being left unchanged.
The pairs then read as a cat(freqs, freqs) cache of the function's own pairing, which the
cache audit identifies (numeric.rope_audit.identify).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from numeric.rope.floats import storage_dtype, unit_roundoff

DTYPES = ("float64", "float32", "float16", "bfloat16")
_PROBE_BYTES = 2**25  # bytes of one call's input
MAX_HEAD_DIM = 1024
MAX_POSITIONS = 2**20
# The pairs' cos and sin are kept for every position probed: at most this many entries each.
MAX_ENTRIES = 2**23


@dataclass(frozen=True)
class Probe:
    """pairs: (a, b) components of each rotating pair, a < b; unpaired: the other components;
    cos, sin: (positions, 2·pairs) in cat order (a-sides then b-sides); leak: the largest
    |M[o, k]| outside the pairs' blocks and the identity of unpaired components; still_off:
    per unpaired component, the largest |M[k, k] − 1|; mixing: components that mix with more
    than one other; out_dtype: the dtype the function returned."""

    pairs: tuple[tuple[int, int], ...]
    unpaired: tuple[int, ...]
    cos: np.ndarray
    sin: np.ndarray
    leak: float
    still_off: dict[int, float]
    mixing: tuple[int, ...]
    out_dtype: str


def check_dtype(value: object) -> str:
    if value not in DTYPES:
        raise ValueError(f"dtype must be one of {', '.join(DTYPES)}, got {value!r}")
    return str(value)


def _cast(x: np.ndarray, dtype: str) -> np.ndarray:
    return x.astype(storage_dtype(dtype))


def _call(apply_rope: Callable, x: np.ndarray, positions: np.ndarray) -> np.ndarray:
    out = np.asarray(apply_rope(x, positions))
    if out.shape != x.shape:
        raise ValueError(
            f"apply_rope returned shape {out.shape} for x of shape {x.shape}: it must return "
            "the rotated x, same shape"
        )
    if out.dtype.kind not in "fc" and out.dtype.name != "bfloat16":
        raise ValueError(f"apply_rope returned dtype {out.dtype}; it must return real numbers")
    values = out.astype(np.float64)
    if not np.all(np.isfinite(values)):
        k, p, c = np.argwhere(~np.isfinite(values))[0]
        raise ValueError(
            f"apply_rope returned a non-finite value at position {positions[p]} (input basis "
            f"vector {k}, component {c})"
        )
    return values


def _partners(blocks: np.ndarray, tolerance: float) -> tuple[dict[int, list[int]], float]:
    """Per input component, the other components it reaches on these positions."""
    size = np.abs(blocks).max(axis=0)  # (out, in)
    d = size.shape[0]
    reach: dict[int, list[int]] = {}
    for k in range(d):
        reach[k] = [int(o) for o in np.flatnonzero(size[:, k] > tolerance) if o != k]
    return reach, float(size.max())


def probe(apply_rope: Callable, *, head_dim: int, positions: np.ndarray, dtype: str) -> Probe:
    """Probe apply_rope(x, positions) with basis vectors in dtype at these positions."""
    d = head_dim
    tolerance = 64 * unit_roundoff(dtype)
    per_call = max(1, min(len(positions), _PROBE_BYTES // (8 * d * d)))
    eye = np.eye(d)
    first = positions[:per_call]
    x = _cast(np.broadcast_to(eye[:, None, :], (d, len(first), d)).copy(), dtype)
    y = _call(apply_rope, x, first)
    blocks = y.transpose(1, 2, 0)  # (positions, out, in)
    reach, _ = _partners(blocks, tolerance)
    mixing = tuple(k for k, r in reach.items() if len(r) > 1)
    pairs = sorted(
        {tuple(sorted((k, r[0]))) for k, r in reach.items() if len(r) == 1 and reach[r[0]] == [k]}
    )
    paired = {c for p in pairs for c in p}
    unpaired = tuple(k for k in range(d) if k not in paired and k not in mixing)
    a = np.array([p[0] for p in pairs], dtype=np.int64)
    b = np.array([p[1] for p in pairs], dtype=np.int64)
    n = len(positions)
    cos = np.empty((n, 2 * len(pairs)))
    sin = np.empty((n, 2 * len(pairs)))
    mask = np.ones((d, d), dtype=bool)
    mask[a, a] = mask[b, a] = mask[a, b] = mask[b, b] = False
    mask[list(unpaired), list(unpaired)] = False
    leak = 0.0
    still_off = {k: 0.0 for k in unpaired}
    for start in range(0, n, per_call):
        at = positions[start : start + per_call]
        if start:
            x = _cast(np.broadcast_to(eye[:, None, :], (d, len(at), d)).copy(), dtype)
            blocks = _call(apply_rope, x, at).transpose(1, 2, 0)
        rows = slice(start, start + len(at))
        h = len(pairs)
        cos[rows, :h] = blocks[:, a, a]
        sin[rows, :h] = blocks[:, b, a]
        cos[rows, h:] = blocks[:, b, b]
        sin[rows, h:] = -blocks[:, a, b]
        leak = max(leak, float(np.abs(blocks[:, mask]).max(initial=0.0)))
        for k in unpaired:
            still_off[k] = max(still_off[k], float(np.abs(blocks[:, k, k] - 1).max()))
    out_dtype = "bfloat16" if dtype == "bfloat16" else str(np.dtype(storage_dtype(dtype)))
    return Probe(tuple(pairs), unpaired, cos, sin, leak, still_off, mixing, out_dtype)
