"""Which floating-point format a table's values live in, and how far one rounding to it can move a value."""

from __future__ import annotations

import math

import numpy as np

# Machine epsilon of each format; bfloat16 keeps 8 significant bits, float16 11.
EPS = {"float64": 2.0**-52, "float32": 2.0**-23, "bfloat16": 2.0**-7, "float16": 2.0**-10}
_SAMPLE_ROWS = 4096
_CHUNK_ROWS = 8192


def _fits(block: np.ndarray, name: str) -> bool:
    """Whether every value of block is exactly a number of format name."""
    with np.errstate(over="ignore", invalid="ignore"):
        if name == "float16":
            return bool(np.all(block.astype(np.float16).astype(block.dtype) == block))
        as32 = block.astype(np.float32)
        if not np.all(as32.astype(block.dtype) == block):
            return False
        if name == "float32":
            return True
        return bool(np.all((as32.view(np.uint32) & np.uint32(0xFFFF)) == 0))


def detect_precision(table: np.ndarray) -> str:
    """The narrowest of float16, bfloat16, float32 and float64 that holds every value of table exactly."""
    stored = table.dtype.name
    # bfloat16 first: its 8 significant bits usually fit float16's 11 too, while a genuine
    # float16 table almost never has only 8.
    narrower = {"float16": [], "float32": ["bfloat16", "float16"]}.get(
        stored, ["bfloat16", "float16", "float32"]
    )
    step = max(1, table.shape[0] // _SAMPLE_ROWS)
    sample = np.asarray(table[::step][:_SAMPLE_ROWS])
    for name in narrower:
        if _fits(sample, name) and all(
            _fits(np.asarray(table[a : a + _CHUNK_ROWS]), name)
            for a in range(0, table.shape[0], _CHUNK_ROWS)
        ):
            return name
    return stored


def rounding_bound(precision: str, amplitude: float) -> float:
    """Largest change one rounding to `precision` makes to a value of magnitude at most amplitude."""
    if amplitude <= 0:
        return 0.0
    # Values in [2^(e-1), 2^e) have half an ulp of eps/4 · 2^e, and 2^e itself is exact.
    return EPS[precision] / 4 * 2.0 ** math.ceil(math.log2(amplitude))
