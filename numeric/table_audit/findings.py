"""The audit's findings: sentences a person reads, built from what the fit and the measurement
found (numeric.table_audit.facts).

Who uses a layout is said only where the library's own source was read, and never inferred from
a scale or an offset: the sentences name what the table matches, not where it came from.
Every number a sentence gives is in the table's own units (a table audited divided by a power of
two, numeric.table_audit.identify, is reported multiplied back). The named layouts are checked
against tables those libraries made (tests/numeric/test_audit_real_tables.py).

One module because it is one decision: which sentences a table's audit says, and which of them
are faults, read from the same verdicts; each sentence is a short helper, and splitting them
would part a sentence from the fault flag it carries.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from numeric.audit.findings import Finding
from numeric.audit.grading import SOUND, growth_words
from numeric.table_audit.facts import Facts
from numeric.table_audit.naming import is_whole
from numeric.table_audit.positions import course

_LAYOUT_WORDS = {
    "interleaved": "interleaved (sin, cos) pairs",
    "interleaved_cos_first": "interleaved (cos, sin) pairs",
    "concatenated": "concatenated [sin | cos]",
    "concatenated_cos_first": "concatenated [cos | sin]",
}
_LISTED = 5  # rows or columns named one by one before "and N more"
# The bug classes of findings the table alone cannot decide (the audit's third outcome).
UNDECIDED_BUGS = frozenset({"mirrored_positions", "constant_added", "angles_unknown"})
# Accuracy grades that are not grades: a pair off the named formula (its error is the
# frequency's, not the arithmetic's), and fitted frequencies whose angles are known only modulo
# 2π, where float32 at larger angles and 16-bit arithmetic make the same error.
OFF_FORMULA = "not graded: a pair is off the formula"
UNDECIDED = "undecided: float32 or 16 bits"


def listed(items: tuple[int, ...] | list[int]) -> str:
    items = list(items)
    shown = ", ".join(str(i) for i in items[:_LISTED])
    return shown + (f" and {len(items) - _LISTED} more" if len(items) > _LISTED else "")


def _rows(first: int, last: int) -> str:
    return f"row {first}" if first == last else f"rows {first}–{last}"


def _number(value: float) -> str:
    return f"{value:g}" if is_whole(value) else f"{value:.6g}"


# Layouts and schedules as the named libraries write them (their sources were read; the tables in
# tests/data/real_tables were made by them). A scale or an offset never names a library: many
# write the same one (NeMo's FixedPositionalEncoding and x-transformers' learned scale both give
# d^-1/2), so the sentences say what the table matches and leave where it came from unsaid.
def who(layout: str | None, schedule: str | None) -> str:
    """Which well-known implementations write this layout with this schedule."""
    if layout == "interleaved" and schedule == "paper":
        return "the paper's convention (and the course module's)"
    if layout == "concatenated" and schedule == "tensor2tensor":
        return "fairseq's, tensor2tensor's and Whisper's convention, not the paper's"
    if layout == "concatenated_cos_first" and schedule == "tensor2tensor":
        return "MusicGen's order, not the paper's"
    if layout == "concatenated" and schedule == "paper":
        return "GPT-J's and CTRL's order, not the paper's"
    return "not the paper's convention"


def formula(offset: float, step: float) -> str:
    """The position row r holds, as a formula: 'r', 'r + 2', '999 − 20·r', '0.25·r'."""
    if step == 1:
        term = "r"
    elif step == -1:
        term = "−r"
    else:
        term = f"{_number(step)}·r" if step > 0 else f"−{_number(-step)}·r"
    if offset == 0:
        return term
    if term.startswith("−"):
        return f"{_number(offset)} {term[0]} {term[1:]}"
    return f"{term} + {_number(offset)}" if offset > 0 else f"{term} − {_number(-offset)}"


def _position_words(f: Facts) -> list[str]:
    """Where positions start and how they run, in the terms of the rows that hold them."""
    named, held = f.named, f.held
    if named is None or not f.exact or held is None:
        return []
    step = named.step
    c = course(held.runs, step)
    padded = held.runs[0].first > 0 or held.runs[0].step == 0
    where = f"row r holds position {formula(c.offset, step)}"
    if c.transform == "abs":
        turn = c.turns[0]
        last = turn.start + turn.step * (turn.last - turn.first)
        return [
            f"{_rows(c.first.first, c.first.last)} run backwards from {_number(c.first.start)} "
            f"to 0, {_rows(turn.first, turn.last)} forwards again from {_number(turn.start)} to "
            f"{_number(last)}: row r holds position |{formula(c.offset, step)}|, the same "
            "sines in both halves (a signed relative-position table negates them below 0)"
        ]
    if step < 0:
        end = c.first.start + step * (c.first.last - c.first.first)
        kind = " (a relative-position table)" if step == -1 else ""
        return [
            f"rows run backwards: {where}, from {_number(c.first.start)} down to "
            f"{_number(end)}{kind}"
        ]
    out = []
    if step != 1:
        out.append(f"positions scaled by {_number(step)}: {where}")
    if c.restarts:
        return out  # the packed sequences' sentence says where each starts
    if padded:
        out.append(
            f"the sequence starts at row {c.first.first}, which holds position "
            f"{_number(c.first.start)}"
        )
    elif c.offset and step == 1:
        out.append(
            f"{where}: positions start at {_number(c.offset)} (the offset rule: harmless when "
            "every position reads this table, a fault where row 0 must be position 0)"
        )
    return out


def convention_sentences(f: Facts) -> list[str]:
    p = f.pairing
    out = []
    if not p.consistent:
        if p.split_frequencies is not None:
            sines, cosines, sine_sigma, cosine_sigma = p.split_frequencies
            d = 2 * len(sines)
            out.append(
                f"pairs do not share a frequency: sin uses {_exponents(sines, sine_sigma, d)} "
                f"and cos {_exponents(cosines, cosine_sigma, d)}, so no rotation maps PE(pos) "
                "to PE(pos+k)"
            )
        elif p.off_circle:
            out.append(
                "sines and cosines share their frequencies, but rows leave the pairs' circles "
                "(sin² + cos² varies from row to row): too many rows to set aside are not "
                "positions of one sinusoidal encoding"
            )
        elif f.columns_sinusoidal:
            out.append("every column is a sinusoid, but no two columns form a (sin, cos) pair")
        else:
            out.append(
                "the columns are not sinusoids of the position: this is not a sinusoidal encoding"
            )
        return out
    words = _LAYOUT_WORDS.get(f.layout, "(sin, cos) pairs in no standard layout")
    s, named = f.schedule, f.named
    name = f.schedule_name
    if name in ("paper", "tensor2tensor"):
        base = named.convention.base
        head = f"{words} with the {name} schedule, base {base:g}"
        out.append(f"{head}: {who(f.layout, name)}")
        if named.alternative:
            out.append(f"at this d the same frequencies are also the {named.alternative}")
    elif name == "diffusers":
        shift = named.convention.shift
        out.append(
            f"{words} with ω_i = base^(−i/(d/2 − {shift:g})), base {named.convention.base:g}: "
            f"diffusers' get_timestep_embedding with downscale_freq_shift = {shift:g}"
        )
    elif name == "custom":
        extra = (
            f" (geometric from ω_0 = {abs(s.step_fitted):.6g}, base {s.fitted_base:.6g}, "
            "but no named schedule matches the table)"
            if s is not None and s.geometric and s.fitted_base
            else ""
        )
        out.append(f"{words} with a custom frequency schedule{extra}")
    else:
        out.append(f"{words}; one pair only, so the schedule and base are not determined")
    if f.scale_name in ("d^-1/2", "sqrt(2/d)"):
        value = f.scale * f.unit
        out.append(f"every value is scaled by {f.scale_name} ({value:.6g} at d = {f.shape[1]})")
    elif f.scale_name is None and f.scale is not None:
        out.append(f"every value is scaled by {f.scale * f.unit:.6g}")
    if not f.same_amplitude:
        out.append("the pairs do not all have the same amplitude")
    if f.constant is not None:
        out.append(f"every value has {f.constant:.6g} added: the sinusoids are measured without it")
    out += _position_words(f)
    if s is not None and s.aliased and f.exact:
        pairs = list(s.aliased)
        out.append(
            f"pair(s) {listed(pairs)} turn by more than π a row (aliased): sampled at these "
            "positions they look like slower sinusoids, and are measured at their true frequency"
        )
    return out


def _leftover(f: Facts) -> list[str]:
    """Columns left without a partner in pairs that do share a frequency."""
    p = f.pairing
    if not (p.consistent and p.leftover):
        return []
    return [f"column(s) {listed(p.leftover)} have no partner and are not measured"]


def _exponents(omega: np.ndarray, sigma: np.ndarray, d: int) -> str:
    """ω_i = 10000^(-(a·i + c)/d) fitted to the well-read omega (relative error below 1e-3)."""
    i = np.arange(len(omega))
    good = (omega > 0) & (sigma < 1e-3 * omega)
    if good.sum() < 2:
        return "unreadable frequencies"
    slope, intercept = np.polyfit(i[good], np.log(omega[good]), 1)
    a = -slope * d / np.log(10000)
    c = -intercept * d / np.log(10000)
    a_text = f"{a:.2f}".rstrip("0").rstrip(".")
    c_text = f"{c:.2f}".rstrip("0").rstrip(".")
    if c_text in ("0", "-0"):
        return f"10000^(−{a_text}i/d)"
    return f"10000^(−({a_text}i+{c_text})/d)"


def _padding_row(f: Facts, r: int) -> str | None:
    """A single zero row inside the run of positions, as fairseq's padding_idx row."""
    if not (f.exact and f.held is not None and f.named.step == 1):
        return None
    position = f.named.offset + r
    if not (is_whole(position) and position >= 0):
        return None
    # A sinusoidal row is never all zeros (cos 0 = 1): this one was zeroed on purpose.
    return (
        f"row {r} is all zeros: a padding row in place of position {position:g} "
        f"(fairseq-style padding_idx = {r}; tokens start at position {r + 1})"
    )


