"""CPU seconds, for the tests that check a call keeps its time budget.

The machine is shared: under load a call's wall-clock time stretches with everything else's,
and a bound on it fails for no fault of the call. CPU seconds (this process's, every thread,
plus its children's once reaped, where a budget's forked worker runs) do not stretch, and a
call that ignored its budget would still spend them far past the bound.
"""

from __future__ import annotations

import resource
import time


def cpu_seconds() -> float:
    """This process's CPU seconds so far, its reaped children's included."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime
