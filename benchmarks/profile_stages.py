"""Where a proof run's time goes, by engine stage: cProfile's cumulative CPU seconds of each entry.

Run: python benchmarks/profile_stages.py [ARGS…]   (default: prove --jobs 1, module 10's run)
e.g. `python benchmarks/profile_stages.py prove --jobs 1 --module 11`. The run is profiled in
this process (one job, so every stage runs here) and each stage's entry function is reported
with its cumulative CPU seconds in this process (a shared machine's load disturbs them less than
wall seconds; an evaluation the budget moves to a child process is not counted). A stage nested
in another (the numeric check inside a link check) is indented under it; a function called from
two stages (rules_close, from link checks and from facts) counts all its calls. cProfile slows
pure-Python code more than flint's, so compare the rows of one table with each other, not with
a run's wall time.
"""

from __future__ import annotations

import contextlib
import cProfile
import io
import pstats
import sys
import time

# (depth, stage, file suffix, function name): entries found by profiling the run.
STAGES = (
    (0, "whole run", "proofs/cli/main.py", "_main"),
    (
        1,
        "imports (outermost, wherever they happen)",
        "<frozen importlib._bootstrap>",
        "_find_and_load",
    ),
    (1, "building the theorems (registry)", "proofs/registry.py", "build"),
    (1, "verifying the theorems", "proofs/engine/theorem.py", "verify"),
    (2, "link checks (symbolic + numeric)", "proofs/engine/derivation.py", "check_link"),
    (3, "symbolic: cited rules and lemmas", "proofs/engine/symbolic.py", "check_cited"),
    (4, "rules_close (citation)", "proofs/engine/citation.py", "rules_close"),
    (3, "symbolic: uncited reduction", "proofs/engine/derivation.py", "_reduce"),
    (3, "shielding misjudged constants", "proofs/engine/zero_test.py", "shield_misjudged"),
    (3, "numeric: certified ball check", "proofs/engine/pointwise.py", "check_numeric"),
    (4, "sample points", "proofs/engine/sampling.py", "sample_points"),
    (4, "far-out probe points", "proofs/engine/sampling.py", "large_points"),
    (4, "certify_difference (per point)", "proofs/engine/certified.py", "certify_difference"),
    (
        5,
        "building lhs - rhs (unevaluated.difference)",
        "proofs/engine/unevaluated.py",
        "difference",
    ),
    (5, "ball evaluation", "proofs/engine/certified.py", "_attempt"),
    (2, "facts (all)", "proofs/engine/facts.py", "within_budget"),
    (3, "shift decisions", "proofs/engine/shift_decision.py", "find_shift_map"),
    (1, "numeric twins (numeric/checks)", "proofs/engine/theorem.py", "run_twin"),
    (1, "rendering the report", "proofs/cli/prove.py", "_rendered"),
)


def stage_seconds(stats: pstats.Stats) -> list[tuple[int, str, float]]:
    """(depth, stage, cumulative seconds) for each stage of STAGES, 0.0 when it never ran."""
    rows = []
    for depth, name, suffix, function in STAGES:
        seconds = sum(
            cumulative
            for (path, _, func), (_, _, _, cumulative, _) in stats.stats.items()  # type: ignore[attr-defined]
            if func == function and path.endswith(suffix)
        )
        rows.append((depth, name, seconds))
    return rows


def main() -> int:
    args = sys.argv[1:] or ["prove", "--jobs", "1"]

    def run() -> int:
        from proofs.cli.main import main as pe_proofs  # imported under the profile: a stage

        return pe_proofs(args)

    profile = cProfile.Profile(time.process_time)
    with contextlib.redirect_stdout(io.StringIO()):
        status = profile.runcall(run)
    stats = pstats.Stats(profile)
    print(f"pe-proofs {' '.join(args)} (exit {status}), cumulative CPU seconds under cProfile")
    for depth, name, seconds in stage_seconds(stats):
        print(f"{'  ' * depth}{name:<{52 - 2 * depth}}{seconds:8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
