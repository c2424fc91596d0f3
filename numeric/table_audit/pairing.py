"""Pair a table's columns: equal fitted frequency, every row on the pair's circle, and the column
structure the pairs follow.

Columns are sorted by their recurrence frequency and paired with their neighbour; a pair is true
when its rows lie on a circle (sin² + cos² is constant). Pairs whose frequency stands apart from
the neighbouring columns' show the structure (adjacent columns, or column j with j + d/2), which
then places the rest (the slowest columns of a short table cannot be told apart by frequency
alone). Which column of a pair is the sine is decided later (numeric.table_audit.orientation).
When no two columns share a frequency, the columns are paired as sines and cosines by their
phase at row 0, to say how the frequencies split.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from numeric.audit.precision import rounding_bound
from numeric.audit.rows import Rows
from numeric.table_audit import fit

_SIGMAS = 5.0
# A column is read as a sine (cosine) when its phase at row 0 is within this of 0 (π/2).
_ROLE_TOLERANCE = 0.2
# The float64 yardstick's own error, per unit amplitude (numeric.tables.accuracy_bound).
_YARDSTICK = 2e-15


@dataclass(frozen=True)
class Pairing:
    """The pairs found (columns a < b), whether they are true (sin, cos) pairs of one frequency,
    the column structure they follow ('adjacent': columns 2i, 2i+1; 'halves': i, i + d/2),
    any column left without a partner, and per-column frequencies of would-be pairs."""

    pairs: fit.PairFit
    consistent: bool
    structure: str | None
    leftover: tuple[int, ...]
    split_frequencies: tuple[np.ndarray, ...] | None = None
    # Sines and cosines that do share their frequencies while rows leave the pairs' circles.
    off_circle: bool = False


def circle_tolerance(precision: str, amplitude: np.ndarray, magnitude: float = 0.0) -> np.ndarray:
    """How far a true pair's rows may sit from its circle: the rounding of both entries, which
    were rounded at magnitude up to the table's largest value (a constant may have been added)."""
    bound = np.array([rounding_bound(precision, max(float(a), magnitude)) for a in amplitude])
    return 4 * bound + 4 * _YARDSTICK * amplitude


def _consistent(pairs: fit.PairFit, precision: str, magnitude: float) -> np.ndarray:
    """Per pair: whether its rows turn (a frequency told apart from 0) and lie on the pair's
    circle, as the rows of a (sin, cos) pair do."""
    # 1e-12 rad a row: a period of 6e12 rows, longer than any table, so no frequency at all.
    turning = np.abs(pairs.slope) > _SIGMAS * pairs.slope_sigma + 1e-12
    return turning & (pairs.circle <= circle_tolerance(precision, pairs.amplitude, magnitude))


def structure_of(a_cols: np.ndarray, b_cols: np.ndarray, width: int) -> str | None:
    """'adjacent' if every pair is columns (2i, 2i+1), 'halves' if every pair is (i, i + d/2)."""
    if np.all(a_cols % 2 == 0) and np.all(b_cols == a_cols + 1):
        return "adjacent"
    half = width // 2
    if np.all(a_cols < half) and np.all(b_cols == a_cols + half):
        return "halves"
    return None


