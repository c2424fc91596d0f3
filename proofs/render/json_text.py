"""JSON text of what the commands print: the one place NumPy values become plain JSON.

Results carry NumPy scalars and arrays (a twin's `passed` computed as `np.all(...)` is a
`numpy.bool_`, which `json` refuses). Every command that prints JSON goes through `dumps`, so a
new field of a NumPy type cannot crash one command's --json and not another's.
"""

from __future__ import annotations

import json
import math
from typing import Any


def plain(value: Any) -> Any:
    """value with NumPy scalars and arrays as Python numbers and lists, and every non-finite
    float spelled as a string (JSON has no NaN or infinity), recursively through dicts, lists
    and tuples.

    >>> import numpy as np
    >>> plain({"passed": np.bool_(True), "rows": np.arange(2), "worst": np.float32(0.5)})
    {'passed': True, 'rows': [0, 1], 'worst': 0.5}
    >>> plain([float("nan"), -math.inf, (1, "a")])
    ['nan', '-inf', [1, 'a']]
    """
    if isinstance(value, dict):
        return {str(k) if not isinstance(k, str) else k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    # NumPy without importing it (--help and the notes stay free of it): an array has tolist,
    # a NumPy scalar has item; a Python bool, int, float or str has neither.
    if hasattr(value, "tolist") and not isinstance(value, bool | int | float | str):
        return plain(value.tolist())
    if hasattr(value, "item") and not isinstance(value, bool | int | float | str):
        return plain(value.item())
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


def dumps(value: Any, *, ensure_ascii: bool = False) -> str:
    """value as indented JSON text, through plain; never NaN or infinity, always valid JSON.

    >>> import numpy as np
    >>> print(dumps({"passed": np.bool_(False)}))
    {
      "passed": false
    }
    """
    return json.dumps(plain(value), indent=2, ensure_ascii=ensure_ascii, allow_nan=False)
