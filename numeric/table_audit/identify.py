"""audit(table): fit the table's columns, name the convention, then measure the table against it.

The steps, each in its own module: one pass over the rows (scan: finite values, the format they
fit, zero rows, repeats); the format the values carry (precision); a 2-D grid, audited as its two
1-D tables (grid, grid_result); a constant added to every value (fit.constant_offset); pairs of
columns (pairing) and which is the sine (orientation); candidate schedules and the position step
(convention, schedules); the name, decided by measurement (naming); the position every row holds
(explain, positions); the error at those positions (measure); its grade (accuracy); the shift
identity on the table itself (rotation); then the verdicts and findings (facts, verdicts,
findings, result). Every read goes through numeric.audit.rows, in bounded memory.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from numeric.audit.errors import BadShapeError, BadValueError
from numeric.audit.grading import COMPUTED, SOUND, Accuracy, cap, grade, sixteen_bit_format
from numeric.audit.load import as_rows, check_array
from numeric.audit.precision import (
    EPS,
    decimal_precision,
    narrower_formats,
    rounding_bound,
    sample_values,
    to_format,
    unit_roundoff,
)
from numeric.audit.quiet import quiet
from numeric.audit.rows import Rows
from numeric.table_audit import fit
from numeric.table_audit.convention import Schedule, fit_scale, fit_schedule
from numeric.table_audit.explain import RowPositions, explain_rows, run_positions
from numeric.table_audit.facts import Facts
from numeric.table_audit.findings import OFF_FORMULA, UNDECIDED, describe
from numeric.table_audit.grid import find_grid, sub_tables
from numeric.table_audit.grid_result import grid_audit
from numeric.table_audit.measure import (
    YARDSTICK,
    Convention,
    ErrorMeasure,
    error_bands,
    measure_error,
    row_needs,
)
from numeric.table_audit.naming import (
    Named,
    fitted_convention,
    name_convention,
    pairs_off_formula,
)
from numeric.table_audit.orientation import Oriented, orient
from numeric.table_audit.pairing import Pairing, pair_columns
from numeric.table_audit.result import Audit
from numeric.table_audit.rotation import exact_turn, rotation
from numeric.table_audit.scan import Scan, nonzero_rows_and_columns, scan
from numeric.table_audit.verdicts import NOT_SINUSOIDAL, verdicts

_MIN_ROWS = 4
# Tables whose largest value lies outside [2^-64, 2^64] are audited divided by a power of two.
_UNIT_EXPONENT = 64
_CAST = {"float32": np.float32, "float16": np.float16}
_SAMPLE_ROWS = 4096


def expected_error(precision: str, amplitude: float) -> float:
    """The largest error of a correctly rounded table of this precision and amplitude, plus the
    float64 exact table's own; tables are often rounded to float32 first, then to 16 bits."""
    expected = rounding_bound(precision, amplitude) + YARDSTICK * amplitude
    if unit_roundoff(precision) > EPS["float32"] / 2:
        expected += rounding_bound("float32", amplitude)
    return expected


def _precision(rows: Rows, found: Scan) -> tuple[str, str | None]:
    """(the format the values carry, the format to cast them to when written in decimal)."""
    for name in narrower_formats(rows.stored):
        if found.fitting.get(name):
            return name, None
    if rows.stored != "float64":
        return rows.stored, None
    sample = np.flatnonzero(found.valid)
    count = min(rows.rows_within(_SAMPLE_ROWS), len(sample))
    sample = sample[np.linspace(0, len(sample) - 1, count).astype(int)]
    return decimal_precision(sample_values(rows.raw(sample)))


def _unit(max_abs: float) -> float:
    """A power of two near the largest value when it is far from 1 (else 1)."""
    exponent = math.frexp(max_abs)[1] - 1 if max_abs > 0 else 0
    return math.ldexp(1.0, exponent) if abs(exponent) > _UNIT_EXPONENT else 1.0


