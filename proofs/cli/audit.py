"""`pe-proofs audit FILE`: identify an encoding table from any implementation and measure it.

Exit status 0 when the table is a clean sinusoidal encoding that passes the rotation check
(with --against: when the two tables encode the same positions), 1 when it is not.
"""

from __future__ import annotations

import argparse
import json

from proofs.cli.usage import user_input

NAME = "audit"
HELP = "identify a positional-encoding table (.npy, .npz, .csv, .txt, .safetensors) and measure it"
EXAMPLE = "pe-proofs audit model_pe.npy --against paper_pe.npy --json"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the table: rows are positions")
    parser.add_argument("--key", help="the array's name in a .npz or .safetensors file")
    parser.add_argument(
        "--against",
        metavar="B",
        help="compare with table B: the same positions up to a column permutation, scale, offset?",
    )
    parser.add_argument("--against-key", metavar="KEY", help="the array's name in B")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    """Load the table(s), audit or compare, print the report; exit 0 only for a clean result."""
    from numeric.table_audit import audit, compare, load_table

    # The file is the user's input: what the readers and the audit refuse is named in one line.
    with user_input():
        table = load_table(args.file, key=args.key)
        if args.against is None:
            result = audit(table)
            ok = result.clean
        else:
            result = compare(table, load_table(args.against, key=args.against_key))
            ok = result.same
    if args.json:
        print(json.dumps(result.to_json(), indent=2, allow_nan=False))
    else:
        print("\n".join(result.report_lines()))
    return 0 if ok else 1
