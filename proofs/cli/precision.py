"""`pe-proofs precision`: max error against mpmath by dtype and max position, module formula vs numeric."""

from __future__ import annotations

import argparse

from proofs.cli.usage import UsageError, user_input
from proofs.render.tables import FORMATS

NAME = "precision"
HELP = "max error against the mpmath reference by dtype and max position, module formula vs numeric"
EXAMPLE = "pe-proofs precision --max-positions 1000,100000 --format json"


def _integer(text: str, option: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise UsageError(f"{option} must be an integer, got {text!r}") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The precision command's options; values are checked in run so errors name the option."""
    parser.add_argument("--d-model", default="512", help="even model width (default 512)")
    parser.add_argument("--base", default="10000", help="frequency base, > 1 (default 10000)")
    parser.add_argument(
        "--max-positions",
        default="1000,10000,100000,1000000",
        help="comma-separated position limits",
    )
    parser.add_argument(
        "--samples", default="64", help="positions sampled below each limit (default 64)"
    )
    parser.add_argument("--format", default="text", help="text, csv or json (default text)")


def run(args: argparse.Namespace) -> int:
    """Check the options, measure, print the table."""
    from numeric import validate
    from numeric.precision import precision_table
    from proofs.render.tables import render_tables

    # Every check below is of what the user typed.
    with user_input():
        if args.format not in FORMATS:
            raise UsageError(f"--format must be text, csv or json, got {args.format!r}")
        d_model = validate.d_model(_integer(args.d_model, "--d-model"), "--d-model")
        try:
            base = float(args.base)
        except ValueError:
            raise UsageError(f"--base must be a number, got {args.base!r}") from None
        base = validate.base(base, "--base")
        limits = validate.comma_integers(args.max_positions, "--max-positions")
        if any(not 1 <= n <= 2**31 for n in limits):
            raise UsageError(
                f"--max-positions must be integers in [1, 2**31], got {args.max_positions!r}"
            )
        samples = _integer(args.samples, "--samples")
        if not 1 <= samples <= 10000:
            raise UsageError(f"--samples must be an integer in [1, 10000], got {samples}")
        validate.fits_in_memory(
            3 * samples * d_model * 8,
            f"a ({samples}, {d_model}) table",
            "use a smaller --d-model or fewer --samples",
        )
    table = precision_table(d_model=d_model, base=base, max_positions=limits, samples=samples)
    print(render_tables([table], args.format))
    return 0
