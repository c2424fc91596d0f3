"""`pe-proofs prove [NAME ...]`: verify theorems step by step, then run their numeric twins."""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from typing import TYPE_CHECKING

from proofs import registry
from proofs.cli.options import course_module, job_count, positive_even_int
from proofs.cli.terminal import Progress, add_style_arguments, style_from
from proofs.cli.usage import user_input
from proofs.render.json_text import dumps

if TYPE_CHECKING:
    from numeric.result_table import Table
    from proofs.engine.theorem import TheoremRun
    from proofs.render.text_style import Style

NAME = "prove"
HELP = "verify theorems (module 10's by default): every step checked symbolically and numerically"
EXAMPLE = "pe-proofs prove rotation ramp --d-model 16 --verbose"
STEPS_HINT = "Each theorem's steps: pe-proofs prove NAME (every one: pe-proofs --steps)."
# Said under a run of the default module's theorems: where the next module's are.
NEXT_MODULE_HINT = "Module 11, rotary embeddings (RoPE): pe-proofs --module 11."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "names", nargs="*", metavar="NAME", help="theorems to prove (default: --module's)"
    )
    parser.add_argument(
        "--module",
        type=course_module,
        # Not set unless given, so that NAME with a --module it is not in can be refused.
        default=argparse.SUPPRESS,
        metavar="{10,11,all}",
        help=f"the course module whose theorems to prove when no NAME is given (default "
        f"{registry.DEFAULT_MODULE}: sinusoidal encoding; 11: rotary embeddings; all: both); "
        "with NAMEs, each must be in it",
    )
    parser.add_argument(
        "--d-model",
        type=positive_even_int,
        default=8,
        help=f"concrete d_model of whole-vector statements (default 8, at most {registry.MAX_D_MODEL})",
    )
    parser.add_argument(
        "--steps",
        action="store_true",
        help="print every theorem's chains (the default with NAMEs; without, a summary each)",
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
    add_style_arguments(parser)


def _rendered(run: TheoremRun, style: Style, steps: bool) -> str:
    """One theorem as text: its chains (steps) or its summary, its twin's line, and its Coq
    mark if asked for."""
    from proofs.render.text import render_summary, render_theorem

    if not steps:
        # Blocks follow one another without a blank line: their ━━ headings part them, and the
        # whole run stays within two screens.
        return render_summary(run, style)
    text = render_theorem(run, style)
    if run.table is not None:
        text += "\n" + _twin_text(run.theorem.twin, run.table, style)
    if run.coq is not None:
        text += "\n" + run.coq.summary()
    return text + "\n"


def _as_json(run: TheoremRun, coq_asked: bool) -> dict:
    from proofs.render.json import theorem_json
    from proofs.render.tables import table_object

    twin = None if run.table is None else table_object(run.table)
    out = theorem_json(run, twin) | {"seconds": round(run.seconds, 3)}
    if coq_asked:
        out["coq"] = None if run.coq is None else run.coq.as_json()
    return out


def _twin_text(function: str, table: Table, style: Style) -> str:
    """The twin's verdict in one line (and its whole table with verbose)."""
    from proofs.render.tables import render_tables

    passed = table.passed is not False
    name = function.rpartition(".")[2]
    said = (
        f"numeric twin {name} {'passed' if passed else 'FAILED'}: {table.headline or table.title}"
    )
    lines = style.marked("proved" if passed else "refuted", said)
    if style.verbose:
        # The table's rows as they are; its title, claim and note wrapped to the width.
        for line in render_tables([table], "text").splitlines():
            lines += style.wrap(line, hang=2) if len(line) > style.width else [style.text(line)]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from proofs.render.text import summary_table

    module = getattr(args, "module", registry.DEFAULT_MODULE)
    with user_input():
        names = [registry.check_name(n) for n in args.names] or registry.names(module)
        if args.names and module is not None and hasattr(args, "module"):
            for name in names:
                if registry.module_of(name) != module:
                    raise ValueError(
                        f"theorem {name!r} is in module {registry.module_of(name)}, not "
                        f"--module {module} (leave out --module, or use --module all)"
                    )
    style = None if args.json else style_from(args)
    # The whole run is a summary a student reads in two screens; the chains come with names,
    # --steps or --verbose.
    steps = bool(args.names) or args.steps or args.verbose
    # The third check: the Coq kernel compiles the development once, before the theorems run.
    coq = None
    if args.coq:
        from proofs.cli import coq_check  # the Coq machinery loads only with --coq

        coq = coq_check.marks_for(names, args.d_model)
    progress = Progress()
    runs = []
    start = time.perf_counter()
    progress.show(f"proving {names[0]} (1 of {len(names)}) …")
    results = registry.run(names, d_model=args.d_model, twin=not args.no_twin, jobs=args.jobs)
    for number, result in enumerate(results, 1):
        progress.clear()
        if coq is not None:
            result = replace(result, coq=coq[result.name])
        runs.append(result)
        if style is not None:
            print(_rendered(result, style, steps), flush=True)
        if number < len(names):
            progress.show(f"proving {names[number]} ({number + 1} of {len(names)}) …")
    progress.clear()
    if style is None:
        print(dumps([_as_json(r, args.coq) for r in runs]))
    else:
        if not steps:
            print()
        print(summary_table(runs, time.perf_counter() - start, style))
        if not steps:
            print(style.text(STEPS_HINT))
        if not args.names and module == registry.DEFAULT_MODULE:
            print(style.text(NEXT_MODULE_HINT))
    return 0 if all(r.ok for r in runs) else 1