def _zero_rows(f: Facts) -> list[str]:
    n, zero = f.shape[0], f.zero_rows
    if not zero:
        return []
    zero_set = set(zero)
    leading = next((r for r in range(n) if r not in zero_set), n)
    trailing = next((n - 1 - r for r in range(n) if n - 1 - r not in zero_set), -1)
    inner = [r for r in zero if leading <= r <= trailing]
    if len(zero) == 1 and (padding := _padding_row(f, zero[0])) is not None:
        return [padding]
    out = []
    if leading:
        out.append(f"{_rows(0, leading - 1)} all zeros: left padding")
    if trailing < n - 1:
        out.append(f"{_rows(trailing + 1, n - 1)} all zeros: right padding")
    if inner:
        out.append(f"row(s) {listed(inner)} are all zeros")
    return out


def _runs(f: Facts) -> list[str]:
    """Restarts, rows that all hold one position, and rows no position explains."""
    held = f.held
    if held is None:
        return []
    out = []
    c = course(held.runs, f.named.step if f.named is not None else 1.0)
    for run in c.plateaus:
        where = "left padding, " if run.first == held.runs[0].first else ""
        out.append(
            f"{_rows(run.first, run.last)} all hold position {_number(run.start)} "
            f"({where}one position given to every row)"
        )
    if c.restarts:
        sequences = [c.first, *c.restarts]
        starts = {_number(r.start) for r in sequences}
        rows = listed([r.first for r in sequences])
        if len(starts) == 1:
            out.append(
                f"{len(sequences)} packed sequences, each counting from position "
                f"{starts.pop()}: they start at rows {rows}"
            )
        else:
            out.append(
                f"{len(sequences)} packed sequences: positions restart at rows "
                f"{listed([r.first for r in c.restarts])}"
            )
    if c.turns and c.transform is None:
        out.append(f"positions turn back at row(s) {listed([r.first for r in c.turns])}")
    return out


