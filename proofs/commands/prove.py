"""`pe-proofs prove [NAME ...]`: verify theorems step by step, then run their numeric twins."""

from __future__ import annotations

import argparse
import json

from proofs import registry
from proofs.commands.options import positive_even_int
from proofs.render.json import theorem_json
from proofs.render.tables import render_tables
from proofs.render.text import MARK, render_theorem

NAME = "prove"
HELP = "verify theorems (all by default): every step checked symbolically and numerically"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("names", nargs="*", metavar="NAME", help="theorems to prove (default: all)")
    parser.add_argument(
        "--d-model",
        type=positive_even_int,
        default=8,
        help="concrete d_model of whole-vector statements (default 8)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print a JSON list, one object per theorem"
    )
    parser.add_argument("--no-twin", action="store_true", help="skip the numeric cross-checks")


def run(args: argparse.Namespace) -> int:
    names = [registry.check_name(n) for n in args.names] or registry.names()
    results = []
    all_ok = True
    for name in names:
        result = registry.build(name, d_model=args.d_model).verify()
        table = None if args.no_twin else result.theorem.run_twin()
        ok = result.status == "proved" and (table is None or table.passed is not False)
        all_ok &= ok
        if args.json:
            twin = None if table is None else json.loads(render_tables([table], "json"))[0]
            results.append(theorem_json(result, twin))
            continue
        print(render_theorem(result))
        if table is not None:
            print(f"\nNumeric twin ({result.theorem.twin}):")
            print(render_tables([table], "text"))
        print()
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        count = f"{len(names)} theorem{'s' if len(names) != 1 else ''}"
        summary = f"{count}: every one proved" if all_ok else f"{count}: not every one was proved"
        print(f"{MARK['proved'] if all_ok else MARK['refuted']} {summary}")
    return 0 if all_ok else 1
