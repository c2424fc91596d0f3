"""Time fresh processes side by side: wall seconds and CPU seconds (user + system, children too).

The machine is shared, so each command runs `repeat` times interleaved with the others and the
best of each is kept; CPU seconds are less disturbed by other load than wall seconds.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PE_PROOFS = [sys.executable, "-m", "proofs"]


def run_once(argv: list[str]) -> tuple[float, float]:
    """(wall, cpu) seconds of one run of argv in a fresh process; RuntimeError if it fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {done.returncode}: {done.stderr[-500:]!r}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def best_of(commands: dict[str, list[str]], repeat: int) -> dict[str, tuple[float, float]]:
    """name -> (best wall, best cpu) over repeat interleaved rounds."""
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(repeat):
        for name, argv in commands.items():
            results[name].append(run_once(argv))
    return {
        name: (min(w for w, _ in runs), min(c for _, c in runs)) for name, runs in results.items()
    }


def report(results: dict[str, tuple[float, float]], base: str, goals: dict[str, float]) -> int:
    """Print each command's times and its ratio to base; 0 if every goal ratio is met, else 1."""
    bw, bc = results[base]
    ok = True
    print(f"{'command':<58} {'wall s':>8} {'cpu s':>8} {'wall ×':>8} {'cpu ×':>8}  goal")
    for name, (w, c) in results.items():
        goal = goals.get(name)
        met = goal is None or c / bc <= goal
        ok &= met
        mark = "" if goal is None else f"≤ {goal:g}× {'met' if met else 'MISSED'} (cpu)"
        print(f"{name:<58} {w:8.2f} {c:8.2f} {w / bw:8.2f} {c / bc:8.2f}  {mark}")
    print(f"(load average {os.getloadavg()[0]:.1f}; ratios are to {base!r})")
    return 0 if ok else 1
