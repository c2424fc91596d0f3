"""Audit and Comparison: the results of numeric.audit and numeric.compare, as JSON and as short text."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from numeric.audit.findings import Finding
from numeric.audit.outcome import Outcome
from numeric.audit.report import WIDTH, bullets, line, plain
from numeric.table_audit.findings import UNDECIDED_BUGS


@dataclass(frozen=True)
class Audit:
    """What a positional-encoding table is and how accurate it is (see numeric.table_audit.audit).

    Three verdicts: structure ('sound', 'faulty', 'undecided' when only what the table alone
    cannot decide stands against it, or 'not sinusoidal', with reasons), convention
    (layout, schedule, base, scale, position of row 0 and step, direction, padding, packed
    restarts, aliased pairs, a constant added) and accuracy (the grade: 'rounded once',
    'computed in float64', 'computed in float32', 'computed in 16 bits' or 'not sinusoidal';
    or not a grade: a pair off the named formula, or fitted frequencies whose error float32
    at larger angles and 16-bit arithmetic would both give: numeric.table_audit.findings);
    precision: the format the values really carry. The flat fields repeat the most used ones:
    pairs: (sine column, cosine column) per pair, in the schedule's order; frequencies: fitted
    radians a row per pair; position_offset: the position of row 0 (row r holds position
    offset + step·r); max_abs_error: over non-zero rows, against the exact table of the
    identified convention at the positions the rows hold, at worst_position; expected_error:
    what one rounding to the table's precision allows; rotation: the shift identity on the table;
    found: the findings, typed (their sentences are findings; those that fail the audit, faults).
    """

    shape: tuple[int, int]
    dtype: str
    precision: str
    structure: dict
    convention: dict
    accuracy: dict
    sinusoidal: bool
    layout: str | None
    schedule: str | None
    base: float | None
    frequencies: tuple[float, ...]
    scale: float | None
    scale_name: str | None
    position_offset: float | None
    position_step: float | None
    zero_rows: tuple[int, ...]
    zero_columns: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...]
    pairs_share_frequency: bool
    max_abs_error: float | None
    worst_position: float | None
    worst_row: int | None
    expected_error: float
    error_by_position: tuple[dict, ...]
    error_method: str
    cross_check: dict | None
    distinct_rows: int
    identical_rows: tuple[int, int] | None
    rotation: dict
    found: tuple[Finding, ...]

    @classmethod
    def from_facts(cls, f, verdicts: dict, findings: list[Finding], bands) -> Audit:
        """The result from numeric.table_audit.findings.Facts, their verdicts and findings."""
        unit = f.unit
        errors, held = f.errors, f.held
        pairs = f.oriented if f.oriented is not None else None
        sin_cols = pairs.sin_cols if pairs is not None else f.pairing.pairs.a_cols
        cos_cols = pairs.cos_cols if pairs is not None else f.pairing.pairs.b_cols
        slope = pairs.slope if pairs is not None else f.pairing.pairs.slope
        convention = verdicts["convention"]
        accuracy = verdicts["accuracy"]
        grade = accuracy.get("grade") or ""
        scaled = {"residual", "tolerance"}
        rotation = {
            k: (v * unit if k in scaled and v is not None else v) for k, v in f.rotation.items()
        }
        rotation["by_k"] = [
            {k: (v * unit if k in scaled else v) for k, v in row.items()}
            for row in f.rotation["by_k"]
        ]
        on = f.rotation_on_table
        if on is not None:
            # The identity above is on the table minus its constant; this one on the table.
            rotation["constant"] = f.constant
            rotation["on_table"] = {
                "passed": on["passed"],
                "residual": None if on["residual"] is None else on["residual"] * unit,
                "tolerance": None if on["tolerance"] is None else on["tolerance"] * unit,
                "worst_k": on["worst_k"],
            }
        return cls(
            shape=f.shape,
            dtype=f.dtype,
            precision=f.precision,
            structure=verdicts["structure"],
            convention=convention,
            accuracy=accuracy,
            sinusoidal=bool(f.pairing.consistent and not grade.startswith("not sinusoidal")),
            layout=f.layout,
            schedule=f.schedule_name,
            base=convention["base"],
            frequencies=tuple(float(abs(w)) for w in slope),
            scale=convention["scale"],
            scale_name=f.scale_name,
            position_offset=convention["position_of_row_0"],
            position_step=convention["position_step"],
            zero_rows=f.zero_rows,
            zero_columns=f.zero_columns,
            pairs=tuple((int(s), int(c)) for s, c in zip(sin_cols, cos_cols, strict=True)),
            pairs_share_frequency=f.pairing.consistent,
            max_abs_error=errors.max_error * unit if errors else None,
            worst_position=float(held.positions[errors.worst_row]) if errors else None,
            worst_row=int(errors.worst_row) if errors else None,
            expected_error=f.expected * unit,
            error_by_position=tuple(
                {**b, "max_error": b["max_error"] * unit}
                for b in (bands(errors.per_row, held.positions) if errors else [])
            ),
            error_method=errors.method
            if errors
            else "not measured: the columns form no (sin, cos) pairs",
            cross_check=errors.cross_check if errors else None,
            distinct_rows=f.distinct,
            identical_rows=f.identical,
            rotation=rotation,
            found=tuple(findings),
        )

    @property
    def findings(self) -> tuple[str, ...]:
        """The findings' sentences, most important first."""
        return tuple(f.text for f in self.found)

    @property
    def faults(self) -> tuple[dict, ...]:
        """{"bug", "text"} of each finding that fails the audit."""
        return tuple({"bug": f.bug, "text": f.text} for f in self.found if f.fault)

    @property
    def undecided(self) -> tuple[str, ...]:
        """The sentences of what the table alone cannot decide (each says what would)."""
        return tuple(f.text for f in self.found if f.bug in UNDECIDED_BUGS and not f.fault)

    @property
    def outcome(self) -> Outcome:
        """FAULT when a finding is a fault, else UNDECIDED when the table alone cannot decide
        something (undecided), else SOUND; the command line's exit statuses 1, 3, 0."""
        if any(f.fault for f in self.found):
            return Outcome.FAULT
        return Outcome.UNDECIDED if self.undecided else Outcome.SOUND

    @property
    def clean(self) -> bool:
        """The exit-0 rule: the outcome is sound (no finding is a fault, a reason the structure
        is not sound or an accuracy beyond rounding once or an ordinary float64 or float32
        computation, and none leaves the verdict open)."""
        return self.outcome is Outcome.SOUND

    def to_json(self) -> dict:
        """Every field as JSON-ready Python values (no NumPy scalars); the outcome; the
        findings as sentences, then the faults and the undecided among them."""
        out = plain({k: v for k, v in asdict(self).items() if k != "found"})
        return {
            **out,
            "outcome": str(self.outcome),
            "findings": list(self.findings),
            "faults": plain(self.faults),
            "undecided": list(self.undecided),
        }

    def report_lines(self, width: int = WIDTH, outcome: Outcome | None = None) -> list[str]:
        """A short human report, each line at most `width` columns, its outcome in the first
        (the audit's own, or the one the caller decided from more than the table: outcome)."""
        n, d = self.shape
        said = (self.outcome if outcome is None else outcome).headline
        carried = (
            f"values carry {self.precision}"
            if self.precision.endswith("digits")
            else f"values are {self.precision} numbers"
        )
        lines = line(f"audit of a ({n}, {d}) {self.dtype} table: {said}; {carried}", width)
        s = self.structure
        reasons = "; ".join(s["reasons"])
        lines += line(f"structure: {s['verdict']}" + (f" ({reasons})" if reasons else ""), width)
        lines += line(f"convention: {_convention_line(self)}", width)
        lines += line(f"accuracy: {_accuracy_line(self)}", width)
        if self.error_by_position:
            bands = "  ".join(
                f"<{b['below']:.0e}: {b['max_error']:.1e}" for b in self.error_by_position
            )
            lines += line(f"by position: {bands}", width)
        r = self.rotation
        if r["ks"]:
            ks = ", ".join(str(k) for k in r["ks"])
            text = (
                f"rotation R(kω)·PE[p] = PE[p+k] for k = {ks}: "
                f"{'passed' if r['passed'] else 'FAILED'} (worst at k = {r['worst_k']}: "
                f"residual {r['residual']:.1e}, tolerance {r['tolerance']:.1e})"
            )
            if r.get("held_to") == "its own error":
                text += "; each entry held to the table's own error against its fit"
            if r.get("on_table") is not None:
                t = r["on_table"]
                text = text.replace("PE[p] = PE[p+k]", "(PE[p] − c) = PE[p+k] − c", 1)
                text += (
                    f"; on the table itself (c = {r['constant']:.6g} included): "
                    f"{'passed' if t['passed'] else 'FAILED'} (residual {t['residual']:.1e})"
                )
            lines += line(text, width)
        lines.append(f"distinct rows: {self.distinct_rows} of {n}")
        lines.append("findings:")
        return lines + bullets(self.findings, width)


