"""audit(table): fit the table's columns, name the convention, then measure the table against it."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from numeric.audit import fit
from numeric.audit.convention import Schedule, fit_offset, fit_scale, fit_schedule
from numeric.audit.findings import Facts, describe
from numeric.audit.load import check_table
from numeric.audit.measure import (
    YARDSTICK,
    Convention,
    error_bands,
    first_identical_rows,
    measure_error,
    rotation,
)
from numeric.audit.precision import EPS, detect_precision, rounding_bound
from numeric.audit.result import Audit
from numeric.checks import unique_rows
from numeric.tables import frequencies

_SIGMAS = 5.0
_MIN_ROWS = 4
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
    """Per pair: whether every row lies on the pair's circle, as a (sin, cos) pair's rows do."""
    return pairs.circle <= _circle_tolerance(precision, pairs.amplitude)


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
    """Pair the non-zero columns by equal fitted frequency (see numeric.audit.fit)."""
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


def _fitted_sinusoid_tolerance(pairs: fit.PairFit, n: int, expected: float) -> float:
    """How far fitted sinusoids may sit from a true one: the fit's uncertainty on top of the
    table's own rounding (the fitted table reduces row·ω as accurately as sinusoidal_pe)."""
    p = float(n)
    spread = _SIGMAS * (pairs.omega_sigma * p + pairs.phase_sigma) * pairs.amplitude
    return expected + float(np.max(spread, initial=0.0))


def _rotation(table, valid, pairs: fit.PairFit, conv: Convention, amplitude, expected) -> dict:
    """The shift identity with the named convention's exact ω; failing that (an implementation
    may round ω itself), with the table's own fitted ω."""
    # The fitted ω carries at least float64's rounding, whatever its regression says.
    sigma = np.maximum(pairs.omega_sigma, 4 * 2.0**-53 * pairs.omega)
    if conv.exact:
        exact_omega = frequencies(2 * len(pairs.omega), base=conv.base, schedule=conv.schedule)
        named = rotation(
            table,
            valid,
            pairs.sin_cols,
            pairs.cos_cols,
            exact_omega,
            np.zeros_like(sigma),
            amplitude,
            expected,
        )
        if named["passed"]:
            return {**named, "omega": "exact"}
    fitted = rotation(
        table, valid, pairs.sin_cols, pairs.cos_cols, pairs.omega, sigma, amplitude, expected
    )
    return {**fitted, "omega": "fitted"}


def expected_error(precision: str, amplitude: float) -> float:
    """The largest error of a correctly rounded table of this precision and amplitude, plus the
    float64 exact table's own; tables are often rounded to float32 first, then to 16 bits."""
    expected = rounding_bound(precision, amplitude) + YARDSTICK * amplitude
    if EPS[precision] > EPS["float32"]:
        expected += rounding_bound("float32", amplitude)
    return expected


def _measured_schedule(schedule: Schedule, pairs: fit.PairFit) -> dict:
    """The schedule and base the table is measured against (sinusoidal_pe's arguments): the
    named ones, the fitted geometric base, or None (fitted frequencies)."""
    if schedule.schedule in ("paper", "tensor2tensor"):
        return {"schedule": schedule.schedule, "base": schedule.base}
    if schedule.geometric_base is not None:
        return {"schedule": "paper", "base": schedule.geometric_base}
    if len(pairs.omega) == 1 and abs(pairs.omega[0] - 1) <= _SIGMAS * pairs.omega_sigma[0] + 1e-12:
        # One pair at ω = 1 is pair 0 of every base: measure it exactly.
        return {"schedule": "paper", "base": 10000.0}
    return {"schedule": None, "base": None}


def _is_sinusoidal(table, valid, live, pairing, conv, errors, precision, expected) -> bool:
    """Whether every column is a sinusoid of the row within the table's precision: against the
    named convention, else against the fitted pairs, else column by column."""
    if errors is None:
        cols = np.flatnonzero(live)
        omega, sigma = fit.column_frequencies(table, valid, cols)
        residual, slack = fit.column_residual(table, valid, cols, omega, sigma)
        return bool(np.all(residual <= expected + _SIGMAS * slack))
    if conv.exact and errors.max_error <= expected:
        return True
    fitted = dataclasses.replace(conv, schedule=None)
    fitted_error = measure_error(table, valid, fitted, precision, None).max_error
    return fitted_error <= _fitted_sinusoid_tolerance(pairing.pairs, table.shape[0], expected)


