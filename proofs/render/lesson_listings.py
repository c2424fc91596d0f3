"""What the module's code prints, computed: the output shown under each {listing} of the lesson.

The code a listing shows is the module's, verbatim, in the prose; its output here comes from
the module's own sinusoidal_pe (numeric.module.module_sinusoidal_pe, copied verbatim) and the
same NumPy calls, printed with NumPy's default print options, as the module's print() does.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import numpy as np

from numeric.module import module_sinusoidal_pe

# NumPy's default print options: what print() shows in a fresh interpreter.
_DEFAULT_PRINT = {"precision": 8, "suppress": False, "linewidth": 75, "threshold": 1000}


def _printed(*lines: tuple[object, ...]) -> str:
    """What print(*line) writes, for each line, with NumPy's default print options."""
    out = io.StringIO()
    with np.printoptions(**_DEFAULT_PRINT):
        for line in lines:
            print(*line, file=out)
    return out.getvalue().rstrip("\n")


def sinusoidal_pe_output() -> str:
    """The module's first listing: rows 0, 1 and 10 of sinusoidal_pe(50, 8).

    >>> print(sinusoidal_pe_output().splitlines()[0])
    [0. 1. 0. 1. 0. 1. 0. 1.]
    """
    pe = module_sinusoidal_pe(50, 8)
    return _printed((pe[0],), (pe[1],), (pe[10],))


def unique_output() -> str:
    """The module's uniqueness check on the same table.

    >>> unique_output()
    '50 unique rows out of 50'
    """
    pe = module_sinusoidal_pe(50, 8)
    return _printed((len(np.unique(pe, axis=0)), "unique rows out of", pe.shape[0]))


def rotation_output() -> str:
    """The module's rotation check: R(5) on dims 0 and 1 at positions 0, 3, 7, 12 and 20.

    >>> rotation_output().splitlines()[0].endswith("True")
    True
    """
    pe = module_sinusoidal_pe(50, 8)
    k = 5
    freq = 1 / (10000 ** (0 / 8))
    theta = k * freq
    rot = np.array([[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]])
    lines = []
    for pos in [0, 3, 7, 12, 20]:
        actual = pe[pos + k, 0:2]
        predicted = rot @ pe[pos, 0:2]
        lines.append((pos, actual, predicted, np.allclose(actual, predicted)))
    return _printed(*lines)


# The listings the prose may name: {listing} name.
OUTPUTS: dict[str, Callable[[], str]] = {
    "sinusoidal_pe": sinusoidal_pe_output,
    "unique": unique_output,
    "rotation": rotation_output,
}
