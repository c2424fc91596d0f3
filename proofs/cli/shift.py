"""`pe-proofs shift EXPR... [--affine] [--json]`: decide whether an encoding has a shift map.

Each EXPR is one component of f(pos). Prints the verified map M(k) (and b(k)) as a derivation,
or the certificate that none exists, or why the question was left undecided.
Exit status: 0 when decided (a map exists, or provably none), 3 when undecided, 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

import sympy as sp

from proofs.definitions import POS, K
from proofs.engine.budget import DEFAULT_TIMEOUT
from proofs.engine.parse import DEFAULT_SYMBOLS, parse_expression
from proofs.engine.shift_decision import ShiftMap, find_shift_map
from proofs.render.text import MARK, pretty_lines, render_part

NAME = "shift"
HELP = "decide whether M(k)·f(pos) = f(pos + k) has a matrix M(k) free of pos (--affine: plus b(k))"

UNDECIDED = 3


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "components",
        nargs="+",
        metavar="EXPR",
        help=f'components of f(pos), e.g. "sin(pos)" "cos(pos)"; names: {", ".join(DEFAULT_SYMBOLS)}',
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
        help=f"give up (undecided, exit 3) after this many seconds (default {DEFAULT_TIMEOUT:g})",
    )


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


def _block(label: str, expr: sp.Basic) -> list[str]:
    lines, baseline = pretty_lines(expr)
    pad = " " * len(label)
    return [(label if n == baseline else pad) + line for n, line in enumerate(lines)]


def render(found: ShiftMap) -> str:
    """The answer as text: the question, then the derivation, certificate or reason."""
    f = sp.ImmutableMatrix(list(found.components))
    out = _block("f(pos) = ", f)
    question = "M(k)·f(pos) + b(k)" if found.affine else "M(k)·f(pos)"
    out.append(
        f"Is there {'an' if found.affine else 'a'} {found.kind} map, M(k) free of pos, with {question} = f(pos + k) for all real pos?"
    )
    if found.basis:
        out.append(
            "Rewritten over the independent functions " + ", ".join(sp.sstr(b) for b in found.basis)
        )
    out.append("")
    if found.exists:
        out.append(render_part(found.derivation, found.verdict, 1))
        out.append("")
        out += _block("M(k) = ", found.matrix)
        if found.affine:
            out += _block("b(k) = ", found.offset)
        out.append(f"{MARK['proved']} yes: {found.reason}")
    elif found.exists is False:
        out += found.certificate.lines()
        out.append(f"{MARK['refuted']} no: {found.reason}")
    else:
        out.append(f"{MARK['undecided']} undecided: {found.reason}")
    return "\n".join(out)


def as_json(found: ShiftMap) -> dict[str, Any]:
    """The answer as a JSON-ready dict (expressions in SymPy's string form)."""
    result: dict[str, Any] = {
        "components": [sp.sstr(c) for c in found.components],
        "kind": found.kind,
        "exists": found.exists,
        "reason": found.reason,
        "basis": [sp.sstr(b) for b in found.basis],
        "matrix": None
        if found.matrix is None
        else [[sp.sstr(e) for e in row] for row in found.matrix.tolist()],
        "offset": None if found.offset is None else [sp.sstr(e) for e in found.offset],
        "free_entries_set_to_zero": list(found.free),
        "derivation": None,
        "certificate": None,
    }
    if found.exists:
        result["derivation"] = {
            "status": found.verdict.status,
            "steps": [
                {"expr": sp.sstr(step.expr), "justification": step.justification}
                for step in found.derivation.steps
            ],
        }
    if found.certificate is not None:
        cert = found.certificate
        result["certificate"] = {
            "equations": [
                {
                    "weight": sp.sstr(w),
                    "row": row + 1,
                    "basis_function": sp.sstr(b),
                    "equation": sp.sstr(e),
                }
                for w, row, b, e in cert.equations
            ],
            "value": sp.sstr(cert.value),
            "proof": cert.proof,
            "holds_for": cert.holds_for,
        }
    return result


def run(args: argparse.Namespace) -> int:
    components = [parse_expression(text) for text in args.components]
    found = find_shift_map(components, POS, K, affine=args.affine, timeout=args.timeout)
    print(json.dumps(as_json(found), indent=2) if args.json else render(found))
    return UNDECIDED if found.exists is None else 0