def _convention_line(a: Audit) -> str:
    c = a.convention
    if not a.pairs_share_frequency:
        return "none (the columns form no (sin, cos) pairs of one frequency)"
    parts = [f"layout {a.layout}"]
    if a.schedule in ("paper", "tensor2tensor"):
        parts.append(f"schedule {a.schedule}, base {a.base:g}")
    elif a.schedule == "diffusers":
        parts.append(f"schedule base^(−i/(d/2 − {c['shift']:g})), base {a.base:g}")
    elif a.schedule == "custom":
        base = c.get("fitted_base")
        parts.append("schedule custom" + (f" (fitted base {base:.6g})" if base else ""))
    else:
        parts.append("one pair: no schedule")
    parts.append(f"scale {a.scale_name or f'{a.scale:.6g}'}")
    first = c.get("first_row")
    step = a.position_step
    if first is not None and step is not None:
        where = f"row {first['row']} = position {first['position']:g}"
        if step != 1:
            where += f", step {step:g} a row"
        parts.append(where)
    return ", ".join(parts)


def _accuracy_line(a: Audit) -> str:
    acc = a.accuracy
    grade = acc.get("grade")
    if grade is None or a.max_abs_error is None:
        return grade or "not measured"
    against = "" if acc.get("against", "").startswith("the exact") else ", against its own fit"
    where = f"position {a.worst_position:g}" if not against else f"row {a.worst_row}"
    error, aside = a.max_abs_error, acc.get("rows_set_aside", 0)
    if aside:
        # The grade is read without the rows of no position: so are its numbers.
        error, where = acc["max_error"], f"position {acc['worst_position']:g}"
        against += f", {aside} row(s) of no position set aside"
    return (
        f"{grade}{against}: max error {error:.2e} at {where} "
        f"(one {a.precision} rounding allows {a.expected_error:.1e})"
    )


@dataclass(frozen=True)
class Comparison:
    """Whether B = scale·A·Pᵀ with rows shifted by offset (B row r = A row r + offset).

    permutation: B column j is scale × A column permutation[j]; first_difference: where the
    tables part (row and column of B, the two values, the magnitude) when they do not match.
    """

    same: bool
    permutation: tuple[int, ...] | None
    scale: float | None
    offset: int | None
    max_difference: float | None
    tolerance: float
    first_difference: dict | None
    findings: tuple[str, ...]

    def to_json(self) -> dict:
        """Every field as JSON-ready Python values (no NumPy scalars)."""
        return plain(asdict(self))

    def report_lines(self, width: int = WIDTH, outcome: Outcome | None = None) -> list[str]:
        """A short human report, each line at most `width` columns; led by outcome's word when
        the caller decided another outcome than the comparison's own (from more than it)."""
        head = "same encoding" if self.same else "different encodings"
        if outcome is not None and outcome is not Outcome.of_verdict(self.same):
            head = f"{outcome.headline}: {head}"
        if self.max_difference is not None:
            head += f" (max difference {self.max_difference:.1e}, tolerance {self.tolerance:.1e})"
        return line(head, width) + bullets(self.findings, width)
