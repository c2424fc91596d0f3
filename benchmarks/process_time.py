"""Time fresh processes side by side: wall seconds and CPU seconds (user + system, children too).

The machine is shared, so each command runs `repeat` times interleaved with the others and the
best of each is kept; CPU seconds are less disturbed by other load than wall seconds.

Each command runs as a user's would, with Python's cache of compiled modules: pip compiled
SymPy's when it installed it, and an editable install compiles the project's on first use,
unless PYTHONDONTWRITEBYTECODE is set (as on some build machines). So the project's modules are
compiled once before timing (compileall) and the commands run without that variable.
"""

from __future__ import annotations

import compileall
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PE_PROOFS = [sys.executable, "-m", "proofs"]


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def compile_project() -> None:
    """The project's modules compiled into __pycache__, as their first use would leave them."""
    for package in ("proofs", "numeric"):
        compileall.compile_dir(ROOT / package, quiet=1)


def run_once(argv: list[str]) -> tuple[float, float]:
    """(wall, cpu) seconds of one run of argv in a fresh process; RuntimeError if it fails."""
    compile_project()  # a no-op once done: up-to-date files are skipped
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        argv, cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
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
    """Print each command's times and its ratios to base, with the goal marked met or missed for
    wall and CPU seconds separately; 0 if every goal is met in both, else 1."""
    bw, bc = results[base]
    ok = True
    print(f"{'command':<44} {'wall s':>7} {'cpu s':>7} {'wall ×':>7} {'cpu ×':>7}  goal")
    for name, (w, c) in results.items():
        goal = goals.get(name)
        mark = ""
        if goal is not None:
            wall_met, cpu_met = w / bw <= goal, c / bc <= goal
            ok &= wall_met and cpu_met
            words = {True: "met", False: "MISSED"}
            mark = f"≤ {goal:g}×: wall {words[wall_met]}, cpu {words[cpu_met]}"
        print(f"{name:<44} {w:7.2f} {c:7.2f} {w / bw:7.2f} {c / bc:7.2f}  {mark}")
    print(f"(load average {os.getloadavg()[0]:.1f}; ratios are to {base!r})")
    return 0 if ok else 1
