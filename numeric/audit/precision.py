"""Which number format a table's values really carry, read from the values, and how far one
rounding to it can move a value.

A binary format (float16, bfloat16, float32, float64) holds a value exactly or not. Values written
in decimal (a CSV) are read as float64 but carry only the digits written: '%.9g' identifies a
float32 exactly, '%g' keeps 6 significant digits. So a float64 table is also tested digit by
digit: the fewest significant digits D that write every sampled value, then whether those
D-digit decimals are the float32 (or 16-bit) numbers they identify, written in decimal.
"""

from __future__ import annotations

import math

import numpy as np

# Machine epsilon of each binary format; bfloat16 keeps 8 significant bits, float16 11.
EPS = {"float64": 2.0**-52, "float32": 2.0**-23, "bfloat16": 2.0**-7, "float16": 2.0**-10}
BINARY = ("float16", "bfloat16", "float32", "float64")
# Digits that identify a number of each format (its spacing is wider than theirs).
_IDENTIFYING_DIGITS = {"bfloat16": 4, "float16": 5, "float32": 9}
_SAMPLE_ROWS = 4096
_SAMPLE_VALUES = 4096
_DIGITS_SUFFIX = " significant digits"


def decimal_digits(precision: str) -> int | None:
    """D for a precision named 'D significant digits', else None."""
    if precision.endswith(_DIGITS_SUFFIX):
        return int(precision.removesuffix(_DIGITS_SUFFIX))
    return None


def digits_name(digits: int) -> str:
    """'6 significant digits' (and '1 significant digits', so that it parses back)."""
    return f"{digits}{_DIGITS_SUFFIX}"


def to_format(values: np.ndarray, name: str) -> np.ndarray:
    """values rounded to the binary format name (bfloat16: to nearest, ties to even), as float64."""
    if name == "float64":
        return values
    if name == "float16":
        with np.errstate(over="ignore"):
            return values.astype(np.float16).astype(np.float64)
    with np.errstate(over="ignore"):
        single = values.astype(np.float32)
    if name == "float32":
        return single.astype(np.float64)
    bits = single.view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32).astype(np.float64)


def fits(block: np.ndarray, name: str) -> bool:
    """Whether every value of block is exactly a number of format name."""
    return bool(np.array_equal(to_format(block.astype(np.float64), name), block))


def narrower_formats(stored: str) -> tuple[str, ...]:
    """The formats a table stored as `stored` could really carry, narrowest first."""
    return {
        "float64": ("bfloat16", "float16", "float32"),
        "float32": ("bfloat16", "float16"),
    }.get(stored, ())


def _is_d_digit(values: np.ndarray, digits: int) -> np.ndarray:
    """Per value: whether it is (the float64 nearest to) a decimal of `digits` significant digits."""
    magnitude = np.abs(values)
    exponent = np.floor(np.log10(magnitude))
    # 10^exponent in two halves, so neither overflows nor underflows at 1e±308.
    half = np.floor(exponent / 2)
    scaled = magnitude / 10.0**half / 10.0 ** (exponent - half) * 10.0 ** (digits - 1)
    # The float64 nearest to a D-digit decimal, scaled, lands within a few ulps of an integer.
    return np.abs(scaled - np.round(scaled)) <= 8 * 2.0**-52 * scaled + 1e-300


def _half_unit(values: np.ndarray, digits: int) -> np.ndarray:
    """Half a unit in the last of `digits` significant digits of each value."""
    exponent = np.floor(np.log10(np.abs(values)))
    return 0.5 * 10.0 ** (exponent + 1 - digits)


def _written_from(values: np.ndarray, digits: int, name: str) -> bool:
    """Whether every value is a number of format name written in decimal: exactly, with the
    `digits` that identify it, or as the shortest decimal that reads back as it (repr)."""
    nearest = to_format(values, name)
    close = np.abs(values - nearest) <= _half_unit(values, digits) * (1 + 1e-9)
    identified = digits >= _IDENTIFYING_DIGITS[name]
    ok = (nearest == values) | (close & identified)
    if ok.all():
        return True
    numpy_type = {"float32": np.float32, "float16": np.float16}.get(name)
    # The shortest decimals that read back as numbers of a format need, over many values,
    # all but one of the digits that identify them; fewer digits everywhere is a coarser
    # rounding (a '%g' CSV of float32 values keeps 6).
    if numpy_type is None or digits < _IDENTIFYING_DIGITS[name] - 1:
        return False
    for value in values[~ok]:
        shortest = np.format_float_scientific(numpy_type(value), unique=True)
        if float(shortest) != value:
            return False
    return True


def decimal_precision(sample: np.ndarray) -> tuple[str, str | None]:
    """(precision, cast) of float64 values that no binary format narrower than float64 holds:
    ('float64', None), a narrower format written in decimal (values to be cast to it), or
    'D significant digits'."""
    values = sample[sample != 0]
    if values.size == 0:
        return "float64", None
    digits = next((d for d in range(1, 16) if _is_d_digit(values, d).all()), None)
    if digits is None:
        return "float64", None
    for name in ("bfloat16", "float16", "float32"):
        if _written_from(values, digits, name):
            return name, name
    return digits_name(digits), None


def sample_values(rows: np.ndarray) -> np.ndarray:
    """Up to _SAMPLE_VALUES non-zero values spread over the rows given."""
    flat = rows.ravel()
    flat = flat[flat != 0]
    if flat.size <= _SAMPLE_VALUES:
        return flat
    return flat[np.linspace(0, flat.size - 1, _SAMPLE_VALUES).round().astype(np.int64)]


def rounding_bound(precision: str, amplitude: float) -> float:
    """Largest change one rounding to `precision` makes to a value of magnitude at most amplitude."""
    if not amplitude > 0 or not math.isfinite(amplitude):
        return 0.0
    digits = decimal_digits(precision)
    if digits is not None:
        # Values below 10^e carry their last digit at 10^(e - D); 10^e itself is exact.
        exponent = math.ceil(math.log10(amplitude) - 1e-12)
        return 0.5 * 10.0 ** (exponent - digits)
    # Values in [2^(e-1), 2^e) have half an ulp of eps/4 · 2^e, and 2^e itself is exact.
    _, exponent = math.frexp(amplitude)
    if amplitude == math.ldexp(0.5, exponent):
        exponent -= 1
    return math.ldexp(EPS[precision] / 4, exponent)


def unit_roundoff(precision: str) -> float:
    """Relative rounding of one operation in `precision` (decimal: half a unit of the last digit)."""
    digits = decimal_digits(precision)
    if digits is not None:
        return 0.5 * 10.0 ** (1 - digits)
    return EPS[precision] / 2
