"""Input checks shared by the numeric functions and the CLI commands.

Each check takes the name to blame, so the library can say ``d_model`` and the CLI ``--d-model``.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from numbers import Integral, Real

import numpy as np

DTYPES = (np.dtype(np.float64), np.dtype(np.float32), np.dtype(np.float16))
LAYOUTS = ("interleaved", "concatenated")
# Frequency schedules: the paper's base^(-2i/d_model), tensor2tensor's base^(-i/(d_model/2 - 1)).
SCHEDULES = ("paper", "tensor2tensor")
# The angle reduction in numeric.tables is exact only for |position| below this bound.
MAX_POSITION = 2**31


def _is_int(value: object) -> bool:
    return isinstance(value, Integral) and not isinstance(value, bool)


def _is_real(value: object) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool)


def d_model(value: object, name: str = "d_model") -> int:
    """Return value as an int if it is a positive even integer, else raise."""
    if not _is_int(value) or value <= 0 or value % 2:
        raise ValueError(f"{name} must be a positive even integer, got {value!r}")
    return int(value)


def max_len(value: object, name: str = "max_len") -> int:
    """Return value as an int if it is a non-negative integer below MAX_POSITION, else raise."""
    if not _is_int(value) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
    if value > MAX_POSITION:
        raise ValueError(f"{name} must be at most 2**31 = {MAX_POSITION}, got {value!r}")
    return int(value)


def base(value: object, name: str = "base") -> float:
    """Return value as a float if it is a finite real number greater than 1, else raise."""
    if not _is_real(value) or not math.isfinite(value) or value <= 1:
        raise ValueError(f"{name} must be a finite number greater than 1, got {value!r}")
    return float(value)


def finite(value: object, name: str) -> float:
    """Return value as a float if it is a finite real number, else raise."""
    if not _is_real(value) or not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    return float(value)


def integer(value: object, name: str) -> int:
    """Return value as an int if it is an integer (bool excluded), else raise."""
    if not _is_int(value):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    return int(value)


def dtype(value: object, name: str = "dtype") -> np.dtype:
    """Return value as a NumPy dtype if it is float64, float32 or float16, else raise."""
    try:
        result = np.dtype(value)
    except TypeError:
        result = None
    if result not in DTYPES:
        raise TypeError(f"{name} must be float64, float32 or float16, got {value!r}")
    return result


def layout(value: object, name: str = "layout") -> str:
    """Return value if it is 'interleaved' or 'concatenated', else raise."""
    if value not in LAYOUTS:
        raise ValueError(f"{name} must be 'interleaved' or 'concatenated', got {value!r}")
    return str(value)


def schedule(value: object, name: str = "schedule") -> str:
    """Return value if it is 'paper' or 'tensor2tensor', else raise."""
    if value not in SCHEDULES:
        raise ValueError(f"{name} must be 'paper' or 'tensor2tensor', got {value!r}")
    return str(value)


def indices(values: Iterable[object], limit: int, name: str) -> tuple[int, ...]:
    """Return values as ints if each is an integer in [0, limit), else raise."""
    result = tuple(values)
    for v in result:
        if not _is_int(v) or not 0 <= v < limit:
            raise ValueError(f"{name} must be integers in [0, {limit}), got {v!r}")
    return tuple(int(v) for v in result)


def comma_integers(text: str, name: str) -> tuple[int, ...]:
    """Parse a comma-separated list of integers such as '0,3,7', else raise."""
    try:
        values = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise ValueError(
            f"{name} must be comma-separated integers such as 0,3,7, got {text!r}"
        ) from None
    return values


def available_memory() -> int:
    """Bytes of memory the system can still hand out (MemAvailable on Linux)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")


def fits_in_memory(nbytes: int, what: str, hint: str = "ask for a smaller table") -> None:
    """Raise, before anything is allocated, if nbytes for `what` exceed half the available memory."""
    # Half, because the checks need temporaries beside the table itself.
    limit = available_memory() // 2
    if nbytes > limit:
        raise ValueError(
            f"{what} needs {nbytes / 2**30:.1f} GiB, more than the "
            f"{limit / 2**30:.1f} GiB this machine can spare; {hint}"
        )
