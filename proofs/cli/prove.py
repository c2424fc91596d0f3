"""`pe-proofs prove [NAME ...]`: verify theorems step by step, then run their numeric twins."""

from __future__ import annotations

import argparse
import json

from proofs import registry
from proofs.cli import coq_check
from proofs.cli.options import job_count, positive_even_int
from proofs.cli.pool import parallel_map
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
    parser.add_argument(
        "--coq", action="store_true", help="also compile the Coq development (needs coqc)"
    )
    parser.add_argument(
        "--jobs",
        type=job_count,
        default=0,
        help="worker processes (default 0: one per core; 1: no extra processes)",
    )


def _prove_one(task: tuple[str, int, bool, bool]) -> tuple[str | dict, bool]:
    """Verify one theorem, run its twin, and render it: (text or JSON object, all passed)."""
    name, d_model, twin, as_json = task
    result = registry.build(name, d_model=d_model).verify()
    table = result.theorem.run_twin() if twin else None
    ok = result.status == "proved" and (table is None or table.passed is not False)
    if as_json:
        twin_json = None if table is None else json.loads(render_tables([table], "json"))[0]
        return theorem_json(result, twin_json), ok
    text = render_theorem(result)
    if table is not None:
        text += f"\n\nNumeric twin ({result.theorem.twin}):\n" + render_tables([table], "text")
    return text + "\n", ok


def run(args: argparse.Namespace) -> int:
    names = [registry.check_name(n) for n in args.names] or registry.names()
    tasks = [(name, args.d_model, not args.no_twin, args.json) for name in names]
    results = []
    all_ok = True
    coq = coq_check.marks_for(names, args.d_model) if args.coq else None
    for name, (rendered, ok) in zip(
        names, parallel_map(_prove_one, tasks, jobs=args.jobs), strict=True
    ):
        if coq is not None:  # the third check's mark, beside the other two
            ok &= coq[name].ok
            if args.json:
                rendered["coq"] = coq[name].as_json()
            else:
                rendered = f"{rendered.rstrip()}\n{coq[name].summary()}\n"
        elif args.coq and args.json:
            rendered["coq"] = None  # coqc is missing: said once on stderr
        all_ok &= ok
        if args.json:
            results.append(rendered)
        else:
            print(rendered, flush=True)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        count = f"{len(names)} theorem{'s' if len(names) != 1 else ''}"
        summary = f"{count}: every one proved" if all_ok else f"{count}: not every one was proved"
        print(f"{MARK['proved'] if all_ok else MARK['refuted']} {summary}")
    return 0 if all_ok else 1
