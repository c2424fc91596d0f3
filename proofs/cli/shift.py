"""`pe-proofs shift EXPR... [--affine] [--json] [--verbose]`: does an encoding have a shift map?

Each EXPR is one component of f(pos). The answer speaks the module's notation: the verified map
as a matrix in sin and cos of k, or one sentence saying which equation no map can meet. The
certificate's algebra (coefficient equations, the chain M(k)·f(pos) = f(pos + k)) comes with
--verbose and in JSON.
Exit status: 0 when decided (a map exists, or provably none), 3 when undecided, 2 on bad input.
"""

from __future__ import annotations

import argparse
import math
import re

from proofs.cli.terminal import add_style_arguments, style_from
from proofs.cli.usage import user_input
from proofs.engine.budget import DEFAULT_TIMEOUT, MAX_TIMEOUT
from proofs.render.json_text import dumps

# The names an expression may use (proofs.engine.parse.DEFAULT_SYMBOLS, with pi and E), written
# out so that --help does not load the parser and SymPy; a test keeps the two lists equal.
NAMES_HELP = "pos, k, L, max_len, d_model, i, omega, pi, E"

NAME = "shift"
HELP = "decide whether M(k)·f(pos) = f(pos + k) has a matrix M(k) free of pos (--affine: plus b(k))"
EXAMPLE = 'pe-proofs shift "sin(pos/10000**(2*i/d_model))" "cos(pos/10000**(2*i/d_model))"'

UNDECIDED = 3


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "components",
        nargs="+",
        metavar="EXPR",
        help=f'components of f(pos), e.g. "sin(pos)" "cos(pos)"; names: {NAMES_HELP}',
    )
    parser.add_argument(
        "--affine", action="store_true", help="ask for M(k)·f(pos) + b(k) = f(pos + k)"
    )
    parser.add_argument("--json", action="store_true", help="print the answer as a JSON object")
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"give up (undecided, exit 3) after this many seconds (default {DEFAULT_TIMEOUT:g}; "
        f"at most {MAX_TIMEOUT:g})",
    )
    add_style_arguments(parser)
    # argparse reads "-sin(pos)" as an unknown option. Marking every single-dash word as
    # "number-like" makes it a component instead; the options themselves (-v, -h) still match
    # exactly. So is a double-dash word holding a character no option name has ("--sin(pos)",
    # which is sin(pos)). Set last: options added after it would count as number-like themselves.
    parser._negative_number_matcher = re.compile(r"^-[^-]|^--[\w-]*[^\w\s=-]")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(
            f"must be a positive, finite number of seconds, got {text!r}"
        )
    return value


def run(args: argparse.Namespace) -> int:
    from proofs.engine.parse import parse_expression
    from proofs.engine.shift_decision import find_shift_map
    from proofs.render.shift_answer import as_json, render
    from proofs.theorems.sinusoidal.definitions import POS, K

    # The expressions are the user's input; find_shift_map refuses components it cannot take.
    with user_input():
        components = [parse_expression(text) for text in args.components]
        found = find_shift_map(components, POS, K, affine=args.affine, timeout=args.timeout)
    style = style_from(args)
    print(dumps(as_json(found, style), ensure_ascii=True) if args.json else render(found, style))
    return UNDECIDED if found.exists is None else 0
