"""Pair a table's columns: equal fitted frequency, every row on the pair's circle, and the layout.

Columns are sorted by their recurrence frequency and paired with their neighbour; a pair is true
when its rows lie on a circle (sin² + cos² is constant). Pairs whose frequency stands apart from
the neighbouring columns' show the layout, which then places the rest (the slowest columns of a
short table cannot be told apart by frequency alone). When no two columns share a frequency, the
columns are paired as sines and cosines by their phase at row 0, to say how the frequencies split.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from numeric.table_audit import fit
from numeric.table_audit.measure import YARDSTICK
from numeric.table_audit.precision import rounding_bound

_SIGMAS = 5.0
# A column is read as a sine (cosine) when its phase at row 0 is within this of 0 (π/2).
_ROLE_TOLERANCE = 0.2


@dataclass(frozen=True)
class Pairing:
    """The pairs found, whether they are true (sin, cos) pairs of one frequency, the layout they
    follow, any column left without a partner, and per-column frequencies of would-be pairs."""

    pairs: fit.PairFit
    consistent: bool
    layout: str | None
    leftover: tuple[int, ...]
    split_frequencies: tuple[np.ndarray, ...] | None = None


def _circle_tolerance(precision: str, amplitude: np.ndarray) -> np.ndarray:
    """How far a true pair's rows may sit from its circle: the rounding of both entries."""
    bound = np.array([rounding_bound(precision, float(a)) for a in amplitude])
    return 4 * bound + 4 * YARDSTICK * amplitude


def _consistent(pairs: fit.PairFit, precision: str) -> np.ndarray:
    """Per pair: whether its rows turn (ω told apart from 0) and lie on the pair's circle, as the
    rows of a (sin, cos) pair do."""
    # 1e-12 rad a row: a period of 6e12 rows, longer than any table, so no frequency at all.
    turning = pairs.omega > _SIGMAS * pairs.omega_sigma + 1e-12
    return turning & (pairs.circle <= _circle_tolerance(precision, pairs.amplitude))


def _by_layout(table, valid, live, width, precision, resolved) -> Pairing | None:
    """All pairs placed by the layout that the well-resolved pairs follow, if every one fits."""
    layout = fit.layout_of(resolved.sin_cols, resolved.cos_cols, width)
    if layout is None:
        return None
    sin_cols, cos_cols = fit.layout_columns(layout, width)
    if not (live[sin_cols].all() and live[cos_cols].all()):
        return None
    pairs = fit.fit_pairs(table, valid, sin_cols, cos_cols)
    if not (np.array_equal(pairs.sin_cols, sin_cols) and _consistent(pairs, precision).all()):
        return None
    paired = set(sin_cols) | set(cos_cols)
    leftover = tuple(int(c) for c in np.flatnonzero(live) if c not in paired)
    return Pairing(pairs, True, layout, leftover)


def _by_phase(table, valid, cols, omega, sigma, leftover) -> Pairing | None:
    """Would-be pairs when no two columns share a frequency: sines and cosines by their phase at
    row 0 (positions from 0), paired in column order."""
    amplitude, phase = fit.column_phases(table, valid, cols, omega)
    sine = np.abs(fit.wrap(phase)) <= _ROLE_TOLERANCE
    cosine = np.abs(fit.wrap(phase - np.pi / 2)) <= _ROLE_TOLERANCE
    if not np.all(sine | cosine) or sine.sum() != cosine.sum():
        return None
    s, c = np.flatnonzero(sine), np.flatnonzero(cosine)
    pairs = fit.PairFit(
        sin_cols=cols[s],
        cos_cols=cols[c],
        omega=np.sqrt(omega[s] * omega[c]),
        omega_sigma=np.maximum(sigma[s], sigma[c]),
        phase=phase[s],
        phase_sigma=np.full(len(s), np.inf),
        amplitude=(amplitude[s] + amplitude[c]) / 2,
        circle=np.full(len(s), np.inf),
        angle_residual=np.full(len(s), np.inf),
    )
    layout = fit.layout_of(cols[s], cols[c], table.shape[1])
    return Pairing(pairs, False, layout, leftover, (omega[s], omega[c], sigma[s], sigma[c]))


def pair_columns(table: np.ndarray, valid: np.ndarray, live: np.ndarray, precision: str) -> Pairing:
    """Pair the non-zero columns by equal fitted frequency (see numeric.table_audit.fit)."""
    width = table.shape[1]
    cols = np.flatnonzero(live)
    omega, sigma = fit.column_frequencies(table, valid, cols)
    order = np.argsort(-omega, kind="stable")
    count = len(order) // 2 * 2
    leftover = tuple(int(c) for c in cols[order[count:]])
    a, b = order[0:count:2], order[1:count:2]
    if count == 0:
        empty = np.zeros(0, dtype=np.int64)
        nothing = fit.PairFit(*(empty,) * 2, *(np.zeros(0),) * 7)
        return Pairing(nothing, False, None, leftover)
    pairs = fit.fit_pairs(table, valid, cols[a], cols[b])
    consistent = _consistent(pairs, precision)
    # A pair is resolved when its frequency is told apart from the neighbouring columns'.
    first = np.arange(0, count, 2)
    last = len(order) - 1
    before = np.where(first > 0, omega[order[np.maximum(first - 1, 0)]] - omega[a], np.inf)
    after = np.where(
        first + 2 <= last, omega[b] - omega[order[np.minimum(first + 2, last)]], np.inf
    )
    resolved = consistent & (np.minimum(before, after) > 2 * _SIGMAS * (sigma[a] + sigma[b]))
    layout = fit.layout_of(pairs.sin_cols, pairs.cos_cols, width)
    if consistent.all() and layout is not None:
        # Already the layout's pairs: put them in its order (pair i at its columns).
        key = pairs.cos_cols if layout == "concatenated_cos_first" else pairs.sin_cols
        return Pairing(_select(pairs, np.argsort(key)), True, layout, leftover)
    if resolved.any():
        picked = _select(pairs, resolved)
        placed = _by_layout(table, valid, live, width, precision, picked)
        if placed is not None:
            return placed
    if consistent.all():
        return Pairing(pairs, True, None, leftover)
    by_phase = _by_phase(table, valid, cols, omega, sigma, leftover)
    return by_phase or Pairing(pairs, False, None, leftover)


def _select(pairs: fit.PairFit, which: np.ndarray) -> fit.PairFit:
    """The pairs picked by a boolean mask or an index array, every field alike."""
    return fit.PairFit(*(getattr(pairs, f.name)[which] for f in dataclasses.fields(pairs)))
