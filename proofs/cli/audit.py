"""`pe-proofs audit FILE`: identify an encoding table from any implementation and measure it.

Exit status (proofs.cli.audit_exit.EXIT_STATUS, from the audit's numeric.audit.outcome.Outcome): 0 when the table's
structure is sound (one sinusoidal encoding: pairs that share a frequency, the shift identity
holding within the table's own accuracy) and its accuracy is that of rounding once or of an
ordinary float64 or float32 computation; 1 for a fault (a structural fault, a table computed in
16 bits, and, with --against, two tables that do not encode the same positions); 3 when the
input cannot decide (the report says what would, such as --config); 2 for a file that cannot be
read. RoPE cos/sin caches are audited by proofs.cli.audit_rope, which says when a file is read
as one.
"""

from __future__ import annotations

import argparse
import shutil

from numeric.audit.outcome import Outcome
from proofs.cli import audit_rope
from proofs.cli.audit_exit import EXIT_STATUS, EXIT_STATUSES
from proofs.cli.usage import UsageError, user_input
from proofs.render.json_text import dumps

NAME = "audit"
HELP = (
    "identify a positional-encoding table or a RoPE cos/sin cache (.npy, .npz, .csv, .txt, "
    ".safetensors) and measure it"
)
EXAMPLE = "pe-proofs audit model_pe.npy --against paper_pe.npy --json"
_MIN_WIDTH, _MAX_WIDTH = 60, 100


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", metavar="FILE", nargs="+", help="the table (rows are positions); RoPE: cos, sin"
    )
    parser.add_argument(
        "--key", action="append", help="the array's name in a .npz or .safetensors file"
    )
    parser.add_argument(
        "--against",
        metavar="B",
        nargs="+",
        help="compare with table B: the same positions up to a column permutation, scale, offset?",
    )
    parser.add_argument(
        "--against-key",
        action="append",
        metavar="KEY",
        help="the array's name in B (needs --against)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    audit_rope.add_arguments(parser)
    parser.epilog = f"{EXIT_STATUSES}\n\n{parser.epilog or ''}".rstrip()


def run(args: argparse.Namespace) -> int:
    """Open the table(s), audit or compare, print the report; the exit status of its outcome."""
    from numeric.audit.errors import InputError
    from numeric.audit.report import line as report_line
    from numeric.table_audit import audit, compare, open_table

    if args.against_key is not None and args.against is None:
        raise UsageError("--against-key names the array in the --against file; give --against B")
    if audit_rope.wanted(args):
        return audit_rope.run(args)
    if len(args.against or []) > 1:
        raise UsageError("--against takes one table B (two files are a RoPE cache: give --rope)")
    path, key = args.file[0], (args.key or [None])[0]
    against = None if args.against is None else args.against[0]
    # The file is the user's input: what the readers and the audit refuse (their typed input
    # errors) is named in one line; any other error is ours (exit 70).
    with user_input(InputError):
        try:
            table = open_table(path, key=key)
            if against is None:
                result = audit(table, what=path)
                outcome = result.outcome
            else:
                other = open_table(against, key=(args.against_key or [None])[0])
                result = compare(table, other, names=(path, against))
                outcome = Outcome.of_verdict(result.same)
        except MemoryError:
            # The audit reads every file in bounded memory: this machine has less to spare.
            raise UsageError(
                f"out of memory auditing {path}; the audit needs about 512 MB free"
            ) from None
    hint = None
    if outcome is Outcome.FAULT:
        # A RoPE cos (or sin) array looks like a faulty table of cosines: say what it reads
        # as, and leave the choice to the user (exit 3, decided by --rope).
        with user_input(InputError):
            hint = audit_rope.rope_hint(path, key, against, (args.against_key or [None])[0])
        if hint is not None:
            outcome = Outcome.UNDECIDED
    width = max(_MIN_WIDTH, min(_MAX_WIDTH, shutil.get_terminal_size().columns))
    if args.json:
        extra = {} if hint is None else {"rope": hint}
        print(dumps({**result.to_json(), **extra}, ensure_ascii=True))
    else:
        if hint is None:
            lines = result.report_lines(width)
        else:
            lines = [*result.report_lines(width, outcome), *report_line(f"rope: {hint}", width)]
        print("\n".join(lines))
    return EXIT_STATUS[outcome]
