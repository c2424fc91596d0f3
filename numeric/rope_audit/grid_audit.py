"""The audit of a cache whose rows are a grid's patches (2-D axial RoPE, M-RoPE): the RopeAudit
of what numeric.rope_audit.axial reads, with the cache measured against it.

The measurement rebuilds every stored column from the reading (each pair's angle at the grid's
first patch plus its steps along its axis; on text rows, its angle at the first text row plus
one θ per row) and takes the largest difference; the cache is sound when that is within a few
roundings of the stored format.
"""

from __future__ import annotations

import numpy as np

from numeric.audit.outcome import Outcome
from numeric.audit.precision import rounding_bound
from numeric.rope_audit.axial import (
    MAX_GRID_ROWS,
    GridReading,
    describe,
    findings,
    read_grid,
    sections,
)
from numeric.rope_audit.columns import Columns
from numeric.rope_audit.mrope_config import config_sections
from numeric.rope_audit.result import RopeAudit
from numeric.rope_audit.source import CacheSource

# The reading tolerates steps off by this many roundings of the stored format (angles of a
# few hundred radians in float32 are off by a few of its roundings of 1).
_STEP_ROUNDINGS = 256
# The rebuilt cache may differ from the stored one by this many roundings.
_MEASURE_ROUNDINGS = 512


def _angles(z: np.ndarray, reading: GridReading) -> np.ndarray:
    """Each row's angle per pair as the reading says."""
    start = reading.start
    lead = start - reading.text_rows
    out = np.angle(z).copy()
    theta = np.nan_to_num(np.asarray(reading.frequency))
    if reading.text_rows:
        r = np.arange(reading.text_rows)[:, None]
        out[lead:start] = np.angle(z[lead])[None, :] + r * theta[None, :]
    size = int(np.prod(reading.grid))
    index = np.stack(np.unravel_index(np.arange(size), reading.grid), axis=1)
    axis = np.asarray(reading.axis)
    steps = np.where(axis >= 0, index[:, np.clip(axis, 0, None)], 0)
    out[start : start + size] = np.angle(z[start])[None, :] + steps * theta[None, :]
    for r in reading.identity_rows:
        out[r] = 0.0
    return out


def _stated_sections(
    reading: GridReading, stated: tuple[int, int, int] | None, info: dict
) -> tuple[list[str], list[dict]]:
    """What the config's mrope_section says of the sections read: it decides between the
    candidates, agrees, or is contradicted (a fault)."""
    if stated is None or info["type"] != "mrope":
        return [], []
    options = sections(reading)
    matching = [layout for counts, layout in options if counts == stated]
    shown = f"[{stated[0]}, {stated[1]}, {stated[2]}]"
    if matching and len(options) == 1:
        return [f"the config's mrope_section {shown} agrees"], []
    if len(set(matching)) == 1:
        info["mrope_section"], info["section_layout"] = list(stated), matching[0]
        return [f"the config's mrope_section {shown} decides the sections ({matching[0]})"], []
    text = f"the config's mrope_section {shown} does not fit the cache: its pairs turn as " + (
        f"mrope_section {info['mrope_section']}" if "mrope_section" in info else "other sections"
    )
    return [text], [{"bug": "mrope_section_mismatch", "text": text}]


def grid_audit(
    source: CacheSource,
    columns: Columns,
    precision: str,
    consumer: object,
    config: object = None,
) -> RopeAudit | None:
    """The audit of source as a grid cache, or None when no grid fits (a 1-D cache). config:
    the audit's config (dict or path), whose mrope_section is checked against the sections."""
    if source.cos is None or source.sin is None or columns.pairs < 2:
        return None
    if source.rows > MAX_GRID_ROWS:
        return None
    cos, sin = source.take(np.arange(source.rows))
    unit = rounding_bound(precision, 1.0)
    first, second = columns.first, columns.second
    z = cos[:, first] + 1j * sin[:, first]
    reading = read_grid(cos[:, first], sin[:, first], max(_STEP_ROUNDINGS * unit, 1e-9))
    if reading is None:
        return None
    angles = _angles(z, reading)
    errors = np.maximum(
        np.abs(cos[:, first] - np.cos(angles)) + np.abs(cos[:, second] - np.cos(angles)),
        np.abs(sin[:, first] - np.sin(angles)) + np.abs(sin[:, second] - np.sin(angles)),
    )
    per_row = errors.max(axis=1)
    worst = int(np.argmax(per_row))
    error = float(per_row[worst])
    sound = error <= _MEASURE_ROUNDINGS * max(unit, 2.0**-52)
    text = findings(reading, columns.layout)
    faults: list[dict] = []
    if not sound:
        faults.append(
            {
                "bug": "grid_mismatch",
                "text": f"the cache differs from its grid reading by {error:.2g} at row {worst}",
            }
        )
        text.append(faults[0]["text"])
    info = describe(reading)
    said, wrong = _stated_sections(reading, config_sections(config), info)
    text += said
    faults += wrong
    sound = sound and not wrong
    return RopeAudit(
        kind="rope",
        source="cache",
        shape=(source.rows, source.width),
        convention=consumer.convention,
        convention_source=consumer.source,
        cache_layout=columns.layout,
        pairs=consumer.pairs,
        rotary_dim=columns.rotary_dim,
        head_dim=consumer.head_dim,
        unrotated=consumer.unrotated,
        base=None,
        frequencies=tuple(float(t) for t in np.nan_to_num(reading.frequency, nan=0.0)),
        frequency_bounds=(),
        scaling=info,
        scaling_source="cache",
        assumed=(),
        attention_factor=1.0,
        logit_factor=1.0,
        attention={},
        position_offset=None,
        positions={"rows": source.rows, "grid": list(reading.grid)},
        precision={"stored": precision, "grade": f"within {error:.1e} of its grid reading"},
        max_abs_error=error,
        worst_position=int(source.positions[worst]),
        error_by_position=(),
        structure={"verdict": "sound" if sound else "fault", "faults": [f["bug"] for f in faults]},
        config=None,
        bugs=tuple(f["bug"] for f in faults),
        faults=tuple(faults),
        findings=tuple(text),
        sound=sound,
        # Sections the grid cannot tell apart are described, not a fault: with no config, no
        # section is wrong; a config's mrope_section decides them (and is checked above).
        outcome=Outcome.SOUND if sound else Outcome.FAULT,
        decided_by=(),
    )
