"""Usage errors: the user's mistakes, which the command line reports in one line with status 2.

A command raises UsageError where it checks what the user gave (options, paths, names). The
library checks files and expressions and raises ValueError or TypeError naming what was wrong;
around exactly those calls a command says `with user_input():`. Around a call that does much
more than check (a whole audit), the command names the errors that are the user's: the audits'
typed input errors, `with user_input(InputError):` (numeric.audit.errors). Any other exception
is a bug in pe-proofs, reported with its traceback (proofs.cli.main).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


class UsageError(Exception):
    """A command-line mistake; its message is printed as one line."""


@contextmanager
def user_input(*errors: type[Exception]) -> Iterator[None]:
    """Inside the block, an exception of the types errors (by default ValueError and
    TypeError) is a check of the user's input that failed: it becomes a UsageError with the
    same message."""
    caught = errors or (ValueError, TypeError)
    try:
        yield
    except caught as exc:
        raise UsageError(str(exc)) from None