def audit(table: np.ndarray, *, exact_dps: int | None = None) -> Audit:
    """Identify a positional-encoding table by fitting its columns, then measure it.

    table: a (positions, dims) array of floats from any implementation; exact_dps: if given,
    measure every entry against mpmath at that many digits (slow; for small tables), else use the
    float64 exact table everywhere and mpmath on the worst and a sample of rows.
    """
    table = check_table(table)
    if exact_dps is not None and (not isinstance(exact_dps, int) or exact_dps < 15):
        raise ValueError(f"exact_dps must be an integer of at least 15, got {exact_dps!r}")
    n, width = table.shape
    valid = fit.nonzero_rows(table)
    if valid.sum() < _MIN_ROWS:
        raise ValueError(
            f"table needs at least {_MIN_ROWS} non-zero rows to fit, got {valid.sum()}"
        )
    live = fit.nonzero_columns(table)
    precision = detect_precision(table)
    pairing = pair_columns(table, valid, live, precision)
    pairs = pairing.pairs
    schedule, offset = Schedule(None, None, None), None
    scale, scale_name, same_amplitude = None, None, False
    if len(pairs.omega):
        scale, scale_name, same_amplitude = fit_scale(pairs.amplitude, precision)
    if pairing.consistent:
        schedule = fit_schedule(pairs.omega, pairs.omega_sigma, precision)
        offset = fit_offset(pairs.omega, pairs.phase, pairs.phase_sigma, precision)
    amplitude = scale if scale is not None else 1.0
    expected = expected_error(precision, amplitude)
    named = schedule.schedule in ("paper", "tensor2tensor")
    conv = Convention(
        sin_cols=pairs.sin_cols,
        cos_cols=pairs.cos_cols,
        scale=amplitude,
        scale_name=scale_name,
        offset=offset,
        omega=pairs.omega,
        phase=pairs.phase,
        amplitude=pairs.amplitude,
        **_measured_schedule(schedule, pairs),
    )
    errors = measure_error(table, valid, conv, precision, exact_dps) if pairing.consistent else None
    sinusoidal = _is_sinusoidal(table, valid, live, pairing, conv, errors, precision, expected)
    if len(pairs.omega):
        turn = _rotation(table, valid, pairs, conv, amplitude, expected)
    else:
        turn = {"passed": False, "residual": None, "tolerance": None, "ks": [], "by_k": []}
    distinct = unique_rows(table)
    identical = first_identical_rows(table, valid) if distinct < n else None
    facts = Facts(
        shape=(n, width),
        dtype=table.dtype.name,
        precision=precision,
        pairing=pairing,
        schedule=schedule,
        offset=offset,
        scale=scale,
        scale_name=scale_name,
        same_amplitude=same_amplitude,
        sinusoidal=sinusoidal,
        errors=errors,
        expected=expected,
        exact=conv.exact and (named or len(pairs.omega) == 1),
        zero_rows=tuple(int(r) for r in np.flatnonzero(~valid)),
        zero_columns=tuple(int(c) for c in np.flatnonzero(~live)),
        distinct=distinct,
        identical=identical,
        rotation=turn,
    )
    shift = offset or 0
    return Audit(
        shape=(n, width),
        dtype=table.dtype.name,
        precision=precision,
        sinusoidal=bool(sinusoidal),
        layout=pairing.layout,
        schedule=schedule.schedule,
        base=schedule.base,
        frequencies=tuple(float(w) for w in pairs.omega),
        scale=scale,
        scale_name=scale_name,
        position_offset=offset,
        zero_rows=facts.zero_rows,
        zero_columns=facts.zero_columns,
        pairs=tuple((int(s), int(c)) for s, c in zip(pairs.sin_cols, pairs.cos_cols, strict=True)),
        pairs_share_frequency=pairing.consistent,
        max_abs_error=errors.max_error if errors else None,
        worst_position=(errors.worst_row + shift) if errors else None,
        expected_error=expected,
        error_by_position=tuple(error_bands(errors.per_row, shift)) if errors else (),
        error_method=errors.method
        if errors
        else "not measured: the columns form no (sin, cos) pairs",
        cross_check=errors.cross_check if errors else None,
        distinct_rows=distinct,
        identical_rows=identical,
        rotation=turn,
        findings=tuple(describe(facts)),
    )
