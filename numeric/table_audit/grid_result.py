"""The audit of a 2-D table, from the audits of its two 1-D tables (numeric.table_audit.grid)."""

from __future__ import annotations

import dataclasses

from numeric.audit.findings import Finding
from numeric.table_audit.grid import Grid, blocks
from numeric.table_audit.result import Audit
from numeric.table_audit.verdicts import GRADES


def _common(a: object, b: object) -> object:
    return a if a == b else None


def _worse(a: Audit, b: Audit) -> Audit:
    """The sub-audit with the worse accuracy (then the larger error)."""

    def rank(x: Audit) -> tuple[int, float]:
        grade = x.accuracy.get("grade") or "not sinusoidal"
        index = GRADES.index(grade) if grade in GRADES else len(GRADES)
        return index, x.max_abs_error or 0.0

    return a if rank(a) >= rank(b) else b


def _columns(cols, pairs) -> tuple[tuple[int, int], ...]:
    return tuple((int(cols[s]), int(cols[c])) for s, c in pairs)


def _index_findings(name: str, where: str, sub: Audit) -> list[Finding]:
    """One index's convention in a line, then its own findings about rows and accuracy."""
    c = sub.convention
    step = sub.position_step
    positions = f"{step:g}·{name}" if step not in (None, 1) else name
    first = sub.found[0] if sub.found else Finding(None, "no pairs", False)
    head = (
        Finding(
            None,
            f"{name} ({where}): {sub.layout} pairs, {sub.schedule} schedule, base "
            f"{sub.base:g} at d = {2 * len(sub.pairs)}, scale {sub.scale_name or sub.scale}, "
            f"positions {positions}",
            False,
        )
        if c.get("verdict") == "named"
        else Finding(first.bug, f"{name} ({where}): {first.text}", first.fault)
    )
    rest = [
        Finding(f.bug, f"{name}: {f.text}", f.fault)
        for f in sub.found[1:]
        if not f.text.startswith(("stored as", "positions scaled"))
    ]
    return [head, *rest]


def grid_audit(
    grid: Grid,
    outer: Audit,
    inner: Audit,
    shape: tuple[int, int],
    dtype: str,
    precision: str,
    zero_columns: tuple[int, ...],
    distinct: int,
) -> Audit:
    """One Audit for a 2-D table: layout '2d', the grid, and each index's own audit."""
    names, block_width = blocks(grid, outer.pairs, inner.pairs, shape[1])
    worse = _worse(outer, inner)
    reasons = [f"h: {r}" for r in outer.structure["reasons"]]
    reasons += [f"w: {r}" for r in inner.structure["reasons"]]
    sound = outer.structure["verdict"] == inner.structure["verdict"] == "sound"
    verdict = "sound" if sound else worse.structure["verdict"]
    grid_fields = {
        "height": grid.height,
        "width": grid.width,
        "row": "h * width + w",
        "h_columns": [int(c) for c in grid.outer_cols],
        "w_columns": [int(c) for c in grid.inner_cols],
        "blocks": names,
        "block_width": block_width,
    }
    convention = {
        "verdict": _common(outer.convention["verdict"], inner.convention["verdict"]) or "mixed",
        "layout": "2d",
        "grid": grid_fields,
        "schedule": _common(outer.schedule, inner.schedule),
        "base": _common(outer.base, inner.base),
        "scale": _common(outer.scale, inner.scale),
        "scale_name": _common(outer.scale_name, inner.scale_name),
        "position_of_row_0": _common(outer.position_offset, inner.position_offset),
        "position_step": _common(outer.position_step, inner.position_step),
        "h": outer.convention,
        "w": inner.convention,
    }
    accuracy = {**worse.accuracy, "h": outer.accuracy, "w": inner.accuracy}
    rotation = {**worse.rotation, "h": outer.rotation, "w": inner.rotation}
    rotation["passed"] = bool(outer.rotation["passed"] and inner.rotation["passed"])
    head = (
        f"a 2-D grid of {grid.height} × {grid.width} positions: row r holds (h, w) = "
        f"(r // {grid.width}, r mod {grid.width}); columns "
        + ", ".join(f"{n}" for n in names)
        + (f" in blocks of {block_width}" if block_width else "")
    )
    findings = (
        Finding(None, head, False),
        *_index_findings("h", f"h = r // {grid.width}", outer),
        *_index_findings("w", f"w = r mod {grid.width}", inner),
    )
    return dataclasses.replace(
        worse,
        shape=shape,
        dtype=dtype,
        precision=precision,
        structure={"verdict": verdict, "reasons": reasons},
        convention=convention,
        accuracy=accuracy,
        sinusoidal=outer.sinusoidal and inner.sinusoidal,
        layout="2d",
        schedule=convention["schedule"],
        base=convention["base"],
        frequencies=outer.frequencies + inner.frequencies,
        scale=convention["scale"],
        scale_name=convention["scale_name"],
        position_offset=convention["position_of_row_0"],
        position_step=convention["position_step"],
        zero_rows=(),
        worst_row=None,
        zero_columns=zero_columns,
        pairs=_columns(grid.outer_cols, outer.pairs) + _columns(grid.inner_cols, inner.pairs),
        pairs_share_frequency=outer.pairs_share_frequency and inner.pairs_share_frequency,
        distinct_rows=distinct,
        identical_rows=None,
        rotation=rotation,
        found=findings,
    )