def _constant(view: Rows, valid: np.ndarray, live: np.ndarray, precision: str) -> float:
    """A constant added to every value, when the fast pairs agree on one well above rounding."""
    value, tolerance, used = fit.constant_offset(view, valid, np.flatnonzero(live))
    if used == 0 or abs(value) <= max(tolerance, 16 * rounding_bound(precision, abs(value))):
        return 0.0
    return fit.shortest_within(value, tolerance)


def _sample(pairs: fit.PairFit, valid: np.ndarray) -> np.ndarray:
    """Rows to name the convention on: those every pair's fit kept, else the first rows."""
    if len(pairs.inlier_rows) >= 8:
        return pairs.inlier_rows
    return fit.sample_rows(valid, len(valid), 256)


def _layout_order(oriented: Oriented) -> Oriented:
    """Pairs in schedule order: the layout's order, or fastest first when there is no layout."""
    if oriented.layout is not None:
        return oriented
    order = np.argsort(-np.abs(oriented.slope), kind="stable")
    fields = {f.name: getattr(oriented, f.name) for f in dataclasses.fields(oriented)}
    return Oriented(
        **{k: (v[order] if isinstance(v, np.ndarray) else v) for k, v in fields.items()}
    )


@quiet
def audit(table: np.ndarray | Rows, *, exact_dps: int | None = None, what: str = "table") -> Audit:
    """Identify a positional-encoding table by fitting its columns, then measure it.

    table: a (positions, dims) array of floats from any implementation (or the rows of a file,
    numeric.audit.load.open_table); exact_dps: if given, measure every entry against
    mpmath at that many digits (slow; for small tables), else use the float64 exact table
    everywhere and mpmath on the worst and a sample of rows; what: how error messages name it.
    """
    if isinstance(table, Rows):
        rows, what = table, (table.what if what == "table" else what)
    else:
        rows = as_rows(check_array(table, what), what)
    if exact_dps is not None and (
        not isinstance(exact_dps, int) or isinstance(exact_dps, bool) or exact_dps < 15
    ):
        raise BadValueError(f"exact_dps must be an integer of at least 15, got {exact_dps!r}")
    found = scan(rows, what)
    precision, cast = _precision(rows, found)
    unit = _unit(found.max_abs)
    view = rows.with_(cast=_CAST.get(cast) if cast else None, unit=unit)
    valid, live = found.valid, found.live
    _enough_rows(valid, what)
    constant = _constant(view, valid, live, precision)
    if constant:
        view = view.with_(constant=constant * unit)
        valid, live = nonzero_rows_and_columns(view)
        _enough_rows(valid, what)
    grid = find_grid(view, valid, live)
    if grid is not None:
        outer, inner = (
            _stored_as(t, rows.stored)
            for t in sub_tables(rows.with_(cast=None, constant=0.0, unit=1.0), grid)
        )
        return grid_audit(
            grid,
            audit(outer, exact_dps=exact_dps, what=f"{what} (h columns)"),
            audit(inner, exact_dps=exact_dps, what=f"{what} (w columns)"),
            rows.shape,
            rows.stored,
            precision,
            tuple(int(c) for c in np.flatnonzero(~live)),
            found.distinct,
        )
    floor = 4 * unit_roundoff(precision) + 1e-12
    magnitude = found.max_abs / unit
    pairing = pair_columns(view, valid, live, precision, floor, magnitude)
    return _identify(view, found, valid, live, precision, pairing, constant, exact_dps, magnitude)


