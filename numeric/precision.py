"""Max error against the reference, by dtype and by max position: the module's formula vs numeric's tables."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from numeric import validate
from numeric.module import module_formula_rows
from numeric.reference import max_deviation, reference_pe
from numeric.result_table import Table
from numeric.tables import sinusoidal_pe

FLOAT16_MAX = 65504  # largest finite float16: larger positions overflow to inf in the formula
DTYPES = ("float64", "float32", "float16")


def sample_positions(max_position: int, samples: int, seed: int = 0) -> np.ndarray:
    """Sorted positions in [0, max_position): seeded random ones plus the last, max_position - 1."""
    rng = np.random.default_rng(seed)
    drawn = rng.integers(0, max_position, size=max(samples - 1, 0))
    return np.unique(np.append(drawn, max_position - 1))


def default_dims(d_model: int) -> tuple[int, ...]:
    """Both dims of the four fastest pairs (largest angles, so largest errors) and of 4 more spread out."""
    pairs = d_model // 2
    chosen = sorted(set(range(min(4, pairs))) | {round(j * (pairs - 1) / 4) for j in range(1, 5)})
    return tuple(d for p in chosen for d in (2 * p, 2 * p + 1))


def precision_table(
    *,
    d_model: int = 512,
    base: float = 10000.0,
    max_positions: Iterable[int] = (10**3, 10**4, 10**5, 10**6),
    samples: int = 64,
    dims: Iterable[int] | None = None,
) -> Table:
    """Max |table − reference| over sampled positions below each max position, per method and dtype.

    The module's formula is evaluated in each dtype (every step in that dtype); numeric's rows
    come from sinusoidal_pe(1, d_model, start=pos), which equals row pos of the full table bit for
    bit. samples: positions drawn per max position (seeded; the last position is always included);
    dims: the columns compared (default: default_dims(d_model)).
    """
    d_model = validate.d_model(d_model)
    base = validate.base(base)
    limits = tuple(validate.integer(n, "max_positions") for n in max_positions)
    if not limits or any(not 1 <= n <= validate.MAX_POSITION for n in limits):
        raise ValueError(f"max_positions must be integers in [1, 2**31], got {limits}")
    samples = validate.integer(samples, "samples")
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    # The module's formula builds a (samples, d_model) table per dtype, with temporaries.
    validate.fits_in_memory(
        3 * samples * d_model * 8,
        f"a ({samples}, {d_model}) table",
        "use fewer samples or a smaller d_model",
    )
    dims = default_dims(d_model) if dims is None else validate.indices(dims, d_model, "dims")
    if not dims:
        raise ValueError("dims must list at least one dim")
    columns = list(dims)
    errors: dict[tuple[str, str], list[float | str]] = {}
    for limit in limits:
        positions = sample_positions(limit, samples)
        exact = reference_pe(positions.tolist(), dims, d_model, base=base)
        for dtype in DTYPES:
            if base == 10000.0:
                formula = module_formula_rows(positions, d_model, dtype=dtype)[:, columns]
                error = max_deviation(formula, exact)
                overflow = dtype == "float16" and limit - 1 > FLOAT16_MAX
                cell = "overflow" if overflow and error == float("inf") else error
                errors.setdefault(("module formula", dtype), []).append(cell)
            ours = np.stack(
                [
                    sinusoidal_pe(1, d_model, base=base, dtype=dtype, start=int(p))[0]
                    for p in positions
                ]
            )[:, columns]
            errors.setdefault(("numeric.sinusoidal_pe", dtype), []).append(
                max_deviation(ours, exact)
            )
    note = (
        f"max over {samples} seeded positions below each limit (the last included) and {len(dims)} dims, "
        "against mpmath at 40 digits"
    )
    if base == 10000.0 and any(n - 1 > FLOAT16_MAX for n in limits):
        note += (
            f"; float16: the module's formula turns positions above {FLOAT16_MAX} into inf "
            "(sin(inf) is NaN), shown as overflow"
        )
    if base != 10000.0:
        note += "; the module's formula is fixed at base 10000, so only numeric's rows are shown"
    return Table(
        title=f"max error against the reference, d_model={d_model}, base={base:g}",
        columns=(
            "method",
            "dtype",
            *(f"pos < {n:.0e}" if n >= 1000 else f"pos < {n}" for n in limits),
        ),
        rows=tuple((method, dtype, *cells) for (method, dtype), cells in errors.items()),
        formats=("", "", *(".1e",) * len(limits)),
        note=note,
    )
