"""Side-by-side wall time of the whole proof run (`python -m proofs`), this tree against a baseline.

Run: python benchmarks/bench_proof_run.py BASELINE_DIR [--repeat R] [--jobs J]
BASELINE_DIR holds another checkout's sources (e.g. `git archive d7af6b9 | tar -x -C /tmp/base`).
Both runs use this interpreter; they alternate, so a change in the machine's load hits both.
Prints each tree's best and median times and the ratio this/baseline (below 1: faster).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def run_once(tree: Path, jobs: int) -> float:
    """Seconds for one `python -m proofs --jobs J` with tree first on the import path."""
    return seconds_in_tree(tree, ["-m", "proofs", "--jobs", str(jobs)])


def seconds_in_tree(tree: Path, args: list[str]) -> float:
    """Wall seconds of `python args` run in tree with tree first on the import path."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *args], cwd=tree, env=env, capture_output=True, text=True, check=False
    )
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(
            f"{tree}: exit {done.returncode}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
        )
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("baseline", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    times: dict[str, list[float]] = {"baseline": [], "this": []}
    for _ in range(args.repeat):
        times["baseline"].append(run_once(args.baseline.resolve(), args.jobs))
        times["this"].append(run_once(HERE, args.jobs))
    for name, values in times.items():
        print(f"{name:9s} best {min(values):6.2f} s  median {statistics.median(values):6.2f} s")
    ratio = statistics.median(times["this"]) / statistics.median(times["baseline"])
    print(f"ratio this/baseline (median): {ratio:.2f}")


if __name__ == "__main__":
    main()