def _stored_as(values: np.ndarray, stored: str) -> np.ndarray | Rows:
    """Values read from a table, back in the format it stores them in (they are exact)."""
    if stored == "bfloat16":
        words = (values.astype(np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint16)
        return Rows(words, "bfloat16")
    return values.astype(stored)


def _enough_rows(valid: np.ndarray, what: str) -> None:
    if valid.sum() < _MIN_ROWS:
        raise BadShapeError(
            f"{what} needs at least {_MIN_ROWS} non-zero rows to fit, got {int(valid.sum())}"
        )


def _identify(
    view, found, valid, live, precision, pairing: Pairing, constant, exact_dps, magnitude
):
    n, width = view.shape
    oriented: Oriented | None = None
    schedule: Schedule | None = None
    named: Named | None = None
    scale, scale_name, same_amplitude = None, None, False
    errors: ErrorMeasure | None = None
    held: RowPositions | None = None
    accuracy: Accuracy | None = None
    off_formula: tuple[dict, ...] = ()
    on_table: dict | None = None
    if len(pairing.pairs.slope):
        scale, scale_name, same_amplitude = fit_scale(pairing.pairs.amplitude, precision)
    amplitude = scale if scale is not None else 1.0
    rounding = expected_error(precision, max(amplitude, magnitude if constant else 0.0))
    if pairing.consistent:
        oriented = _layout_order(orient(pairing.pairs, width, pairing.structure is not None))
        schedule = fit_schedule(
            oriented.slope, oriented.slope_sigma, precision, oriented.descending
        )
        sample = _sample(pairing.pairs, valid)
        named = name_convention(
            view, sample, oriented, schedule, amplitude, scale_name, rounding, precision
        )
        conv = named.convention
        offset, step = (named.offset, named.step) if conv.exact else (0.0, 1.0)
        # Fitted sinusoids carry their fit's uncertainty: not the table's error.
        sigma = None if conv.exact else (oriented.slope_sigma, oriented.phase_sigma)
        run = run_positions(valid, offset, step)
        first, needs = row_needs(view, run, conv, rounding, amplitude, sigma)
        held = explain_rows(
            view, valid, conv, offset, step, first, rounding, amplitude, named.sample_format
        )
        # Rows explained at another position than the run's are measured again there.
        moved = (held.positions != run) & ~(np.isnan(held.positions) & np.isnan(run))
        if moved.any():
            again = np.where(moved, held.positions, np.nan)
            needs = np.where(
                moved, row_needs(view, again, conv, rounding, amplitude, sigma)[1], needs
            )
        errors = measure_error(view, held.positions, conv, precision, exact_dps, held.errors)
        omega_max = float(np.abs(conv.frequencies()).max())
        graded = errors.per_row
        if sigma is not None:
            at = np.abs(held.positions)[:, None]
            slack = 5 * amplitude * np.max(at * sigma[0] + sigma[1], axis=1)
            graded = np.maximum(graded - slack, 0.0)
        if 0 < len(held.unexplained) < int(valid.sum()):
            # Rows of no position are their own fault (findings): the grade is the
            # computation's, read on the rows that hold positions.
            graded = graded.copy()
            graded[held.unexplained] = np.nan
        accuracy = grade(
            graded,
            needs,
            held.positions,
            omega_max,
            rounding,
            precision,
            sixteen_bit_format(precision),
            NOT_SINUSOIDAL,
        )
        rounded = named.frequencies_rounded_to
        if conv.exact and rounded is None:
            off_formula = pairs_off_formula(oriented, conv, step, precision)
            if off_formula and accuracy.grade not in SOUND:
                # The error is the wrong frequency's, not the arithmetic's: not graded.
                accuracy = dataclasses.replace(accuracy, grade=OFF_FORMULA, computed_in=None)
        elif not conv.exact and accuracy.grade == COMPUTED[3]:
            # Fitted frequencies give the angles only modulo 2π (the positions the rows hold
            # are not known): a float32 computation at larger angles than the rows' index
            # makes the same error as 16-bit arithmetic at these. Which it was is open.
            accuracy = dataclasses.replace(accuracy, grade=UNDECIDED, computed_in=None)
        turn = _rotation(
            view,
            held.positions,
            step,
            conv,
            amplitude,
            rounding,
            None if rounded else accuracy,
            oriented,
            rounded,
            own_error=None if conv.exact else errors.max_error,
        )
        if constant:
            # The identity on the table as stored, constant included (it is not rotated).
            on_table = _rotation(
                view.with_(constant=0.0),
                held.positions,
                step,
                conv,
                amplitude,
                rounding,
                None if rounded else accuracy,
                oriented,
                rounded,
                own_error=None if conv.exact else errors.max_error,
            )
    elif len(pairing.pairs.slope):
        # Pairs that do not share a frequency: the identity fails; this says by how much.
        unpaired = orient(pairing.pairs, width)
        conv = fitted_convention(unpaired, amplitude, None)
        positions = run_positions(valid, 0.0, 1.0)
        turn = _rotation(view, positions, 1.0, conv, amplitude, rounding, None, unpaired)
    else:
        turn = {"passed": False, "residual": None, "tolerance": None, "ks": [], "by_k": []}
    facts = Facts(
        shape=(n, width),
        dtype=view.stored,
        precision=precision,
        pairing=pairing,
        oriented=oriented,
        schedule=schedule,
        named=named,
        scale=scale,
        scale_name=scale_name,
        same_amplitude=same_amplitude,
        constant=constant * view.unit if constant else None,
        unit=view.unit,
        columns_sinusoidal=(
            pairing.consistent or _columns_sinusoidal(view, valid, live, amplitude, rounding)
        ),
        held=held,
        errors=errors,
        accuracy=accuracy,
        expected=rounding,
        zero_rows=tuple(int(r) for r in np.flatnonzero(~valid)),
        zero_columns=tuple(int(c) for c in np.flatnonzero(~live)),
        distinct=found.distinct + int(not valid.all()),
        identical=found.identical,
        rotation=turn,
        rotation_on_table=on_table,
        off_formula=off_formula,
    )
    judged = verdicts(facts)
    return Audit.from_facts(facts, judged, describe(facts, judged), error_bands)


def _rotation(
    view,
    positions,
    step,
    conv: Convention,
    amplitude,
    rounding,
    accuracy,
    oriented: Oriented,
    rounded_to: str | None = None,
    own_error: float | None = None,
) -> dict:
    """The shift identity with the named convention's exact frequencies, or the fitted ones;
    own_error: when given, every entry is held to it, the table's largest error against its
    fitted sinusoids (fitted frequencies: the angles, and so a computation's cap, are known
    only modulo 2π)."""
    omega = np.abs(conv.frequencies())
    omega_max = float(omega.max())
    with np.errstate(divide="ignore"):
        log_omega = np.log(np.maximum(omega, np.finfo(np.float64).tiny))

    def entry_error(at: np.ndarray) -> np.ndarray:
        """(rows, pairs): each pair's entry error at these positions: the float32 cap of that
        pair there, or the measured envelope when smaller (a table computed in 16 bits, whose
        errors pass the float32 cap of its fastest pair, fails its own)."""
        at = np.abs(at)[:, None]
        if own_error is not None:
            return np.full((len(at), len(omega)), own_error)
        limit = cap("float32", rounding, amplitude, at * omega, log_omega)
        if accuracy is None:
            return limit
        return np.minimum(accuracy.envelope(at * omega_max), limit)

    if conv.exact and rounded_to is not None:
        # The table turns by its own frequencies, the named ones rounded to 16 bits.
        own = to_format(conv.frequencies(), rounded_to)
        turn = lambda k: k * step * own  # noqa: E731
        drift = 0.0
    elif conv.exact:
        turn = exact_turn(conv.pieces(), step)
        drift = 0.0
    else:
        turn = lambda k: k * oriented.slope  # noqa: E731
        sigma = np.maximum(oriented.slope_sigma, 4 * 2.0**-53 * np.abs(oriented.slope))
        drift = float(sigma.max()) * amplitude
    out = rotation(
        view, positions, step, conv.sin_cols, conv.cos_cols, turn, drift, amplitude, entry_error
    )
    return {**out, "held_to": "a cap" if own_error is None else "its own error"}


def _columns_sinusoidal(view, valid, live, amplitude, rounding) -> bool:
    """Whether every non-zero column is a sinusoid of the row by itself, within what a float32
    computation allows (a column whose frequency is not told apart from 0 is a constant or a
    ramp)."""
    cols = np.flatnonzero(live)
    omega, sigma = fit.column_frequencies(view, valid, cols)
    residual, slack = fit.column_residual(view, valid, cols, omega, sigma)
    turning = omega > 5 * sigma + 1e-12
    angle = view.shape[0] * float(omega.max(initial=0.0))
    allowed = cap("float32", rounding, amplitude, np.array(angle))
    return bool(np.all(turning & (residual <= 4 * allowed + 5 * slack)))
