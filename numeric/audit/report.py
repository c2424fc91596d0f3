"""What both audits' reports are made of: a line wrapped to the terminal, a bulleted list of
findings, and the result as JSON-ready Python values.

>>> line("accuracy: rounded once, max error 3e-08 at position 25", 30)
['accuracy: rounded once, max', '  error 3e-08 at position 25']
>>> bullets(("a finding",), 30)
['  - a finding']
>>> finite_json({"bound": float("inf"), "rows": (1, 2)})
{'bound': None, 'rows': [1, 2]}
"""

from __future__ import annotations

import math
import textwrap

import numpy as np

WIDTH = 100


def line(text: str, width: int = WIDTH) -> list[str]:
    """text wrapped to width, the lines after the first indented."""
    return textwrap.wrap(text, width, subsequent_indent="  ")


def bullets(items: list[str] | tuple[str, ...], width: int = WIDTH) -> list[str]:
    """Each item as a bullet wrapped to width."""
    lines: list[str] = []
    for item in items:
        lines += textwrap.wrap(item, width, initial_indent="  - ", subsequent_indent="    ")
    return lines


def plain(value: object) -> object:
    """value with NumPy scalars and arrays turned into Python numbers and lists, recursively."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return [plain(v) for v in value.tolist()]
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


def finite_json(value: object) -> object:
    """plain(value) with every infinite or NaN float as None, so JSON stays standard."""
    value = plain(value)
    if isinstance(value, dict):
        return {k: finite_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [finite_json(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
