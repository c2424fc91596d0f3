"""Time budgets: a call that runs past its budget stops and says in which stage it was.

SymPy cannot be interrupted from another thread, so a budget is enforced where the work runs:
in the main thread by SIGALRM (signal.setitimer), whose handler raises TimedOut inside whatever
SymPy is doing; elsewhere (a worker thread) the work runs in a forked child process that is
killed when the budget runs out. TimedOut derives from BaseException, so SymPy's own
``except Exception`` blocks cannot swallow it.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

DEFAULT_TIMEOUT = 60.0
# A budget above this (about 11.6 days, inf included) is held at it: SIGALRM's timer cannot
# hold 1e10 s, and no run is meant to last longer.
MAX_TIMEOUT = 1e6
# Seconds between repeated alarms once a budget has run out, until the work gives up.
_REPEAT = 0.5

T = TypeVar("T")


class TimedOut(BaseException):
    """The budget ran out; stage names what was running."""

    def __init__(self, stage: str) -> None:
        super().__init__(stage)
        self.stage = stage


class _State(threading.local):
    """Per thread: the budgets in force (innermost last) as deadlines, and the stages run."""

    def __init__(self) -> None:
        self.deadlines: list[float] = []
        self.stages: list[str] = ["setup"]


_state = _State()


@contextmanager
def stage(name: str) -> Iterator[None]:
    """Name the stage running inside the block, for the "timed out in <stage>" message."""
    # Truncate to the depth found, not pop: when a timeout is raised inside this context
    # manager's exit, the generator's finally runs only when it is collected, after
    # run_with_budget has already cut the stages back; a pop then would remove an outer stage.
    depth = len(_state.stages)
    _state.stages.append(name)
    try:
        yield
    finally:
        del _state.stages[depth:]


def current_stage() -> str:
    """The innermost stage running ("setup" when none is)."""
    return _state.stages[-1] if _state.stages else "setup"


def remaining() -> float | None:
    """Seconds left in the innermost budget, or None when no budget is in force."""
    return _state.deadlines[-1] - time.monotonic() if _state.deadlines else None


def deadline() -> float | None:
    """The innermost budget's time.monotonic() deadline, or None."""
    return _state.deadlines[-1] if _state.deadlines else None


def _on_alarm(signum: int, frame: object) -> None:
    raise TimedOut(current_stage())


def _arm() -> None:
    left = remaining()
    if left is None:
        signal.setitimer(signal.ITIMER_REAL, 0)
    else:
        # A deadline already passed fires at once (setitimer(0) would disarm instead). The alarm
        # then repeats: a bare `except:` inside SymPy can swallow one TimedOut, not every one.
        signal.setitimer(signal.ITIMER_REAL, max(left, 1e-4), _REPEAT)


def check_timeout(timeout: object) -> float | None:
    """timeout as seconds (at most MAX_TIMEOUT), or None; ValueError for anything else."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not timeout > 0:
        raise ValueError(f"timeout must be a positive number of seconds or None, got {timeout!r}")
    return min(float(timeout), MAX_TIMEOUT)


def run_with_budget(
    work: Callable[[], T], timeout: float | None, on_timeout: Callable[[str], T]
) -> T:
    """work() within timeout seconds (None: no limit; above MAX_TIMEOUT, MAX_TIMEOUT); past it,
    on_timeout(stage) instead.

    An enclosing budget that ends sooner still applies. In a thread other than the main one the
    work runs in a forked child process, so its result must be picklable.
    """
    timeout = check_timeout(timeout)
    deadlines = _state.deadlines
    if timeout is None and not deadlines:
        return work()
    if threading.current_thread() is not threading.main_thread():
        return _in_child(work, timeout if timeout is not None else remaining(), on_timeout)
    end = time.monotonic() + timeout if timeout is not None else deadlines[-1]
    if deadlines:
        end = min(end, deadlines[-1])
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    deadlines.append(end)
    depth = len(_state.stages)
    try:
        _arm()
        return work()
    except TimedOut as exc:
        signal.setitimer(signal.ITIMER_REAL, 0)  # no repeat while the work is given up
        del _state.stages[depth:]
        return on_timeout(exc.stage)
    finally:
        # Disarm before popping, so the alarm cannot fire between the two.
        signal.setitimer(signal.ITIMER_REAL, 0)
        deadlines.pop()
        signal.signal(signal.SIGALRM, previous)
        if deadlines:
            _arm()


def run_stoppable(work: Callable[[], T], deadline: float) -> tuple[bool, T | None]:
    """work() in a forked child process that is killed at deadline (a time.monotonic() instant):
    (True, its result), or (False, None) when the deadline came first.

    For work that may sit for minutes in C code, where SIGALRM cannot interrupt it (one flint
    zeta call at 16384 bits). The result must be picklable; the child's exception is raised here.

    >>> run_stoppable(lambda: 6 * 7, time.monotonic() + 30)
    (True, 42)
    """
    left = max(deadline - time.monotonic(), 0.0)
    return _in_child(lambda: (True, work()), left, lambda where: (False, None))


def _child(work: Callable[[], object], pipe) -> None:
    try:
        pipe.send(("ok", work()))
    except BaseException as exc:
        pipe.send(("error", exc))


def _in_child(work: Callable[[], T], timeout: float | None, on_timeout: Callable[[str], T]) -> T:
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_child, args=(work, send), daemon=True)
    child.start()
    send.close()
    try:
        if not receive.poll(timeout):
            return on_timeout("a worker thread's computation")
        kind, value = receive.recv()
    finally:
        if child.is_alive():
            child.kill()
        child.join()
    if kind == "error":
        raise value
    return value
