"""The audit's findings: sentences a person reads, built from what the fit and the measurement found."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from numeric.table_audit.convention import Schedule
from numeric.table_audit.measure import ErrorMeasure
from numeric.table_audit.pairing import Pairing
from numeric.table_audit.precision import EPS

_LAYOUT_WORDS = {
    "interleaved": "interleaved (sin, cos) pairs",
    "concatenated": "concatenated [sin | cos]",
    "concatenated_cos_first": "concatenated [cos | sin]",
}
_SCALE_WORDS = {
    "d^-1/2": "scaled by d^-1/2 (x-transformers' ScaledSinusoidalEmbedding starts there)",
    "sqrt(2/d)": "scaled by sqrt(2/d) (MLX's SinusoidalPositionalEncoding default)",
}
_LISTED = 5  # rows or columns named one by one before "and N more"


@dataclass(frozen=True)
class Facts:
    """Everything describe() needs; see numeric.table_audit.identify.audit for where each comes from."""

    shape: tuple[int, int]
    dtype: str
    precision: str
    pairing: Pairing
    schedule: Schedule
    offset: int | None
    scale: float | None
    scale_name: str | None
    same_amplitude: bool
    sinusoidal: bool
    errors: ErrorMeasure | None
    expected: float
    exact: bool
    zero_rows: tuple[int, ...]
    zero_columns: tuple[int, ...]
    distinct: int
    identical: tuple[int, int] | None
    rotation: dict


def _listed(items: tuple[int, ...]) -> str:
    shown = ", ".join(str(i) for i in items[:_LISTED])
    return shown + (f" and {len(items) - _LISTED} more" if len(items) > _LISTED else "")


def _who(
    layout: str | None, schedule: str | None, scale_name: str | None, offset: int | None
) -> str:
    """Which well-known implementations share this convention, as far as this module knows."""
    if layout == "interleaved" and schedule == "paper":
        if offset == 1:
            return "the paper's formula with positions from 1, as DETR's sine embedding counts them"
        return "the paper's convention (and the course module's)"
    if layout == "concatenated" and schedule == "tensor2tensor":
        if scale_name == "sqrt(2/d)":
            return "MLX's SinusoidalPositionalEncoding, not the paper's"
        return "this is fairseq's and Whisper's convention, not the paper's"
    if layout == "concatenated_cos_first" and scale_name == "sqrt(2/d)":
        return "MLX's SinusoidalPositionalEncoding with cos_first=True, not the paper's"
    if layout == "concatenated" and scale_name == "d^-1/2":
        return "x-transformers' ScaledSinusoidalEmbedding, not the paper's"
    return "not the paper's convention"


def _exponents(omega: np.ndarray, sigma: np.ndarray, d: int) -> str:
    """ω_i = 10000^(-(a·i + c)/d) fitted to the well-read omega (relative error below 1e-3)."""
    i = np.arange(len(omega))
    good = (omega > 0) & (sigma < 1e-3 * omega)
    if good.sum() < 2:
        return "unreadable frequencies"
    slope, intercept = np.polyfit(i[good], np.log(omega[good]), 1)
    a = -slope * d / math.log(10000)
    c = -intercept * d / math.log(10000)
    a_text = f"{a:.2f}".rstrip("0").rstrip(".")
    c_text = f"{c:.2f}".rstrip("0").rstrip(".")
    if c_text in ("0", "-0"):
        return f"10000^(−{a_text}i/d)"
    return f"10000^(−({a_text}i+{c_text})/d)"


def _precision_guess(error: float, position: int, omega_max: float, amplitude: float) -> str:
    """The format whose rounding of the angle pos·ω explains this error best."""
    relative = error / max(amplitude * max(position, 1) * omega_max, 1e-300)
    names = ("float16", "bfloat16", "float32", "float64")
    return min(names, key=lambda k: abs(math.log(relative / EPS[k])))


def _convention(f: Facts) -> list[str]:
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
        elif f.sinusoidal:
            out.append("every column is a sinusoid, but no two columns form a (sin, cos) pair")
        else:
            out.append(
                "the columns are not sinusoids of the position: this is not a sinusoidal encoding"
            )
        return out
    words = _LAYOUT_WORDS.get(p.layout, "(sin, cos) pairs in no standard layout")
    s = f.schedule
    if s.schedule in ("paper", "tensor2tensor"):
        head = f"{words} with the {s.schedule} schedule, base {s.base:g}"
        out.append(f"{head}: {_who(p.layout, s.schedule, f.scale_name, f.offset)}")
        if s.alternative:
            out.append(f"at this d the same frequencies are also the {s.alternative}")
    elif s.schedule == "custom":
        extra = (
            f" (geometric from ω_0 = 1, but base {s.geometric_base:.6g} is not round)"
            if s.geometric_base
            else ""
        )
        out.append(f"{words} with a custom frequency schedule{extra}")
    else:
        out.append(f"{words}; one pair only, so the schedule and base are not determined")
    if f.scale_name in _SCALE_WORDS:
        out.append(_SCALE_WORDS[f.scale_name])
    elif f.scale_name is None and f.scale is not None:
        out.append(f"every value is scaled by {f.scale:.6g}")
    if not f.same_amplitude:
        out.append("the pairs do not all have the same amplitude")
    if f.offset is None:
        out.append(
            "the phases fit no integer position offset: positions may be scaled or fractional"
        )
    elif f.offset != 0:
        out.append(f"row r holds position r + {f.offset}: positions start at {f.offset}")
    if p.leftover:
        out.append(f"column(s) {_listed(p.leftover)} have no partner and are not measured")
    return out


def _rows(f: Facts) -> list[str]:
    out = []
    n = f.shape[0]
    zero = f.zero_rows
    # A sinusoidal row is never all zeros (cos 0 = 1): such a row was zeroed on purpose.
    if len(zero) == 1 and zero[0] < n - 1 and f.pairing.consistent:
        r = zero[0]
        out.append(
            f"row {r} is all zeros: a padding row (fairseq-style, padding_idx = {r}; "
            f"tokens start at position {r + 1})"
        )
    elif len(zero) == 1:
        out.append(f"row {zero[0]} is all zeros")
    elif zero:
        out.append(f"rows {_listed(zero)} are all zeros")
    if f.zero_columns:
        out.append(f"column(s) {_listed(f.zero_columns)} are all zeros (e.g. padding of an odd d)")
    lost = n - f.distinct - max(len(zero) - 1, 0)
    if f.identical is not None:
        a, b = f.identical
        out.append(f"rows {a} and {b} are identical; {lost} rows repeat an earlier row")
    elif lost > 0:
        out.append(f"{lost} rows repeat an earlier row")
    return out


def _accuracy(f: Facts) -> list[str]:
    out = []
    if f.precision != f.dtype:
        out.append(f"stored as {f.dtype}, but every value is a {f.precision} number")
    e = f.errors
    if e is None:
        return out
    position = e.worst_row + (f.offset or 0)
    if f.exact and e.max_error > f.expected:
        omega_max = float(np.max(f.pairing.pairs.omega))
        guess = _precision_guess(e.max_error, position, omega_max, f.scale or 1.0)
        valid = ~np.isnan(e.per_row)
        early = e.per_row[: min(100, len(e.per_row))]
        early_max = float(np.nanmax(early)) if np.any(~np.isnan(early)) else float("nan")
        grows = early_max < e.max_error / 4 and valid.sum() > 100
        text = (
            f"max error {e.max_error:.2g} at position {position}, beyond the {f.expected:.1g} "
            f"one {f.precision} rounding allows"
        )
        if grows:
            text += (
                f"; it grows with position ({early_max:.1g} below row 100), so the angles pos·ω "
                f"were rounded: consistent with the formula computed in {guess}"
            )
        out.append(text)
    elif not f.exact:
        out.append(
            f"max error {e.max_error:.2g} at position {position}, against the fitted sinusoids "
            "(no named convention to measure against)"
        )
    else:
        out.append(
            f"max error {e.max_error:.2g} at position {position}: within one {f.precision} "
            f"rounding ({f.expected:.1g})"
        )
    if e.cross_check is not None and not e.cross_check["agrees"]:
        out.append(
            "the mpmath cross-check disagrees with the float64 exact table by "
            f"{e.cross_check['largest_disagreement']:.1e}"
        )
    return out


def _rotation(f: Facts) -> list[str]:
    r = f.rotation
    if r["passed"] or not r["ks"]:
        return []
    worst = max(r["by_k"], key=lambda x: x["residual"] / x["tolerance"])
    return [
        f"the shift identity R(kω)·PE[pos] = PE[pos+k] fails on the table: residual "
        f"{worst['residual']:.1e} at k = {worst['k']}, tolerance {worst['tolerance']:.1e}"
    ]


def describe(f: Facts) -> list[str]:
    """The findings, most important first."""
    return _convention(f) + _rows(f) + _accuracy(f) + _rotation(f)