def _unexplained(f: Facts) -> list[str]:
    """Rows no position explains (a 16-bit table's accuracy sentence says why instead)."""
    held = f.held
    if held is None or not len(held.unexplained):
        return []
    if f.accuracy and f.accuracy.grade == "computed in 16 bits":
        return []
    worst = float(np.nanmax(held.errors[held.unexplained])) * f.unit
    return [
        f"row(s) {listed(list(held.unexplained))} match no position of this encoding "
        f"within what its computation allows (error up to {worst:.2g})"
    ]


def collapse(f: Facts) -> bool:
    """Whether two consecutive rows are equal where no padding explains it."""
    if f.identical is None:
        return False
    a, b = f.identical
    if f.held is not None:
        for run in f.held.runs:
            if run.step == 0 and run.first <= a and b <= run.last:
                return False
    return True


def _repeats(f: Facts) -> list[str]:
    n = f.shape[0]
    if f.held is not None and f.exact and not collapse(f):
        c = course(f.held.runs, f.named.step)
        if c.turns or (c.restarts and f.identical is None):
            return []  # packed sequences and rows of |c - r| repeat positions by design
    lost = n - len(f.zero_rows) - (f.distinct - int(bool(f.zero_rows)))
    if f.identical is not None:
        a, b = f.identical
        return [f"rows {a} and {b} are identical; {lost} non-zero rows repeat an earlier row"]
    if lost > 0:
        return [f"{lost} non-zero rows repeat an earlier row"]
    return []


