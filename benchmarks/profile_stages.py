"""Where a proof run's time goes, by engine stage: wall and CPU seconds spent inside each stage.

Run: python benchmarks/profile_stages.py [ARGS…]   (default: prove --jobs 1, module 10's run)
e.g. `python benchmarks/profile_stages.py prove --jobs 1 --module 11`. The run happens in this
process (one job, so every stage runs here). Each stage's entry function is wrapped in a timer
that counts its outermost calls only (a recursive call is inside the outer one), and imports
are timed at `__import__`; no profiler runs, so pure-Python stages are not slowed more than
flint's (cProfile makes SymPy's rule rewriting look several times costlier than it is). A
stage nested in another is indented under it; a function called from two stages (rules_close,
from link checks and from facts) counts all its calls in its own row. CPU seconds are this
process's (every thread): an evaluation the budget moves to a child process is not counted.
"""

from __future__ import annotations

import builtins
import contextlib
import functools
import importlib
import io
import sys
import time
from collections.abc import Callable

# (depth, stage, module, function): each stage's entry, found by profiling the run.
STAGES = (
    (1, "building the theorems (registry)", "proofs.registry", "build"),
    (1, "verifying the theorems", "proofs.engine.theorem", "Theorem.verify"),
    (2, "link checks (symbolic + numeric)", "proofs.engine.derivation", "check_link"),
    (3, "symbolic: cited rules and lemmas", "proofs.engine.symbolic", "check_cited"),
    (3, "symbolic: uncited reduction", "proofs.engine.derivation", "_reduce"),
    (3, "shielding misjudged constants", "proofs.engine.zero_test", "shield_misjudged"),
    (3, "numeric: certified ball check", "proofs.engine.pointwise", "check_numeric"),
    (4, "sample points", "proofs.engine.sampling", "sample_points"),
    (4, "far-out probe points", "proofs.engine.sampling", "large_points"),
    (4, "certify_difference (every point)", "proofs.engine.certified", "certify_difference"),
    (5, "lhs - rhs trees (unevaluated.difference)", "proofs.engine.unevaluated", "difference"),
    (5, "ball evaluation", "proofs.engine.certified", "_attempt"),
    (2, "rules_close (citation, any caller)", "proofs.engine.citation", "rules_close"),
    (2, "facts", "proofs.engine.facts", "within_budget"),
    (3, "shift decisions", "proofs.engine.shift_decision", "find_shift_map"),
    (1, "numeric twins (numeric/checks)", "proofs.engine.theorem", "Theorem.run_twin"),
    (1, "rendering the report", "proofs.cli.prove", "_rendered"),
)


class Timer:
    """Wall and CPU seconds spent in the outermost calls of what it wraps."""

    def __init__(self) -> None:
        self.wall = self.cpu = 0.0
        self.depth = 0

    def wrap(self, function: Callable) -> Callable:
        """function, timed by this Timer."""

        @functools.wraps(function)
        def timed(*args, **kwargs):
            self.depth += 1
            if self.depth == 1:
                wall, cpu = time.perf_counter(), time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.depth -= 1
                if self.depth == 0:
                    self.wall += time.perf_counter() - wall
                    self.cpu += time.process_time() - cpu

        return timed


def install(module_name: str, qualified: str, timer: Timer) -> None:
    """Replace module_name's function (or Class.method) by its timed version, in the module
    and in every loaded module that imported it by name."""
    module = importlib.import_module(module_name)
    owner, _, name = qualified.rpartition(".")
    holder = getattr(module, owner) if owner else module
    original = getattr(holder, name)
    timed = timer.wrap(original)
    setattr(holder, name, timed)
    if owner:
        return
    for other in list(sys.modules.values()):
        if getattr(other, name, None) is original:
            setattr(other, name, timed)


def main() -> int:
    args = sys.argv[1:] or ["prove", "--jobs", "1"]
    imports = Timer()
    builtins.__import__ = imports.wrap(builtins.__import__)
    start = time.perf_counter(), time.process_time()
    from proofs.cli.main import main as pe_proofs

    timers = [Timer() for _ in STAGES]
    for (_, _, module, function), timer in zip(STAGES, timers, strict=True):
        install(module, function, timer)
    with contextlib.redirect_stdout(io.StringIO()):
        status = pe_proofs(args)
    wall, cpu = time.perf_counter() - start[0], time.process_time() - start[1]
    print(f"pe-proofs {' '.join(args)} (exit {status}); seconds inside each stage")
    print(f"{'stage':<50}{'wall s':>8}{'cpu s':>8}")
    print(f"{'whole run, imports included':<50}{wall:8.2f}{cpu:8.2f}")
    print(
        f"{'  imports (outermost, wherever they happen)':<50}{imports.wall:8.2f}{imports.cpu:8.2f}"
    )
    for (depth, name, _, _), timer in zip(STAGES, timers, strict=True):
        print(f"{'  ' * depth + name:<50}{timer.wall:8.2f}{timer.cpu:8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
