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
from names, on a sample of rows spread over the cache; the one whole pass over every row
(numeric.rope_audit.measure) confirms it there.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numeric.audit.errors import BadValueError
from numeric.rope_audit.source import CacheSource

LAYOUT_NAMES = ("cat(freqs,freqs)", "repeat_interleave", "freqs")


@dataclass(frozen=True)
class Columns:
    """layout: one of LAYOUT_NAMES; first, second: for pair i, the cache columns that hold it
    (equal in "freqs"); still: columns whose sin is 0 on every row; still_not_identity: those of
    them whose cos is not 1 somewhere; width: the cache's column count; repeat_mismatch: the
    largest difference between columns the layout says are equal; tolerance: how far they may
    differ."""

    layout: str
    first: np.ndarray
    second: np.ndarray
    still: tuple[int, ...]
    still_not_identity: tuple[int, ...]
    width: int
    repeat_mismatch: float
    tolerance: float = 0.0

    @property
    def pairs(self) -> int:
        return len(self.first)

    @property
    def rotary_dim(self) -> int:
        """Components that rotate: two per pair."""
        return 2 * self.pairs


def nonfinite_error(
    source: CacheSource, rows: np.ndarray, values: np.ndarray, name: str
) -> BadValueError:
    """The one-line error for the first NaN or infinity in values (rows: their row numbers)."""
    r, c = np.argwhere(~np.isfinite(values))[0]
    row = int(rows[r])
    return BadValueError(
        f"{source.what}: {name} has a non-finite value ({values[r, c]}) at row {row} "
        f"(position {source.positions[row]}), column {c}"
    )


def _gap(cos: np.ndarray | None, sin: np.ndarray | None, a: np.ndarray, b: np.ndarray) -> float:
    """max |column a_k − column b_k| over these rows, cos and sin alike."""
    gap = 0.0
    for values in (cos, sin):
        if values is not None and len(a):
            gap = max(gap, float(np.abs(values[:, a] - values[:, b]).max()))
    return gap


def find_columns(
    source: CacheSource,
    tolerance: float,
    rows: np.ndarray,
    values: tuple[np.ndarray | None, np.ndarray | None] | None = None,
) -> Columns:
    """The cache's layout, read from the values of these rows (a sample spread over the cache;
    the whole pass of numeric.rope_audit.measure then checks it on every row).

    tolerance: how far two columns may differ and still count as one frequency repeated (a
    few roundings of the stored format); values: the rows' (cos, sin) when already read.
    Raises ValueError at a NaN or infinity.
    """
    cos, sin = source.take(rows) if values is None else values
    for values, name in ((cos, "cos"), (sin, "sin")):
        if values is not None and not np.isfinite(values).all():
            raise nonfinite_error(source, rows, values, name)
    width = source.width
    # A column rotates when sin is ever non-zero (with cos alone: when cos ever changes).
    moving = np.any(sin != 0, axis=0) if sin is not None else np.any(cos != cos[:1], axis=0)  # type: ignore[index]
    not_one = np.zeros(width, dtype=bool) if cos is None else np.any(cos != 1, axis=0)
    still = np.flatnonzero(~moving)
    rotating = np.flatnonzero(moving)
    still_bad = tuple(int(c) for c in still if not_one[c])
    still_cols = tuple(int(c) for c in still)
    n = len(rotating)
    if n >= 2 and n % 2 == 0:
        half = n // 2
        for name, a, b in (
            ("cat(freqs,freqs)", rotating[:half], rotating[half:]),
            ("repeat_interleave", rotating[0::2], rotating[1::2]),
        ):
            gap = _gap(cos, sin, a, b)
            if gap <= tolerance:
                return Columns(name, a, b, still_cols, still_bad, width, gap, tolerance)
    return Columns("freqs", rotating, rotating, still_cols, still_bad, width, 0.0, tolerance)
