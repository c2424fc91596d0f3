"""Which columns of a cos/sin cache rotate, and which of them hold the same frequency.

A RoPE cache repeats each pair's cos (and sin) in the two columns the pair's components use:
- "cat(freqs,freqs)": columns j and j + n are equal (transformers' Llama and GPT-NeoX caches,
  consumed by rotate_half);
- "repeat_interleave": columns 2i and 2i + 1 are equal (GPT-J's cache after
  apply_rotary_pos_emb, consumed by rotate_every_two);
- "freqs": one column per pair, nothing repeated (Meta's and DeepSeek-V2's complex freqs_cis).
Columns whose sin is zero on every row do not rotate; a correct implementation leaves those
components unchanged, so their cos must be 1 there.

The layout is read from the values (columns equal within the stored format's rounding), never
from names.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numeric.rope_audit.source import CacheSource

LAYOUT_NAMES = ("cat(freqs,freqs)", "repeat_interleave", "freqs")


@dataclass(frozen=True)
class Columns:
    """layout: one of LAYOUT_NAMES; first, second: for pair i, the cache columns that hold it
    (equal in "freqs"); still: columns whose sin is 0 on every row; still_not_identity: those of
    them whose cos is not 1 somewhere; width: the cache's column count; repeat_mismatch: the
    largest difference between columns the layout says are equal."""

    layout: str
    first: np.ndarray
    second: np.ndarray
    still: tuple[int, ...]
    still_not_identity: tuple[int, ...]
    width: int
    repeat_mismatch: float

    @property
    def pairs(self) -> int:
        return len(self.first)

    @property
    def rotary_dim(self) -> int:
        """Components that rotate: two per pair."""
        return 2 * self.pairs


def _nonfinite(source: CacheSource, a: int, values: np.ndarray, name: str) -> ValueError:
    r, c = np.argwhere(~np.isfinite(values))[0]
    return ValueError(
        f"{source.what}: {name} has a non-finite value ({values[r, c]}) at row {a + r} "
        f"(position {source.positions[a + r]}), column {c}"
    )


def _scan(source: CacheSource) -> tuple[np.ndarray, np.ndarray, float]:
    """One pass over every row: per column whether it rotates (sin ever non-zero; with cos
    alone, cos ever different from its first row) and whether cos is ever not 1, and the
    largest gap between the two halves (a cat(freqs, freqs) cache has none). Values are
    compared in their own format. Raises ValueError at the first NaN or infinity."""
    width = source.width
    moving = np.zeros(width, dtype=bool)
    not_one = np.zeros(width, dtype=bool)
    half = width // 2
    cat_gap = 0.0 if width % 2 == 0 else np.inf
    for a, _, cos, sin in source.blocks(native=True):
        for values, name in ((cos, "cos"), (sin, "sin")):
            if values is None:
                continue
            if not np.isfinite(values).all():
                raise _nonfinite(source, a, values, name)
            if width % 2 == 0 and cat_gap <= 1.0:
                left, right = values[:, :half], values[:, half:]
                gap = np.abs(left - right, dtype=np.float64).max(initial=0.0)
                cat_gap = max(cat_gap, float(gap))
        if sin is not None:
            moving |= np.any(sin != 0, axis=0)
        if cos is not None:
            not_one |= np.any(cos != 1, axis=0)
            if sin is None:
                moving |= np.any(cos != cos[:1], axis=0)
    return moving, not_one, cat_gap


def _repeat_gap(source: CacheSource, a: np.ndarray, b: np.ndarray) -> float:
    """max |column a_k − column b_k| over every row, cos and sin alike."""
    gap = 0.0
    as_slices = [column_slice(c) for c in (a, b)]
    for _, _, cos, sin in source.blocks(native=True):
        for values in (cos, sin):
            if values is not None and len(a):
                left, right = (values[:, s] for s in as_slices)
                gap = max(gap, float(np.abs(left - right, dtype=np.float64).max()))
    return gap


def column_slice(cols: np.ndarray) -> slice | np.ndarray:
    """cols as a slice when evenly spaced and increasing (a view, no copy), else as is."""
    if len(cols) > 1 and np.all(np.diff(cols) == cols[1] - cols[0]) and cols[1] > cols[0]:
        return slice(int(cols[0]), int(cols[-1]) + 1, int(cols[1] - cols[0]))
    if len(cols) == 1:
        return slice(int(cols[0]), int(cols[0]) + 1)
    return cols


def find_columns(source: CacheSource, tolerance: float) -> Columns:
    """The cache's layout, read from its values (every value is checked finite on the way).

    tolerance: how far two columns may differ and still count as one frequency repeated (a
    few roundings of the stored format).
    """
    moving, not_one, cat_gap = _scan(source)
    width = source.width
    still = np.flatnonzero(~moving)
    rotating = np.flatnonzero(moving)
    still_bad = tuple(int(c) for c in still if not_one[c])
    still_cols = tuple(int(c) for c in still)
    n = len(rotating)
    if n >= 2 and n % 2 == 0:
        half = n // 2
        candidates = (
            ("cat(freqs,freqs)", rotating[:half], rotating[half:], cat_gap),
            ("repeat_interleave", rotating[0::2], rotating[1::2], None),
        )
        for name, a, b, gap in candidates:
            if gap is None or len(still):  # the scan's gap was over every column
                gap = _repeat_gap(source, a, b)
            if gap <= tolerance:
                return Columns(name, a, b, still_cols, still_bad, width, gap)
    return Columns("freqs", rotating, rotating, still_cols, still_bad, width, 0.0)
