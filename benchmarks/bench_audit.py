"""Time numeric.audit on a large float32 table beside the raw cost of making such a table.

Run: python benchmarks/bench_audit.py [--max-len N] [--d-model D] [--repeat R]
Prints the best time of audit(table), of the module's formula filling the same table
(module_sinusoidal_pe, float64, then cast to float32) and of sinusoidal_pe(dtype=float32), the
ratio audit / generation, and what the audit found.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from numeric import audit, module_sinusoidal_pe, sinusoidal_pe


def best_time(run: Callable[[], object], repeat: int) -> float:
    """Fastest of `repeat` calls of run, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
        del result
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-len", type=int, default=100_000)
    parser.add_argument("--d-model", type=int, default=1024)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n, d = args.max_len, args.d_model
    table = sinusoidal_pe(n, d, dtype=np.float32)
    cases: dict[str, Callable[[], object]] = {
        "module_sinusoidal_pe -> float32": lambda: module_sinusoidal_pe(n, d).astype(np.float32),
        "sinusoidal_pe float32": lambda: sinusoidal_pe(n, d, dtype=np.float32),
        "audit(table)": lambda: audit(table),
    }
    times = {name: best_time(run, args.repeat) for name, run in cases.items()}
    module = times["module_sinusoidal_pe -> float32"]
    print(f"table ({n}, {d}) float32, {table.nbytes / 2**20:.0f} MiB, best of {args.repeat}")
    print(f"{'method':<34}{'seconds':>9}{'x module formula':>18}")
    for name, t in times.items():
        print(f"{name:<34}{t:>9.2f}{t / module:>17.1f}x")
    print()
    print("\n".join(audit(table).report_lines()))


if __name__ == "__main__":
    main()
