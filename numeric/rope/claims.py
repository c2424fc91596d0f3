"""The RoPE numbers issue 24 publishes, recomputed in float64 and in mpmath at 50 digits.

Each Claim carries the value as published (or "" where the issue prints none), the float64
value from the NumPy maps (each scaling method's file, papers, decay, floats), the value from
the independent mpmath formulas (numeric.rope.exact, each method's exact reference) or exact
integer arithmetic, and whether
the published value is the exact value rounded to the digits printed. The theorem modules
quote these; their certified versions are computed in proofs/.

>>> by_name = {c.name: c for c in rope_claims()}
>>> by_name["yarn_code_pair_38"].published, by_name["yarn_code_pair_38"].agrees
('1.4800e-3', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from functools import cache

import mpmath
import numpy as np

from numeric.result_table import Table
from numeric.rope import exact
from numeric.rope.decay import decay_average
from numeric.rope.floats import round_to, significand_bits
from numeric.rope.methods import scaling_methods
from numeric.rope.scaling import default_frequencies

# The settings the issue states for RoFormer's decay (each scaling method's are in its file).
DECAY = {"dim": 128, "base": 10000.0}


@dataclass(frozen=True)
class Claim:
    """name: an identifier; statement: what the number is; published: the issue's value as
    printed ("" if none); float64: from the NumPy code; float32: as transformers computes it
    in float32, where that applies; exact: mpmath at 50 digits (or an exact integer), as a
    string; agrees: whether the published value is `exact` rounded to the printed digits
    (None when nothing is published)."""

    name: str
    statement: str
    published: str
    float64: float
    exact: str
    float32: float | None = None
    agrees: bool | None = None


def _digits(value: mpmath.mpf) -> str:
    return mpmath.nstr(value, exact.DPS, strip_zeros=False)


def _agrees(published: str, value: mpmath.mpf | int) -> bool:
    """Whether the published decimal is value rounded to the significant digits printed; a
    published 0 ("equal") agrees with a value below 10^−(DPS − 5), the working precision's noise."""
    printed = Decimal(published)
    if printed == 0:
        return abs(value) < mpmath.mpf(10) ** -(exact.DPS - 5)
    digits = len(printed.as_tuple().digits)
    target = (
        Decimal(mpmath.nstr(value, 60, strip_zeros=False))
        if not isinstance(value, int)
        else Decimal(value)
    )
    if target == 0:
        return printed == 0
    quantum = Decimal(1).scaleb(target.adjusted() - digits + 1)
    return target.quantize(quantum, rounding=ROUND_HALF_EVEN) == printed


def claim(name: str, statement: str, published: str, f64: float, value, f32=None) -> Claim:
    text = str(value) if isinstance(value, int) else _digits(value)
    agrees = None if not published else _agrees(published, value)
    return Claim(
        name, statement, published, float(f64), text, None if f32 is None else float(f32), agrees
    )


def round_integer(n: int, bits: int) -> int:
    """n rounded to `bits` significant bits, ties to even, in exact integer arithmetic."""
    size = abs(n).bit_length()
    if size <= bits:
        return n
    shift = size - bits
    q, r = divmod(abs(n), 1 << shift)
    half = 1 << (shift - 1)
    if r > half or (r == half and q % 2):
        q += 1
    return (q << shift) * (1 if n >= 0 else -1)


def _decay_claims() -> list[Claim]:
    d, b = DECAY["dim"], DECAY["base"]
    f64 = decay_average(np.arange(2001), d, b)
    first64 = int(np.nonzero(np.diff(f64) > 0)[0][0])
    values = [exact.decay_average(r, d, b) for r in range(20)]
    first = next(r for r in range(19) if values[r + 1] > values[r])
    return [
        claim(
            "decay_f_1000",
            "RoFormer f(1000) = (2/d)·Σ|S_j(1000)|, d = 128, b = 10⁴",
            "4.471",
            f64[1000],
            exact.decay_average(1000, d, b),
        ),
        claim(
            "decay_f_2000",
            "RoFormer f(2000), d = 128, b = 10⁴",
            "5.047",
            f64[2000],
            exact.decay_average(2000, d, b),
        ),
        claim("decay_f_18", "RoFormer f(18)", "", f64[18], values[18]),
        claim("decay_f_19", "RoFormer f(19)", "", f64[19], values[19]),
        claim("decay_first_increase", "first integer r with f(r + 1) > f(r)", "18", first64, first),
    ]


def _float_claims() -> list[Claim]:
    rows = [
        ("bf16_257", "fl_bf16(257)", 257, "bfloat16", "256"),
        ("fp16_2049", "fl_fp16(2049)", 2049, "float16", "2048"),
        ("fp16_10002", "fl_fp16(10002)", 10002, "float16", "10000"),
        (
            "fp32_2_24_plus_1",
            "fl_fp32(2²⁴ + 1), the first integer fp32 does not hold",
            2**24 + 1,
            "float32",
            "16777216",
        ),
    ]
    claims = [
        claim(
            name,
            text,
            published,
            float(round_to(float(n), fmt)),
            round_integer(n, significand_bits(fmt)),
        )
        for name, text, n, fmt, published in rows
    ]
    # bf16 inv_freq: the largest relative rounding error over the pairs, against 2^-9 (issue)
    # and the unit roundoff 2^-8; float32 first, as transformers computes inv_freq.
    thetas = default_frequencies(128, 10000.0, arithmetic="float32")
    rounded = round_to(thetas, "bfloat16").astype(np.float64)
    with mpmath.workdps(exact.DPS + 10):
        errors = [
            abs(mpmath.mpf(float(rounded[i])) / exact.theta(i, 128, 10000.0) - 1) for i in range(64)
        ]
        worst = max(errors)
        scaled = worst * 2**9
    exact64 = np.array([float(exact.theta(i, 128, 10000.0)) for i in range(64)])
    worst64 = float(np.max(np.abs(rounded / exact64 - 1)))
    claims.append(
        claim(
            "bf16_inv_freq_relative_error_times_2_9",
            "max_i |fl_bf16(θ_i) − θ_i| / θ_i · 2⁹ at d = 128, b = 10⁴ (the stated bound p·θ_i·2^−9 needs <= 1)",
            "",
            worst64 * 2**9,
            scaled,
        )
    )
    return claims


@cache
def rope_claims() -> tuple[Claim, ...]:
    """Every number: each scaling method's (ScalingMethod.claims, in the registry's order: YaRN,
    Llama 3), then RoFormer's decay and floating point (a few seconds the first time, then
    cached)."""
    from_methods = [c for method in scaling_methods() for c in method.claims()]
    return tuple(from_methods + _decay_claims() + _float_claims())


def claims_table() -> Table:
    """The claims as a Table: published, float64, float32 (where transformers computes it) and mpmath."""
    rows = tuple(
        (
            c.name,
            c.published,
            c.float64,
            c.float32,
            mpmath.nstr(mpmath.mpf(c.exact), 12) if "." in c.exact or "e" in c.exact else c.exact,
            c.agrees,
        )
        for c in rope_claims()
    )
    checked = [c.agrees for c in rope_claims() if c.agrees is not None]
    return Table(
        title="RoPE numbers stated in pe-proofs issue 24, recomputed",
        columns=(
            "claim",
            "published",
            "float64",
            "float32 (transformers)",
            "mpmath, 50 digits (12 shown)",
            "published = exact, rounded",
        ),
        rows=rows,
        formats=("", "", ".10g", ".8g", "", ""),
        note="mpmath values from numeric.rope.exact, independent of the NumPy maps; exact integers for the float facts",
        passed=all(checked),
    )
