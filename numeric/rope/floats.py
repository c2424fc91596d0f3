"""The floating-point formats RoPE code runs in, and rounding to each of them with NumPy alone.

NumPy has float64, float32 and float16 but no bfloat16, so a bfloat16 value travels as the
float32 that holds it exactly, and rounding to bfloat16 is done on the float32 bits: add
0x7FFF plus the lowest kept bit, then clear the low 16 bits (round to nearest, ties to even).
That is how torch rounds a float32 to bfloat16 (c10/util/BFloat16.h, round_to_nearest_even);
a float64 goes through float32 first, as torch converts it.

>>> float(round_to(257.0, "bfloat16")[()]), float(round_to(2049.0, "float16")[()])
(256.0, 2048.0)
>>> significand_bits("bfloat16"), unit_roundoff("bfloat16") == 2.0**-8
(8, True)
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from numeric.shown import shown

# Format name -> (significand bits including the implicit one, the NumPy dtype that holds it).
_FORMATS: dict[str, tuple[int, type]] = {
    "float64": (53, np.float64),
    "float32": (24, np.float32),
    "float16": (11, np.float16),
    "bfloat16": (8, np.float32),
}
FORMATS = tuple(_FORMATS)


def check_format(value: object, name: str = "format") -> str:
    """Return value if it names a format of FORMATS, else raise ValueError naming the choices."""
    if not isinstance(value, str) or value not in _FORMATS:
        raise ValueError(f"{name} must be one of {', '.join(FORMATS)}, got {shown(value)}")
    return value


def significand_bits(fmt: str) -> int:
    """Bits of precision p of the format, the implicit leading bit included (bfloat16: 8)."""
    return _FORMATS[check_format(fmt)][0]


def unit_roundoff(fmt: str) -> float:
    """u = 2^(−p): a value rounded to nearest in the format is within relative u of the exact one."""
    return 2.0 ** -significand_bits(fmt)


def storage_dtype(fmt: str) -> np.dtype:
    """The NumPy dtype that holds values of the format (float32 for bfloat16)."""
    return np.dtype(_FORMATS[check_format(fmt)][1])


def _bfloat16_bits(x32: np.ndarray) -> np.ndarray:
    """float32 array -> float32 array of the bfloat16 values nearest (ties to even)."""
    bits = x32.view(np.uint32).astype(np.uint64)
    kept = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    out = (kept & 0xFFFFFFFF).astype(np.uint32).view(np.float32)
    # A NaN whose payload sits in the low bits would round to an infinity: keep it a NaN.
    return np.where(np.isnan(x32), x32, out)


def round_to(x: ArrayLike, fmt: str) -> np.ndarray:
    """x rounded to nearest (ties to even) in the format fmt, as an array of storage_dtype(fmt).

    fmt: "float64", "float32", "float16" or "bfloat16". Values past the format's range become
    ±inf, as a cast in torch makes them.
    """
    fmt = check_format(fmt)
    values = np.asarray(x)
    if fmt == "bfloat16":
        return _bfloat16_bits(np.asarray(values, dtype=np.float32))
    with np.errstate(over="ignore"):
        return np.asarray(values, dtype=storage_dtype(fmt))