def _stored(f: Facts) -> list[str]:
    if f.precision != f.dtype:
        return [f"stored as {f.dtype}, but every value is a {f.precision} number"]
    return []


def _accuracy(f: Facts) -> list[str]:
    """The sentence of the accuracy grade (none when nothing was measured)."""
    out: list[str] = []
    e, a = f.errors, f.accuracy
    if e is None or a is None:
        return out
    unit = f.unit
    where = f"max error {e.max_error * unit:.2g} at position {_number(a.worst_position)}"
    if f.set_aside:
        # The grade leaves the rows of no position out (their own finding): so do its numbers.
        e = dataclasses.replace(e, max_error=a.max_error)
        where = (
            f"rows of no position aside, max error {a.max_error * unit:.2g} at position "
            f"{_number(a.worst_position)}"
        )
    if not f.exact:
        if a.grade == UNDECIDED:
            return out  # _angles_unknown says it
        out.append(
            f"{where}, against the fitted sinusoids (no named convention to measure against)"
        )
        return out
    amplitude = f.scale or 1.0
    error = f"{e.max_error * unit:.2g}"
    position = _number(a.worst_position)
    allowed = f"one {f.precision} rounding allows {f.expected * unit:.1g}"
    rounded = f.named.frequencies_rounded_to
    if a.grade == OFF_FORMULA:
        out.append(
            f"{where}: the error of the pair(s) off the formula, not of the arithmetic, so "
            f"which computation made the table is not graded ({allowed})"
        )
    elif a.grade == "rounded once":
        out.append(
            f"{where}: rounded once, as accurate as {f.precision} allows ({f.expected * unit:.1g})"
        )
    elif a.grade == "not sinusoidal":
        out.append(f"{where}: beyond what any computation of this formula gives (even in 16 bits)")
    elif rounded:
        out.append(
            f"computed with the frequencies rounded to {rounded} (then pos·ω in float32): the "
            f"rows stay distinct, but each angle is off by pos·Δω, so the error reaches {error} "
            f"at position {position} ({allowed})"
        )
    elif a.computed_in == "float32":
        out.append(
            "computed in float32 (the angles pos·ω rounded, as torch code does): the error "
            f"grows about linearly with position, to {error} at position {position} "
            f"({allowed}); " + growth_words(a, amplitude)
        )
    elif a.computed_in == "float64":
        out.append(
            "computed in float64 (the angles pos·ω rounded in float64): the error grows with "
            f"position, to {error} at position {position} ({allowed}), harmless at any length"
        )
    elif f.distinct < f.shape[0]:
        out.append(
            f"computed in {a.computed_in}: pos·ω in {a.computed_in} loses positions (rows "
            f"repeat) and the error reaches {error} at position {position} ({allowed})"
        )
    else:
        # Each pair is held to its own float32 cap: one pair's frequency off the formula fails
        # it as 16-bit arithmetic would, with every row still distinct.
        out.append(
            f"error {error} at position {position}: more than float32 arithmetic makes on some "
            f"pair ({allowed}), as {a.computed_in} arithmetic or a frequency off the formula "
            "would give; no rows repeat"
        )
    return out


def _cross_check(f: Facts) -> list[str]:
    e = f.errors
    if e is None or f.accuracy is None or not f.exact:
        return []
    if e.cross_check is None or e.cross_check["agrees"]:
        return []
    return [
        "the mpmath cross-check disagrees with the float64 exact table by "
        f"{e.cross_check['largest_disagreement'] * f.unit:.1e}"
    ]


def _rotation(f: Facts) -> list[str]:
    r = f.rotation
    if r["passed"] or not r["ks"]:
        return []
    worst = max(r["by_k"], key=lambda x: x["residual"] / x["tolerance"])
    return [
        f"the shift identity R(kω)·PE[pos] = PE[pos+k] fails on the table: residual "
        f"{worst['residual'] * f.unit:.1e} at k = {worst['k']}, position "
        f"{_number(worst['position'])}, tolerance {worst['tolerance'] * f.unit:.1e}"
    ]


