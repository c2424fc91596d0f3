"""Arbitrary-precision values of the sinusoidal encoding (mpmath): the yardstick for every table."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import mpmath
import numpy as np

from numeric import validate


def _positions(values: Iterable[object]) -> list[object]:
    result = list(values)
    for v in result:
        validate.finite(v, "positions")
    return result


def _dims(values: Iterable[object], d_model: int) -> tuple[int, ...]:
    return validate.indices(values, d_model, "dims")


def reference_pe(
    positions: Iterable[float],
    dims: Iterable[int],
    d_model: int,
    *,
    base: float = 10000.0,
    layout: str = "interleaved",
    dps: int = 40,
    schedule: str = "paper",
) -> np.ndarray:
    """PE(pos, dim) as mpmath numbers good to dps significant digits, shape (len(positions), len(dims)).

    positions: any finite reals (integers are exact; a float is taken at its exact binary value);
    dims: column indices in [0, d_model); layout: 'interleaved' or 'concatenated', as in
    numeric.sinusoidal_pe; schedule: 'paper' or 'tensor2tensor', as in numeric.sinusoidal_pe.
    The result is an object array of mpmath.mpf.
    """
    d_model = validate.d_model(d_model)
    base = validate.base(base)
    layout = validate.layout(layout)
    schedule = validate.schedule(schedule)
    positions = _positions(positions)
    dims = _dims(dims, d_model)
    if not isinstance(dps, int) or isinstance(dps, bool) or dps < 15:
        raise ValueError(f"dps must be an integer of at least 15, got {dps!r}")
    half = d_model // 2
    out = np.empty((len(positions), len(dims)), dtype=object)
    # Guard digits so that the value is right to dps digits even after pos·ω grows large.
    with mpmath.workdps(dps + 20):
        mp_base = mpmath.mpf(base)
        omegas = {}
        for k, dim in enumerate(dims):
            pair, is_cos = (
                (dim // 2, dim % 2 == 1) if layout == "interleaved" else (dim % half, dim >= half)
            )
            if pair not in omegas:
                # Written out here, not shared with numeric.tables: the yardstick stays independent.
                exponent = (
                    mpmath.mpf(pair) / max(half - 1, 1)
                    if schedule == "tensor2tensor"
                    else mpmath.mpf(2 * pair) / d_model
                )
                omegas[pair] = mpmath.power(mp_base, -exponent)
            fn = mpmath.cos if is_cos else mpmath.sin
            for j, pos in enumerate(positions):
                out[j, k] = fn(mpmath.mpf(pos) * omegas[pair])
    return out


def max_abs_error(
    values: np.ndarray,
    positions: Sequence[float],
    dims: Sequence[int],
    d_model: int,
    *,
    base: float = 10000.0,
    layout: str = "interleaved",
    dps: int = 40,
) -> float:
    """Largest |values[j, k] - PE(positions[j], dims[k])| against the reference, as a float.

    values: an array of shape (len(positions), len(dims)) of any float dtype; each entry is
    taken at its exact binary value. A NaN or infinite entry gives inf.
    """
    values = np.asarray(values)
    if values.shape != (len(positions), len(dims)):
        raise ValueError(
            f"values must have shape (len(positions), len(dims)) = {(len(positions), len(dims))}, "
            f"got {values.shape}"
        )
    exact = reference_pe(positions, dims, d_model, base=base, layout=layout, dps=dps)
    return max_deviation(values, exact, dps=dps)


def max_deviation(values: np.ndarray, exact: np.ndarray, *, dps: int = 40) -> float:
    """Largest |values - exact| entrywise, as a float; a NaN or infinite value gives inf.

    values: floats of any dtype, taken at their exact binary values; exact: reference_pe's result
    of the same shape.
    """
    values = np.asarray(values)
    if values.shape != exact.shape:
        raise ValueError(
            f"values and exact must have the same shape, got {values.shape} and {exact.shape}"
        )
    if not np.all(np.isfinite(values)):
        return float("inf")
    with mpmath.workdps(dps):
        worst = max(
            (
                abs(mpmath.mpf(float(v)) - r)
                for v, r in zip(values.ravel(), exact.ravel(), strict=True)
            ),
            default=mpmath.mpf(0),
        )
        return float(worst)


def table_error(
    table: np.ndarray,
    positions: Sequence[int],
    *,
    start: int = 0,
    base: float = 10000.0,
    layout: str = "interleaved",
    dps: int = 40,
) -> float:
    """Largest error of the table's rows at the given positions (row j holds position start + j), all dims."""
    table = np.asarray(table)
    if table.ndim != 2:
        raise ValueError(f"table must be 2-D (positions, d_model), got shape {table.shape}")
    rows = validate.indices([p - start for p in positions], table.shape[0], "positions - start")
    dims = range(table.shape[1])
    return max_abs_error(
        table[list(rows)], positions, dims, table.shape[1], base=base, layout=layout, dps=dps
    )
