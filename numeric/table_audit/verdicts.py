"""The audit's three verdicts: structure, convention, accuracy (numeric.table_audit.result)."""

from __future__ import annotations

import numpy as np

from numeric.audit.grading import COMPUTED
from numeric.table_audit.facts import Facts
from numeric.table_audit.findings import (
    OFF_FORMULA,
    UNDECIDED,
    collapse,
    convention_sentences,
    listed,
)
from numeric.table_audit.positions import course

# The accuracy grades, best first: the audit core's, this audit's word for none, and the two
# that are not grades (numeric.table_audit.findings) where they rank: undecided between float32
# and 16 bits, a pair off the formula below any computation.
NOT_SINUSOIDAL = "not sinusoidal"
GRADES = (*COMPUTED[:3], UNDECIDED, COMPUTED[3], OFF_FORMULA, NOT_SINUSOIDAL)


def verdicts(f: Facts) -> dict:
    """The three verdicts: structure, convention, accuracy (see numeric.table_audit.result)."""
    p = f.pairing
    reasons = []
    if not p.consistent:
        verdict = (
            "faulty"
            if p.split_frequencies is not None or p.off_circle or f.columns_sinusoidal
            else ("not sinusoidal")
        )
        reasons.append(convention_sentences(f)[0])
    else:
        verdict = "sound"
        if p.leftover:
            reasons.append(f"column(s) {listed(p.leftover)} have no partner")
        if f.held is not None and len(f.held.unexplained):
            reasons.append(f"{len(f.held.unexplained)} row(s) match no position of this encoding")
        if collapse(f):
            a, b = f.identical
            reasons.append(f"rows {a} and {b} are identical: positions collapse")
        if f.off_formula:
            pairs = listed([o["pair"] for o in f.off_formula])
            reasons.append(f"pair(s) {pairs} turn at another frequency than the schedule's")
        if not f.rotation["passed"]:
            reasons.append("the shift identity fails on the table")
        if reasons:
            verdict = "faulty"
        # What the table alone cannot decide: said after any fault, and the verdict when
        # there is none.
        open_ = []
        if f.mirrored:
            open_.append("relative positions +r and −r hold the same row")
        if f.rotation_on_table is not None and not f.rotation_on_table["passed"]:
            open_.append(
                "a constant is added to every value: the shift identity holds for the table "
                "minus it, not for the table"
            )
        if open_ and not reasons:
            verdict = "undecided"
        reasons += open_
    return {
        "structure": {"verdict": verdict, "reasons": reasons},
        "convention": _convention_verdict(f),
        "accuracy": _accuracy_verdict(f),
    }


def _convention_verdict(f: Facts) -> dict:
    named, held = f.named, f.held
    name = f.schedule_name
    out = {
        "verdict": "named" if f.exact and name else (name or "none"),
        "layout": f.layout,
        "schedule": name,
        "base": named.convention.base if f.exact and name else None,
        "shift": named.convention.shift if f.exact and name else None,
        "fitted_base": f.schedule.fitted_base if f.schedule is not None else None,
        "scale": None if f.scale is None else f.scale * f.unit,
        "scale_name": f.scale_name,
        "position_of_row_0": named.offset if f.exact else None,
        "position_step": named.step if f.exact else None,
        "position_transform": None,
        "direction": None,
        "constant": f.constant,
        "aliased_pairs": list(f.schedule.aliased) if f.schedule is not None and f.exact else [],
        "frequencies_rounded_to": named.frequencies_rounded_to if named is not None else None,
        "zero_rows": list(f.zero_rows),
        "packed_restarts": [],
        "turns": [],
        "plateaus": [],
    }
    if f.oriented is not None:
        out["direction"] = "descending" if f.oriented.descending else "ascending"
    if held is not None and f.exact:
        c = course(held.runs, named.step)
        out["position_of_row_0"] = c.offset
        out["position_transform"] = c.transform
        out["packed_restarts"] = [{"row": r.first, "position": r.start} for r in c.restarts]
        out["turns"] = [{"row": r.first, "position": r.start} for r in c.turns]
        out["plateaus"] = [{"rows": [r.first, r.last], "position": r.start} for r in c.plateaus]
        out["first_row"] = {"row": c.first.first, "position": c.first.start}
    return out


def _accuracy_verdict(f: Facts) -> dict:
    a = f.accuracy
    if a is None:
        return {"grade": "not sinusoidal" if not f.pairing.consistent else None}
    omega_max = float(np.abs(f.named.convention.frequencies()).max()) if f.named else 0.0
    return {
        "grade": a.grade,
        "against": "the exact table of the convention" if f.exact else "the fitted sinusoids",
        "computed_in": a.computed_in,
        "max_error": a.max_error * f.unit,
        "worst_position": a.worst_position,
        "expected_error": f.expected * f.unit,
        "growth_per_position": a.envelope_b * omega_max * f.unit,
        "rows_set_aside": f.set_aside,
    }