def _off_formula(f: Facts) -> list[str]:
    """Pairs turning at another frequency than the named schedule's (a wrong base for them)."""
    if not f.off_formula:
        return []
    conv = f.named.convention
    half = f.shape[1] // 2 - conv.shift
    worst = max(f.off_formula, key=lambda o: abs(o["fitted"] / o["named"] - 1))
    i, fitted, named = worst["pair"], worst["fitted"], worst["named"]
    base = f" (base {fitted ** (-half / i):.6g} for that pair)" if i > 0 and fitted > 0 else ""
    return [
        f"pair(s) {listed([o['pair'] for o in f.off_formula])} turn at another frequency than "
        f"the {conv.schedule} schedule with base {conv.base:g} gives: the worst, pair {i}, "
        f"turns {fitted:.6g} a position where the schedule gives {named:.6g} "
        f"({100 * (fitted / named - 1):+.3g}%){base}"
    ]


def _mirrored(f: Facts) -> list[str]:
    """A table of |c − r|: the sign of a relative position is lost."""
    if not f.mirrored:
        return []
    return [
        f"positions +r and −r cannot be told apart: {f.distinct} distinct rows of "
        f"{f.shape[0]}, each relative position but 0 written twice with the same sines. If the "
        "rows are meant for signed relative positions (a query r before or after a key), that "
        "is a fault; if the model means the distance |i − j|, it is not: the table alone "
        "cannot decide"
    ]


def _constant_on_table(f: Facts) -> list[str]:
    """The shift identity on the table as stored, when a constant was taken off."""
    r = f.rotation_on_table
    if r is None or r["passed"]:
        return []
    return [
        f"R(kω)·PE[p] = PE[p+k] holds for the table minus its constant {f.constant:.6g}, not "
        f"for the table itself (residual {r['residual'] * f.unit:.1e} at k = {r['worst_k']}, "
        f"tolerance {r['tolerance'] * f.unit:.1e}): the dot product of two rows then depends "
        "on the positions, not only on their difference. Harmless if the table feeds a layer "
        "whose bias absorbs a constant, a fault if the identity is needed on the table as "
        "stored: the table alone cannot decide"
    ]


def _angles_unknown(f: Facts) -> list[str]:
    """Fitted frequencies: float32 at larger angles or 16-bit arithmetic, not told apart."""
    a, e = f.accuracy, f.errors
    if a is None or e is None or a.grade != UNDECIDED:
        return []
    return [
        f"max error {e.max_error * f.unit:.2g} against the fitted sinusoids (one "
        f"{f.precision} rounding allows {f.expected * f.unit:.1g}): more than float32 makes at "
        "the angles row·ω, but the frequencies follow no named schedule, so the positions the "
        "rows hold, and the angles a computation rounded, are known only modulo 2π; float32 at "
        "larger angles gives this error as well as 16-bit arithmetic does, and the table alone "
        "cannot decide which (its positions and frequencies would)"
    ]


def _pairing_bug(f: Facts) -> str:
    p = f.pairing
    if p.split_frequencies is not None:
        return "split_frequencies"
    if p.off_circle:
        return "off_circle"
    return "unpaired_columns" if f.columns_sinusoidal else "not_sinusoidal"


def describe(f: Facts, verdicts: dict) -> list[Finding]:
    """The findings, most important first; a finding is a fault when the verdicts
    (numeric.table_audit.verdicts) fail the audit for what it says: a reason the structure is
    not sound, or an accuracy grade beyond float32."""

    def said(bug: str | None, sentences: list[str], fault: bool = False) -> list[Finding]:
        return [Finding(bug, s, fault) for s in sentences]

    structure = verdicts["structure"]["verdict"] not in ("sound", "undecided")
    graded = verdicts["accuracy"].get("grade") not in (*SOUND, OFF_FORMULA, UNDECIDED)
    zero_columns = (
        [f"column(s) {listed(f.zero_columns)} are all zeros (e.g. padding of an odd d)"]
        if f.zero_columns
        else []
    )
    convention = convention_sentences(f)
    if f.pairing.consistent:
        head = said(None, convention)
    else:
        head = said(_pairing_bug(f), convention[:1], structure) + said(None, convention[1:])
    return (
        head
        + said("unpartnered_columns", _leftover(f), structure)
        + said(None, _zero_rows(f))
        + said(None, _runs(f))
        + said("unexplained_rows", _unexplained(f), structure)
        + said(None, zero_columns)
        + said("positions_collapse" if collapse(f) else None, _repeats(f), collapse(f))
        + said("frequency_off_formula", _off_formula(f), structure)
        + said("mirrored_positions", _mirrored(f))
        + said(None, _stored(f))
        + said("accuracy", _accuracy(f), graded)
        + said("angles_unknown", _angles_unknown(f))
        + said(None, _cross_check(f))
        + said("shift_identity", _rotation(f), structure)
        + said("constant_added", _constant_on_table(f))
    )
