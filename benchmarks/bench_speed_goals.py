"""Issue 30's table: each figure beside its yardstick, measured side by side in one run.

Run: python benchmarks/bench_speed_goals.py [--repeat R] [--table-repeat R] [--suite]

- `pe-proofs` (module 10's default run) and `pe-proofs --module all` against a bare
  `python -c "import sympy"`: fresh processes, one of each per round, rounds interleaved so load
  from other processes hits all alike; the best wall and the best CPU seconds (user + system,
  children included) of each are kept. Goals: at most 4× and 8× import sympy.
- `numeric.sinusoidal_pe(100000, 512)` in float64 against the fresh-fill rate: the yardstick is
  `np.empty((100000, 512))` followed by `.fill(0.5)`, the same bytes written to freshly allocated
  memory (page faults included). Both run in this process, interleaved, best of --table-repeat;
  the figure is fill time / table time. Goal: at least 80%.
- With --suite, the fast test suite (`python -m pytest -q`, README's command) against import
  sympy too, in the first --suite-repeat rounds only (it takes minutes). Goal: at most 150×.

Prints a table with each figure, its goal and whether it was met (wall and CPU separately for
the commands), and the load average before and after. Exit status 0 if every goal was met.
"""

from __future__ import annotations

import argparse
import os
import sys

from fill_rate import fresh_fill, round_times
from process_time import PE_PROOFS, run_once

SYMPY = "python -c 'import sympy'"
TABLE_SHAPE = (100_000, 512)


def load() -> str:
    """The 1, 5 and 15 minute load averages, as `uptime` prints them."""
    return ", ".join(f"{value:.2f}" for value in os.getloadavg())


def command_times(
    commands: dict[str, list[str]], repeat: int, rounds_of: dict[str, int]
) -> dict[str, tuple[float, float]]:
    """name -> (best wall, best cpu) seconds; a command runs in the first rounds_of[name] rounds
    (default every round), the commands of a round one after another."""
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for round_ in range(repeat):
        for name, argv in commands.items():
            if round_ < rounds_of.get(name, repeat):
                runs[name].append(run_once(argv))
    return {name: (min(w for w, _ in r), min(c for _, c in r)) for name, r in runs.items()}


def table_times(repeat: int) -> tuple[float, float]:
    """(best seconds of the fresh fill, best seconds of sinusoidal_pe float64), interleaved."""
    import numpy as np

    from numeric import sinusoidal_pe

    n, d = TABLE_SHAPE
    sinusoidal_pe(8, d)  # the per-(d_model, base) caches: filled untimed, as any second call finds
    times = round_times(
        {
            "fill": lambda: fresh_fill(n, d, np.float64),
            "table": lambda: sinusoidal_pe(n, d, dtype=np.float64),
        },
        n * d * 8,
        repeat,
    )
    return min(times["fill"]), min(times["table"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="rounds of the commands (best of)")
    parser.add_argument("--table-repeat", type=int, default=9, help="rounds of the table")
    parser.add_argument("--suite", action="store_true", help="also time the fast test suite")
    parser.add_argument("--suite-repeat", type=int, default=1, help="rounds that run the suite")
    args = parser.parse_args()
    before = load()

    commands = {
        SYMPY: [sys.executable, "-c", "import sympy"],
        "pe-proofs (module 10, the default run)": list(PE_PROOFS),
        "pe-proofs --module all": [*PE_PROOFS, "--module", "all"],
    }
    goals = {"pe-proofs (module 10, the default run)": 4.0, "pe-proofs --module all": 8.0}
    rounds_of = {}
    if args.suite:
        name = "fast test suite (python -m pytest -q)"
        commands[name] = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        goals[name] = 150.0
        rounds_of[name] = min(args.suite_repeat, args.repeat)
    times = command_times(commands, args.repeat, rounds_of)
    fill, table = table_times(args.table_repeat)
    after = load()

    met = {True: "met", False: "MISSED"}
    every = True
    base_wall, base_cpu = times[SYMPY]
    print(f"{'figure':<42}{'wall s':>8}{'cpu s':>8}{'wall ×':>8}{'cpu ×':>8}  goal")
    print(f"{SYMPY:<42}{base_wall:8.2f}{base_cpu:8.2f}{1:8.2f}{1:8.2f}  (yardstick)")
    for name, goal in goals.items():
        wall, cpu = times[name]
        wall_met, cpu_met = wall / base_wall <= goal, cpu / base_cpu <= goal
        every &= wall_met and cpu_met
        print(
            f"{name:<42}{wall:8.2f}{cpu:8.2f}{wall / base_wall:8.2f}{cpu / base_cpu:8.2f}"
            f"  ≤ {goal:g}×: wall {met[wall_met]}, cpu {met[cpu_met]}"
        )
    rate = fill / table
    every &= rate >= 0.8
    n, d = TABLE_SHAPE
    print(
        f"\nsinusoidal_pe({n}, {d}) float64: {table * 1e3:.1f} ms; np.empty + fill(0.5) of the "
        f"same shape: {fill * 1e3:.1f} ms\n  rate {rate:.0%} of the fresh-fill rate  "
        f"≥ 80%: {met[rate >= 0.8]}"
    )
    print(
        f"\ncommands best of {args.repeat} fresh processes, table best of {args.table_repeat}; "
        f"{os.cpu_count()} cores; load average before {before}, after {after}"
    )
    return 0 if every else 1


if __name__ == "__main__":
    raise SystemExit(main())
