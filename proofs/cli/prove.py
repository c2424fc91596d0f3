"""`pe-proofs prove [NAME ...]`: verify theorems step by step, then run their numeric twins."""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass, replace

from proofs import registry
from proofs.cli.options import job_count, positive_even_int
from proofs.cli.pool import parallel_map
from proofs.cli.terminal import Progress, add_style_arguments, style_from
from proofs.render.json import theorem_json
from proofs.render.tables import render_tables
from proofs.render.text import link_count, render_theorem, summary_table
from proofs.render.text_style import Style

NAME = "prove"
HELP = "verify theorems (all by default): every step checked symbolically and numerically"
EXAMPLE = "pe-proofs prove rotation ramp --d-model 16 --verbose"


@dataclass(frozen=True)
class Outcome:
    """One theorem's run: its rendering (text or a JSON object) and its summary row."""

    rendered: str | dict
    name: str
    parts: int
    links: int
    status: str
    twin: bool | None
    seconds: float

    coq_ok: bool = True

    @property
    def ok(self) -> bool:
        return self.status == "proved" and self.twin is not False and self.coq_ok


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("names", nargs="*", metavar="NAME", help="theorems to prove (default: all)")
    parser.add_argument(
        "--d-model",
        type=positive_even_int,
        default=8,
        help=f"concrete d_model of whole-vector statements (default 8, at most {registry.MAX_D_MODEL})",
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


def _prove_one(task: tuple[str, int, bool, Style | None]) -> Outcome:
    """Verify one theorem, run its twin, and render it (style None: as JSON)."""
    name, d_model, twin, style = task
    start = time.perf_counter()
    result = registry.build(name, d_model=d_model).verify()
    table = result.theorem.run_twin() if twin else None
    seconds = time.perf_counter() - start
    if style is None:
        twin_json = None if table is None else json.loads(render_tables([table], "json"))[0]
        rendered: str | dict = theorem_json(result, twin_json) | {"seconds": round(seconds, 3)}
    else:
        rendered = render_theorem(result, style)
        if table is not None:
            rendered += "\n" + _twin_text(result.theorem.twin, table, style)
        rendered += "\n"
    return Outcome(
        rendered,
        name,
        len(result.parts),
        link_count(result),
        result.status,
        None if table is None else table.passed is not False,
        seconds,
    )


def _twin_text(function: str, table, style: Style) -> str:
    """The twin's verdict in one line (and its whole table with verbose)."""
    passed = table.passed is not False
    what = f"numeric twin {function.rpartition('.')[2]}: {_headline(table.title)}"
    lines = style.marked(
        "proved" if passed else "refuted", f"{what}: {'passed' if passed else 'FAILED'}"
    )
    if style.verbose:
        lines.append(style.text(render_tables([table], "text")))
    return "\n".join(lines)


def _headline(title: str) -> str:
    """A table's title up to its first comma outside brackets ("Every entry in [-1, 1] and …")."""
    depth = 0
    for n, char in enumerate(title):
        depth += (char in "([{") - (char in ")]}")
        if char == "," and depth == 0:
            return title[:n]
    return title


def _with_coq(outcome: Outcome, coq: dict | None, *, json_output: bool) -> Outcome:
    """The outcome with the Coq kernel's mark added (coq None: coqc is missing, said on stderr)."""
    if coq is None:
        rendered = outcome.rendered | {"coq": None} if json_output else outcome.rendered
        return replace(outcome, rendered=rendered)
    mark = coq[outcome.name]
    if json_output:
        rendered = outcome.rendered | {"coq": mark.as_json()}
    else:
        rendered = f"{outcome.rendered.rstrip()}\n{mark.summary()}\n"
    return replace(outcome, rendered=rendered, coq_ok=mark.ok)


def run(args: argparse.Namespace) -> int:
    names = [registry.check_name(n) for n in args.names] or registry.names()
    style = None if args.json else style_from(args)
    tasks = [(name, args.d_model, not args.no_twin, style) for name in names]
    # The third check: the Coq kernel compiles the development once, before the theorems run.
    coq = None
    if args.coq:
        from proofs.cli import coq_check  # the Coq machinery loads only with --coq

        coq = coq_check.marks_for(names, args.d_model)
    progress = Progress()
    outcomes = []
    progress.show(f"proving {names[0]} (1 of {len(names)}) …")
    for number, outcome in enumerate(parallel_map(_prove_one, tasks, jobs=args.jobs), 1):
        progress.clear()
        outcome = _with_coq(outcome, coq, json_output=style is None) if args.coq else outcome
        outcomes.append(outcome)
        if style is not None:
            print(outcome.rendered, flush=True)
        if number < len(names):
            progress.show(f"proving {names[number]} ({number + 1} of {len(names)}) …")
    progress.clear()
    if style is None:
        print(json.dumps([o.rendered for o in outcomes], indent=2, ensure_ascii=False))
    else:
        rows = [(o.name, o.parts, o.links, o.status, o.twin, o.seconds) for o in outcomes]
        print(summary_table(rows, style))
    return 0 if all(o.ok for o in outcomes) else 1
