"""Usage errors: the user's mistakes, which the command line reports in one line with status 2.

A command raises UsageError where it checks what the user gave (options, paths, names). The
library checks files and expressions and raises ValueError or TypeError naming what was wrong;
around exactly those calls a command says `with user_input():`. Any other exception is a bug in
pe-proofs, reported with its traceback (proofs.cli.main).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class UsageError(Exception):
    """A command-line mistake; its message is printed as one line."""


@contextmanager
def user_input() -> Iterator[None]:
    """Inside the block, a ValueError or TypeError is a check of the user's input that failed:
    it becomes a UsageError with the same message."""
    try:
        yield
    except (ValueError, TypeError) as exc:
        raise UsageError(str(exc)) from None
