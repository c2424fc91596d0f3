"""audit(table): fit the table's columns, name the convention, then measure the table against it."""

from __future__ import annotations

import dataclasses

import numpy as np

from numeric.checks import unique_rows
from numeric.table_audit import fit
from numeric.table_audit.convention import Schedule, fit_offset, fit_scale, fit_schedule
from numeric.table_audit.findings import Facts, describe
from numeric.table_audit.load import check_table
from numeric.table_audit.measure import (
    YARDSTICK,
    Convention,
    error_bands,
    measure_error,
)
from numeric.table_audit.pairing import pair_columns
from numeric.table_audit.precision import EPS, detect_precision, rounding_bound
from numeric.table_audit.result import Audit
from numeric.table_audit.rotation import rotation
from numeric.table_audit.rows import first_identical_rows, nonzero_columns, nonzero_rows
from numeric.tables import frequencies

_SIGMAS = 5.0
_MIN_ROWS = 4


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
        # A column whose frequency is not told apart from 0 is a constant or a ramp here.
        turning = omega > _SIGMAS * sigma + 1e-12
        return bool(np.all(turning & (residual <= expected + _SIGMAS * slack)))
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
    valid = nonzero_rows(table)
    if valid.sum() < _MIN_ROWS:
        raise ValueError(
            f"table needs at least {_MIN_ROWS} non-zero rows to fit, got {valid.sum()}"
        )
    live = nonzero_columns(table)
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
