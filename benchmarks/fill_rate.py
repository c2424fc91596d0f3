"""The write-bandwidth yardstick of a table: filling a fresh array, and timing cases side by side."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np


def fresh_fill(max_len: int, d_model: int, dtype: type) -> np.ndarray:
    """A new array filled with one value: the memory writes any table needs, page faults included."""
    out = np.empty((max_len, d_model), dtype=dtype)
    out.fill(0.5)
    return out


def round_times(
    cases: dict[str, Callable[[], object]], nbytes: int, repeat: int
) -> dict[str, list[float]]:
    """Each case's times over `repeat` rounds; a round runs every case once, in turn.

    Before each call nbytes of fresh memory are touched and freed: this VM hands freed memory
    back to the host lazily, and touching it first makes the timed call's page faults cost what
    they cost on an ordinary machine.
    """
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(repeat):
        for name, make in cases.items():
            warm = np.ones(nbytes // 8)
            del warm
            start = time.perf_counter()
            result = make()
            times[name].append(time.perf_counter() - start)
            del result
    return times
