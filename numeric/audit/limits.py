"""The audit's size limits, each checked before the thing it limits is read, and the short
lists its error messages name.

They keep an audit of any file, however crafted, within a bounded amount of memory (about
512 MB at most, tests/numeric/test_audit_bounds.py): a table too large for a limit is refused
with a message that says how to read it instead.
"""

from __future__ import annotations

from collections.abc import Iterable

# .npz: the decompressed size of the member read, the entries and size of the zip directory.
MAX_NPZ_MEMBER_BYTES = 2**27
MAX_NPZ_MEMBERS = 4096
MAX_NPZ_DIRECTORY_BYTES = 2**24
# .safetensors: the JSON header's size and its number of tensors.
MAX_SAFETENSORS_HEADER_BYTES = 2**24
MAX_SAFETENSORS_TENSORS = 100_000
# .csv/.txt: one line's length, and the values of the whole table (read into memory).
MAX_TEXT_LINE_BYTES = 2**22
MAX_TEXT_VALUES = 2**24
# Columns of a table: every sample of rows is bounded in bytes, down to 16 rows of this many.
MAX_COLUMNS = 2**16
# A memory-mapped table stored column by column is copied into row order up to this size.
MAX_FORTRAN_BYTES = 2**27
# Names listed in one error message before "and N more".
_LISTED = 5


def few(names: Iterable[str]) -> str:
    """At most a few names, quoted, then how many more: "'a', 'b' and 7 more"."""
    names = list(names)
    shown = ", ".join(repr(n) for n in names[:_LISTED])
    more = len(names) - _LISTED
    return f"{shown} and {more} more" if more > 0 else shown


def mib(nbytes: int) -> str:
    """A size in MiB, as the limits are written: 128 MiB."""
    return f"{nbytes / 2**20:g} MiB"
