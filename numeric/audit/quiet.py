"""An audit runs with NumPy's floating-point warnings off: what an overflow, an underflow or a
0/0 in its arithmetic means about the input is said as a finding (or an input error), never
as a RuntimeWarning printed to the user.

Every comparison an audit makes treats NaN as failing (a NaN error is never within a bound:
`not error <= bound`), so silencing the warning never lets a fault pass.

>>> import numpy as np
>>> float(quiet(np.divide)(1.0, 0.0))
inf
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import numpy as np

P = ParamSpec("P")
R = TypeVar("R")


def quiet(function: Callable[P, R]) -> Callable[P, R]:
    """function, run with every NumPy floating-point warning off (module doc)."""

    @functools.wraps(function)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with np.errstate(all="ignore"):
            return function(*args, **kwargs)

    return run
