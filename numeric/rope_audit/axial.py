"""Caches whose rows are the patches of a grid: 2-D axial RoPE and M-RoPE, read from the cache.

A row of such a cache is a patch (x, y) of an H × W grid in row-major order (or a frame, row and
column (t, h, w) of a T × H × W video grid), possibly after text rows (M-RoPE) and with identity
rows (a CLS token) at either end. Every pair turns with one grid axis only: stepping along its
axis multiplies the pair's cos + i·sin by one constant e^(iθ), stepping along another leaves it
alone. A 1-D RoPE cache never reads so: its fastest pair turns on every step, within a grid row
and between rows alike.

read_grid finds the grid (the text rows before it, the grid's shape, the identity rows), each
pair's axis and its frequency per grid step, and each axis's position at the grid's first patch
(torchtune counts from 1, Qwen2-VL from the text length). The audit names the convention from
that: axial 2-D RoPE (torchtune's vision RoPE, timm's grid RoPE) when two axes turn, M-RoPE when
the pairs fall in the temporal, height and width sections of `mrope_section`, chunked or
interleaved (numeric.rope.mrope).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numeric.rope.mrope import AXES, chunked_axes, interleaved_axes

# Grids are searched only in caches up to this many rows, and text prefixes up to this length.
MAX_GRID_ROWS = 8192
MAX_TEXT_ROWS = 64
# At most this many grid shapes are tried per cache (time is bounded for any cache).
MAX_TRIALS = 4000
# A pair's axis: a grid axis index, or one of these.
_STILL, _SLOW = -1, -2
# A step turns a pair when |e^(iθ) − 1| exceeds this many times the steps' spread (rounding).
_SIGNAL = 10
_FLOOR = 1e-9


@dataclass(frozen=True)
class GridReading:
    """What read_grid found.

    grid: the grid's shape, slowest axis first ((H, W) or (T, H, W)); start: the row of its
    first patch; text_rows: rows before the grid (after any leading identity rows); identity_rows: rows with every pair at angle 0 (a CLS token), excluded from the grid;
    axis: for each pair, the grid axis it turns with (index into grid), −1 when it turns with
    none on this grid though it turns (a temporal section on a one-frame grid, seen turning on
    the text rows), −2 when it turns too slowly to tell on this grid; frequency: each pair's angle per step along its axis (per text row for an axis-less
    pair, nan when there are no text rows); origin: each grid axis's position at the first patch;
    residual: the largest |e^(iθ) − ratio| over the steps checked.
    """

    grid: tuple[int, ...]
    start: int
    text_rows: int
    identity_rows: tuple[int, ...]
    axis: tuple[int, ...]
    frequency: tuple[float, ...]
    origin: tuple[float | None, ...]
    residual: float


def _steps(z: np.ndarray, shape: tuple[int, ...], axis: int) -> np.ndarray:
    """z[next along axis]·conj(z[here]) for every patch with a next one: (steps, pairs)."""
    g = z.reshape(*shape, z.shape[-1])
    head = [slice(None)] * len(shape)
    tail = [slice(None)] * len(shape)
    head[axis], tail[axis] = slice(1, None), slice(None, -1)
    return (g[tuple(head)] * np.conj(g[tuple(tail)])).reshape(-1, z.shape[-1])


def _classify(
    z: np.ndarray, shape: tuple[int, ...], tol: float
) -> tuple[np.ndarray, np.ndarray, float] | None:
    """Each pair's axis (or _SLOW), its step e^(iθ) and the largest residual; None if some pair
    turns along two axes or unevenly along one."""
    pairs = z.shape[-1]
    axis = np.full(pairs, _SLOW)
    step = np.ones(pairs, dtype=complex)
    residual = 0.0
    for a, size in enumerate(shape):
        if size < 2:
            continue
        ratios = _steps(z, shape, a)
        mean = ratios.mean(axis=0)
        spread = np.max(np.abs(ratios - mean), axis=0)
        moving = np.abs(mean - 1) > _SIGNAL * spread + _FLOOR
        if np.any(spread[moving] > tol) or np.any(axis[moving] != _SLOW):
            return None
        residual = max(residual, float(spread.max()))
        axis[moving] = a
        step[moving] = mean[moving] / np.abs(mean[moving])
    return axis, step, residual


def _shapes(n: int, axes: int) -> list[tuple[int, ...]]:
    """Factorizations of n into `axes` factors, each at least 2."""
    if axes == 1:
        return [(n,)] if n >= 2 else []
    out = []
    for first in range(2, n // 2 + 1):
        if n % first == 0:
            out += [(first, *rest) for rest in _shapes(n // first, axes - 1)]
    return out


def _origin(phases: np.ndarray, thetas: np.ndarray) -> float | None:
    """The position o with o·θ ≡ phase (mod 2π) for every pair, unwrapped from the slowest pair
    up (each faster pair picks the turn nearest the estimate so far)."""
    order = np.argsort(np.abs(thetas))
    estimate = None
    for j in order:
        theta = float(thetas[j])
        if abs(theta) < 1e-12:
            continue
        phase = float(phases[j])
        if estimate is None:
            estimate = phase / theta
            continue
        turns = np.round((estimate * theta - phase) / (2 * np.pi))
        estimate = (phase + 2 * np.pi * turns) / theta
    return None if estimate is None else float(estimate)


def read_grid(cos: np.ndarray, sin: np.ndarray, tol: float) -> GridReading | None:
    """The grid a full cos/sin cache (rows, pairs: one column per pair) is laid out on, or None
    when no grid of two or three axes fits (a 1-D cache, or not RoPE)."""
    z = np.asarray(cos, dtype=np.float64) + 1j * np.asarray(sin, dtype=np.float64)
    rows = z.shape[0]
    if rows > MAX_GRID_ROWS or rows < 4 or np.max(np.abs(np.abs(z) - 1)) > tol:
        return None
    # On the unit circle, a pair that does not turn has steps of exactly 1 (to float64 rounding),
    # whatever the rounding of its stored modulus.
    z = z / np.abs(z)
    if not _may_be_grid(z, tol):
        return None
    identity = np.max(np.abs(z - 1), axis=1) <= tol
    if identity.all():
        return None
    lead, trail = int(np.argmin(identity)), int(np.argmin(identity[::-1]))
    # Identity rows are a CLS token's only when the grid does not fit with them in it (a
    # grid's first patch at position 0 is an identity row too).
    trials = [MAX_TRIALS]
    for skip, drop in dict.fromkeys(((0, 0), (0, trail), (lead, 0), (lead, trail))):
        for text in range(0, min(MAX_TEXT_ROWS, rows - skip - drop - 4) + 1):
            start, stop = skip + text, rows - drop
            found = _search(z[start:stop], tol, trials)
            if found is not None:
                return _reading(z, start, stop, *found, skip, drop, text)
            if trials[0] <= 0:
                return None
    return None


def _may_be_grid(z: np.ndarray, tol: float) -> bool:
    """Whether some pair stands still on at least half of the row-to-row steps yet turns on
    others (a y-pair of a grid turns only between rows); a 1-D cache has no such pair."""
    ratios = z[1:] * np.conj(z[:-1])
    still = np.abs(ratios - 1) <= tol
    moves = np.abs(ratios - 1) > _SIGNAL * tol
    return bool(np.any((still.mean(axis=0) >= 0.5) & moves.any(axis=0)))


def _search(body: np.ndarray, tol: float, trials: list[int]):
    """The first grid shape (two axes, then three) on which every pair turns with one axis at
    most and two axes turn: (shape, axis, step, residual), or None. trials: the shapes left to
    try, shared across calls."""
    for axes in (2, 3):
        for shape in _shapes(body.shape[0], axes):
            trials[0] -= 1
            if trials[0] < 0:
                return None
            found = _classify(body, shape, tol)
            if found is not None and len(set(found[0][found[0] >= 0].tolist())) >= 2:
                return (shape, *found)
    return None


def _reading(z, start, stop, shape, axis, step, residual, lead, trail, text) -> GridReading:
    theta = np.angle(step)
    if text >= 2:
        # Text rows (t = h = w = row): every pair turns by its θ per row; a pair still on the
        # grid that turns there is a temporal pair on a one-frame grid.
        words = z[lead + 1 : start] * np.conj(z[lead : start - 1])
        mean = words.mean(axis=0)
        spread = np.max(np.abs(words - mean), axis=0)
        turning = np.abs(mean - 1) > _SIGNAL * spread + _FLOOR
        theta_text = np.angle(mean)
        slow = axis == _SLOW
        axis = np.where(slow & turning, _STILL, axis)
        theta = np.where(slow, theta_text, theta)
    else:
        theta = np.where(axis == _SLOW, np.nan, theta)
    first = z[start]
    origin = []
    for a in range(len(shape)):
        mine = axis == a
        origin.append(_origin(np.angle(first[mine]), theta[mine]) if mine.any() else None)
    ids = tuple(range(lead)) + tuple(range(stop, stop + trail))
    return GridReading(
        grid=tuple(shape),
        start=start,
        text_rows=text,
        identity_rows=ids,
        axis=tuple(int(a) for a in axis),
        frequency=tuple(float(t) for t in theta),
        origin=tuple(origin),
        residual=float(residual),
    )


def axis_names(reading: GridReading) -> tuple[str, ...]:
    """The grid axes' names: (y, x) for an axial 2-D cache, (t, h, w) for M-RoPE's."""
    if len(reading.grid) == 2 and _STILL not in reading.axis:
        return ("y", "x")
    return AXES[-len(reading.grid) :] if len(reading.grid) < 3 else AXES


def sections(reading: GridReading) -> list[tuple[tuple[int, int, int], str]]:
    """Every M-RoPE (s_t, s_h, s_w) and section layout ("chunked", "interleaved") that agrees
    with the pairs' axes (pairs still on the grid read t; pairs too slow to tell agree with any
    axis); empty when the axes are not (t,) h, w or none agrees."""
    names = axis_names(reading)
    if names[-2:] != ("h", "w"):
        return []
    index = {name: i for i, name in enumerate(AXES)}
    known = np.array(
        [0 if a == _STILL else (-1 if a == _SLOW else index[names[a]]) for a in reading.axis]
    )
    pairs = known.size
    out = []
    for s_h in range(1, pairs):
        for s_w in range(1, pairs - s_h + 1):
            counts = (pairs - s_h - s_w, s_h, s_w)
            for name, axes in (("chunked", chunked_axes), ("interleaved", interleaved_axes)):
                if np.all((known == -1) | (known == axes(counts))):
                    out.append((counts, name))
    return out


def describe(reading: GridReading) -> dict:
    """The reading as the audit's scaling field: the convention, the grid, each axis's pairs,
    frequencies and origin."""
    names = axis_names(reading)
    candidates = sections(reading)
    found = candidates[0] if len(candidates) == 1 else None
    out: dict = {
        "type": "mrope" if candidates else "axial",
        "grid": list(reading.grid),
        "grid_axes": list(names),
        "text_rows": reading.text_rows,
        "identity_rows": list(reading.identity_rows),
    }
    for a, name in enumerate(names):
        mine = [i for i, axis in enumerate(reading.axis) if axis == a]
        out[f"{name}_pairs"] = mine
        out[f"{name}_frequencies"] = [reading.frequency[i] for i in mine]
        out[f"{name}_origin"] = reading.origin[a]
    still = [i for i, axis in enumerate(reading.axis) if axis == _STILL]
    if still:
        key = "t" if candidates else "still"
        out[f"{key}_pairs"] = still
        out[f"{key}_frequencies"] = [reading.frequency[i] for i in still]
    slow = [i for i, axis in enumerate(reading.axis) if axis == _SLOW]
    if slow:
        out["slow_pairs"] = slow
    if found:
        out["mrope_section"] = list(found[0])
        out["section_layout"] = found[1]
    elif candidates:
        out["mrope_section_candidates"] = [[*c, layout] for c, layout in candidates]
    return out


def findings(reading: GridReading, layout: str) -> list[str]:
    """The sentences of a grid cache's audit."""
    info = describe(reading)
    shape = " × ".join(str(s) for s in reading.grid)
    names = info["grid_axes"]
    where = []
    for name in names:
        pairs = info[f"{name}_pairs"]
        if pairs:
            origin = info[f"{name}_origin"]
            at = "" if origin is None else f", from {origin:.6g}"
            where.append(f"{name}: pairs {_span(pairs)} ({len(pairs)}{at})")
    extra = []
    if reading.text_rows:
        extra.append(f"after {reading.text_rows} text rows")
    if reading.identity_rows:
        extra.append(f"identity rows {list(reading.identity_rows)} (angle 0: a CLS token)")
    tail = f"; {', '.join(extra)}" if extra else ""
    if "mrope_section" in info:
        s_t, s_h, s_w = info["mrope_section"]
        head = (
            f"M-RoPE (Qwen2-VL style): mrope_section [{s_t}, {s_h}, {s_w}], "
            f"{info['section_layout']} sections, cache {layout}, on a {shape} grid{tail}"
        )
    elif info["type"] == "mrope":
        options = info["mrope_section_candidates"]
        shown = ", ".join(f"[{a}, {b}, {c}] {kind}" for a, b, c, kind in options[:4])
        more = f" and {len(options) - 4} more" if len(options) > 4 else ""
        head = (
            f"M-RoPE (Qwen2-VL style) on a {shape} grid, cache {layout}{tail}; the sections are "
            f"one of {shown}{more}: pairs {_span(info['slow_pairs'])} turn too slowly on this "
            "grid to tell their axis (a config's mrope_section decides)"
        )
    else:
        head = f"2-D axial RoPE on a {shape} grid (row-major), cache {layout}{tail}"
    text = [head + ": " + "; ".join(where)]
    if info.get("t_pairs"):
        text.append(
            f"t: pairs {_span(info['t_pairs'])} ({len(info['t_pairs'])}) turn on the text rows "
            "but not on the grid (one frame)"
        )
    if info["type"] == "mrope":
        ratio = _ratio(np.asarray(reading.frequency))
        if ratio is not None:
            pairs = len(reading.frequency)
            text.append(
                f"frequencies θ_i = b^(−2i/d) over all {pairs} pairs, as 1-D RoPE's: base "
                f"{ratio**-pairs:.6g}, each pair turned by the position of its section"
            )
    for name in names if info["type"] == "axial" else ():
        freqs = info[f"{name}_frequencies"]
        if len(freqs) >= 2:
            ratio = _ratio(np.asarray(freqs))
            if ratio is not None:
                base = ratio ** (-len(freqs))
                text.append(
                    f"{name} frequencies geometric, θ_(i+1)/θ_i = {ratio:.6g}, θ_0 = "
                    f"{freqs[0]:.6g}: base {base:.6g} over the axis's {len(freqs)} pairs"
                )
    text.append(
        "each pair turns with one grid axis (every step along it by one angle, "
        f"within {reading.residual:.1e}), so scores depend on the offset per axis alone "
        "(theorems rope_axial and rope_mrope); not a 1-D cache with shifted positions or 16-bit "
        "angles"
    )
    return text


def _span(pairs: list[int]) -> str:
    if pairs == list(range(pairs[0], pairs[-1] + 1)):
        return f"{pairs[0]}-{pairs[-1]}"
    shown = ", ".join(str(p) for p in pairs[:6])
    return shown + (f", … {pairs[-1]}" if len(pairs) > 6 else "")


def _ratio(freqs: np.ndarray) -> float | None:
    """The common ratio of a geometric sequence of positive frequencies, or None."""
    if freqs.size < 2 or not np.all(np.isfinite(freqs)) or np.any(freqs <= 0):
        return None
    logs = np.log(freqs)
    steps = np.diff(logs)
    if np.max(np.abs(steps - steps.mean())) > 1e-3:
        return None
    return float(np.exp(steps.mean()))
