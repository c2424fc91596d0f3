"""Run independent per-theorem work in parallel, one process per core, results in order."""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def default_jobs() -> int:
    """The number of cores this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _ignore_sigint() -> None:
    # Ctrl-C goes to the whole process group: let only the parent handle it, once.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def parallel_map(func: Callable[[T], R], tasks: Sequence[T], *, jobs: int = 0) -> Iterator[R]:
    """func(task) for each task, in order, as each is ready.

    func must be a module-level function (it is sent to the workers by name). jobs: worker
    processes (0: one per core; 1: none, everything runs in this process).
    """
    jobs = min(jobs or default_jobs(), len(tasks))
    if jobs <= 1:
        yield from map(func, tasks)
        return
    # fork: the workers inherit the imported modules instead of importing SymPy again.
    with multiprocessing.get_context("fork").Pool(jobs, initializer=_ignore_sigint) as pool:
        yield from pool.imap(func, tasks)
