"""compare(a, b): whether two tables encode the same positions up to column order, scale and offset.

Both tables are audited; their pairs are matched by frequency (sine to sine, cosine to cosine),
which gives the column permutation, the scale is the ratio of amplitudes and the row offset the
difference of position offsets. The claim B = s·A·Pᵀ is then checked entry by entry on the
overlapping rows, each entry within what each table may be off by for that pair at that
position (its grade's cap, numeric.audit.grading), never within the error of another pair.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from numeric.audit.grading import cap
from numeric.audit.load import as_rows, check_array
from numeric.audit.quiet import quiet
from numeric.audit.rows import Rows
from numeric.table_audit.findings import OFF_FORMULA
from numeric.table_audit.identify import audit
from numeric.table_audit.result import Audit, Comparison
from numeric.table_audit.verdicts import NOT_SINUSOIDAL


def _mapping(a: Audit, b: Audit) -> tuple[np.ndarray, float, int] | str:
    """(permutation, scale, row offset) matching b's columns to a's, or why there is none."""
    for name, t in (("A", a), ("B", b)):
        offset = t.position_offset
        whole = offset is not None and offset == round(offset) and t.position_step == 1
        if not t.pairs_share_frequency or not whole or t.scale is None:
            return (
                f"table {name} is not identified as a sinusoidal encoding whose row r holds "
                "position r + a whole offset"
            )
    if len(a.pairs) != len(b.pairs) or len(a.zero_columns) != len(b.zero_columns):
        return f"A has {len(a.pairs)} pairs and B {len(b.pairs)}: no column permutation maps one to the other"
    if a.shape[1] != b.shape[1] or len(a.pairs) * 2 + len(a.zero_columns) != a.shape[1]:
        return "the tables differ in width or have unpaired columns"
    perm = np.full(b.shape[1], -1)
    a_order = np.argsort(a.frequencies)
    b_order = np.argsort(b.frequencies)
    for ia, ib in zip(a_order, b_order, strict=True):
        perm[b.pairs[ib][0]] = a.pairs[ia][0]
        perm[b.pairs[ib][1]] = a.pairs[ia][1]
    perm[list(b.zero_columns)] = list(a.zero_columns)
    return perm, b.scale / a.scale, int(b.position_offset - a.position_offset)


def _entry_bound(t: Audit, angle: np.ndarray, log_omega: np.ndarray) -> np.ndarray:
    """What t's entries may be off by at these angles of their pairs (log_omega: ln ω of each
    entry's pair): its measured largest error, and no more than one rounding when rounded
    once, or its grade's cap for that pair there (numeric.audit.grading) when computed in a
    format. Each is a bound on every entry; the smaller holds."""
    if t.accuracy.get("grade") in (NOT_SINUSOIDAL, OFF_FORMULA):
        # Its error is no computation's (a row of no position, a pair off the formula): it
        # bounds nothing, and the entries are held to one rounding.
        return np.full(angle.shape, t.expected_error)
    measured = np.full(angle.shape, (t.max_abs_error or 0.0) + t.expected_error)
    computed = t.accuracy.get("computed_in")
    if t.accuracy.get("grade") == "rounded once" and computed is None:
        return np.minimum(measured, t.expected_error)
    if computed is None:
        return measured
    return np.minimum(measured, cap(computed, t.expected_error, t.scale, angle, log_omega))


def _pair_tolerance(a: Audit, b: Audit, scale: float) -> Callable[[np.ndarray], np.ndarray]:
    """tolerance(rows): (rows, columns of B), what B's entry may differ from s·A's: each
    table's own bound for that entry's pair at that position (B row r holds position r +
    B's offset; unpaired columns are zero in both, within one rounding)."""
    omega = np.zeros(b.shape[1])
    paired = np.zeros(b.shape[1], dtype=bool)
    for (sin_col, cos_col), w in zip(b.pairs, b.frequencies, strict=True):
        omega[[sin_col, cos_col]] = abs(w)
        paired[[sin_col, cos_col]] = True
    log_omega = np.log(np.maximum(omega, np.finfo(np.float64).tiny))
    offset = float(b.position_offset or 0.0)
    rounding = scale * a.expected_error + b.expected_error

    def tolerance(rows: np.ndarray) -> np.ndarray:
        angle = np.abs(rows.astype(np.float64) + offset)[:, None] * omega
        bound = scale * _entry_bound(a, angle, log_omega) + _entry_bound(b, angle, log_omega)
        return np.where(paired, bound, rounding)

    return tolerance


def _first_difference(
    a, b, perm, scale, shift, tolerance: Callable[[np.ndarray], np.ndarray]
) -> tuple[float, float, dict | None, int]:
    """Max |B[r] - s·A[r+shift][:, perm]| over overlapping rows, the tolerance at the first
    entry beyond it (else the largest tolerance), that entry, and the number of rows compared.
    tolerance(rows): (rows, columns), what each entry may differ by."""
    rows = np.arange(max(0, -shift), min(b.shape[0], a.shape[0] - shift))
    worst, allowed, first = 0.0, 0.0, None
    chunk = max(1, b.block_rows() // 2)
    for start in range(0, len(rows), chunk):
        r = rows[start : start + chunk]
        vb = b[r]
        va = scale * a[r + shift][:, perm]
        diff = np.abs(vb - va)
        worst = max(worst, float(diff.max()))
        limit = tolerance(r)
        if first is None:
            allowed = max(allowed, float(limit.max()))
        if first is None and (diff > limit).any():
            i, j = np.argwhere(diff > limit)[0]
            allowed = float(limit[i, j])
            first = {
                "row": int(r[i]),
                "column": int(j),
                "a_value": float(va[i, j]),
                "b_value": float(vb[i, j]),
                "magnitude": float(diff[i, j]),
            }
    return worst, allowed, first, len(rows)


@quiet
def compare(
    a: np.ndarray | Rows, b: np.ndarray | Rows, *, names: tuple[str, str] = ("table A", "table B")
) -> Comparison:
    """Whether tables a and b encode the same positions: B = s·A·Pᵀ, B row r = A row r + offset.

    a, b: (positions, dims) float tables (or the rows of files, numeric.audit.load
    .open_table); names: how error messages name them. The result names the permutation (B
    column j is s × A column permutation[j]), scale and offset, or the first row and column
    where they part.
    """
    a = a if isinstance(a, Rows) else as_rows(check_array(a, names[0]))
    b = b if isinstance(b, Rows) else as_rows(check_array(b, names[1]))
    audit_a, audit_b = audit(a, what=names[0]), audit(b, what=names[1])
    mapping = _mapping(audit_a, audit_b)
    if isinstance(mapping, str):
        if a.shape != b.shape:
            return Comparison(False, None, None, None, None, 0.0, None, (mapping,))
        perm, scale, shift = np.arange(a.shape[1]), 1.0, 0
        rounding = audit_a.expected_error + audit_b.expected_error
        tolerance = lambda rows: np.full((len(rows), b.shape[1]), rounding)  # noqa: E731
        findings = [mapping, "compared entry by entry as they stand"]
    else:
        perm, scale, shift = mapping
        tolerance = _pair_tolerance(audit_a, audit_b, scale)
        findings = []
    worst, allowed, first, count = _first_difference(a, b, perm, scale, shift, tolerance)
    same = first is None and count > 0 and not isinstance(mapping, str)
    if isinstance(mapping, str):
        same = first is None
    if count == 0:
        findings.append("the tables share no positions")
    elif same and isinstance(mapping, str):
        findings.append(f"the tables are equal entry by entry (max difference {worst:.1e})")
    elif same:
        moved = (
            "the same column order"
            if np.array_equal(perm, np.arange(len(perm)))
            else "columns permuted"
        )
        findings.append(
            f"same positions: B = {scale:.6g}·A with {moved}; B row r holds A row r + {shift} "
            f"({count} rows compared, max difference {worst:.1e})"
        )
    elif first is not None:
        findings.append(
            f"they differ first at B row {first['row']}, column {first['column']}: "
            f"{first['b_value']:.6g} vs {first['a_value']:.6g} (difference {first['magnitude']:.2g})"
        )
    return Comparison(
        same=bool(same),
        permutation=tuple(int(p) for p in perm) if same else None,
        scale=float(scale) if same else None,
        offset=int(shift) if same else None,
        max_difference=worst if count else None,
        tolerance=allowed,
        first_difference=first,
        findings=tuple(findings),
    )