def structure_columns(structure: str, width: int) -> tuple[np.ndarray, np.ndarray]:
    """(first columns, second columns) of every pair i = 0 .. width//2 - 1 in the structure."""
    i = np.arange(width // 2)
    if structure == "adjacent":
        return 2 * i, 2 * i + 1
    return i, i + width // 2


def _select(pairs: fit.PairFit, which: np.ndarray) -> fit.PairFit:
    """The pairs picked by a boolean mask or an index array, every per-pair field alike."""
    fields = {f.name: getattr(pairs, f.name) for f in dataclasses.fields(pairs)}
    return fit.PairFit(**{k: (v if k == "inlier_rows" else v[which]) for k, v in fields.items()})


def _by_structure(table, valid, live, width, precision, magnitude, floor, resolved):
    """All pairs placed by the structure the well-resolved pairs follow, if every one fits."""
    structure = structure_of(resolved.a_cols, resolved.b_cols, width)
    if structure is None:
        return None
    a_cols, b_cols = structure_columns(structure, width)
    if not (live[a_cols].all() and live[b_cols].all()):
        return None
    pairs = fit.fit_pairs(table, valid, a_cols, b_cols, floor)
    if not _consistent(pairs, precision, magnitude).all():
        return None
    paired = set(a_cols) | set(b_cols)
    leftover = tuple(int(c) for c in np.flatnonzero(live) if c not in paired)
    return Pairing(pairs, True, structure, leftover)


def _by_phase(table, valid, cols, omega, sigma, leftover) -> Pairing | None:
    """Would-be pairs when no two columns share a frequency: sines and cosines by their phase at
    row 0 (positions from 0), paired in column order."""
    amplitude, phase = column_phases(table, valid, cols, omega)
    sine = np.abs(fit.wrap(phase)) <= _ROLE_TOLERANCE
    cosine = np.abs(fit.wrap(phase - np.pi / 2)) <= _ROLE_TOLERANCE
    if not np.all(sine | cosine) or sine.sum() != cosine.sum() or sine.sum() == 0:
        return None
    s, c = np.flatnonzero(sine), np.flatnonzero(cosine)
    count = len(s)
    pairs = fit.PairFit(
        a_cols=cols[s],
        b_cols=cols[c],
        slope=np.sqrt(omega[s] * omega[c]),
        slope_sigma=np.maximum(sigma[s], sigma[c]),
        phase=phase[s],
        phase_sigma=np.full(count, np.inf),
        amplitude=(amplitude[s] + amplitude[c]) / 2,
        circle=np.full(count, np.inf),
        angle_residual=np.full(count, np.inf),
        inlier_rows=np.zeros(0, dtype=np.int64),
    )
    structure = structure_of(cols[s], cols[c], table.shape[1])
    # Sines and cosines of the same frequencies do share them: rows off the circles keep them
    # from pairing, and "they do not share a frequency" would be false.
    if np.all(np.abs(omega[s] - omega[c]) <= _SIGMAS * (sigma[s] + sigma[c]) + 1e-3 * omega[s]):
        return Pairing(pairs, False, structure, leftover, off_circle=True)
    return Pairing(pairs, False, structure, leftover, (omega[s], omega[c], sigma[s], sigma[c]))


def column_phases(
    table: Rows, valid: np.ndarray, cols: np.ndarray, omega: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each column's amplitude and phase φ with x ≈ A·sin(w·row + φ), fitted on the first rows."""
    first = int(np.argmax(valid))
    count = table.rows_within(256)
    rows = fit.sample_rows(valid, min(table.shape[0], first + count), count)
    x = fit.gather(table, rows, cols)
    angle = np.outer(rows.astype(np.float64), np.maximum(omega, 1e-5 / max(float(rows.max()), 1.0)))
    s, c = np.sin(angle), np.cos(angle)
    # Per column, the 2x2 normal equations of x ≈ a·sin + b·cos.
    ss, sc, cc = (s * s).sum(0), (s * c).sum(0), (c * c).sum(0)
    xs, xc = (x * s).sum(0), (x * c).sum(0)
    det = ss * cc - sc * sc
    with np.errstate(invalid="ignore", divide="ignore"):
        a = np.where(det > 0, (xs * cc - xc * sc) / det, xs / np.maximum(ss, 1e-300))
        b = np.where(det > 0, (xc * ss - xs * sc) / det, 0.0)
    return np.hypot(a, b), np.arctan2(b, a)


def pair_columns(
    table: Rows,
    valid: np.ndarray,
    live: np.ndarray,
    precision: str,
    floor: float,
    magnitude: float = 0.0,
) -> Pairing:
    """Pair the non-zero columns by equal fitted frequency (see the module doc); floor: the
    angle noise of the table's rounding (numeric.table_audit.fit.fit_pairs); magnitude: the
    largest value as stored (its rounding)."""
    width = table.shape[1]
    cols = np.flatnonzero(live)
    omega, sigma = fit.column_frequencies(table, valid, cols)
    order = np.argsort(-omega, kind="stable")
    count = len(order) // 2 * 2
    leftover = tuple(int(c) for c in cols[order[count:]])
    if count == 0:
        empty = np.zeros(0, dtype=np.int64)
        nothing = fit.PairFit(*(empty,) * 2, *(np.zeros(0),) * 7, empty)
        return Pairing(nothing, False, None, leftover)
    first, second = cols[order[0:count:2]], cols[order[1:count:2]]
    a_cols, b_cols = np.minimum(first, second), np.maximum(first, second)
    pairs = fit.fit_pairs(table, valid, a_cols, b_cols, floor)
    consistent = _consistent(pairs, precision, magnitude)
    # A pair is resolved when its frequency is told apart from the neighbouring columns'.
    a, b = order[0:count:2], order[1:count:2]
    at = np.arange(0, count, 2)
    last = len(order) - 1
    before = np.where(at > 0, omega[order[np.maximum(at - 1, 0)]] - omega[a], np.inf)
    after = np.where(at + 2 <= last, omega[b] - omega[order[np.minimum(at + 2, last)]], np.inf)
    resolved = consistent & (np.minimum(before, after) > 2 * _SIGMAS * (sigma[a] + sigma[b]))
    structure = structure_of(a_cols, b_cols, width)
    if consistent.all() and structure is not None:
        return Pairing(_select(pairs, np.argsort(a_cols)), True, structure, leftover)
    if resolved.any():
        placed = _by_structure(
            table, valid, live, width, precision, magnitude, floor, _select(pairs, resolved)
        )
        if placed is not None:
            return placed
    if consistent.all():
        return Pairing(pairs, True, None, leftover)
    by_phase = _by_phase(table, valid, cols, omega, sigma, leftover)
    return by_phase or Pairing(pairs, False, None, leftover)
