"""The input errors of the audits: what a file, an array or a configuration given to an audit
gets wrong, each naming the file (or argument) and what is allowed.

They are ValueErrors, so library callers catch them as before; the command line turns exactly
these into a one-line message and exit status 2 (proofs.cli.usage), and anything else raised
inside an audit is a bug in pe-proofs (exit 70 with its traceback).

>>> issubclass(MissingArrayError, InputError) and issubclass(InputError, ValueError)
True
"""

from __future__ import annotations


class InputError(ValueError):
    """Input an audit refuses; the message is one line naming the file and what is wrong."""


class UnreadableFileError(InputError):
    """A file that cannot be read as what it should be: missing, not a regular file, not
    permitted, malformed, truncated or over a size limit."""


class MissingArrayError(InputError):
    """A file without the array (key) asked for."""


class BadShapeError(InputError):
    """An array whose shape, dtype or size the audit does not take."""


class BadValueError(InputError):
    """A value the audit does not take: a NaN or infinity, positions out of order, a
    configuration field out of its range, an option outside its choices."""
