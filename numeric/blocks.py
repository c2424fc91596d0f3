"""Row blocks: the twins walk a long table a block of rows at a time, so memory stays small."""

from __future__ import annotations

# Rows per block: the temporaries of a check on one block of a d_model = 1024 table stay a few MiB.
CHUNK_ROWS = 4096
