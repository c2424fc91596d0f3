"""Time and measure `pe-proofs audit` on a large table beside the check a user would otherwise write.

Run: python benchmarks/bench_audit.py [--max-len N] [--d-model D] [--repeat R]
Writes a (max_len, d_model) float32 table with np.save, then runs, each in a fresh process, `repeat`
times interleaved, keeping the best: the naive check (np.load, the module's formula in float64,
max |table - reference|; it says nothing about the convention and needs the convention given) and
`pe-proofs audit FILE` (the whole audit: fit, name, measure, shift identity). Prints wall seconds,
peak memory (VmHWM) and the audit / naive ratio of each.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from numeric import sinusoidal_pe

ROOT = Path(__file__).resolve().parent.parent
# Each command runs in a child that resets its peak memory first (a process inherits the peak of
# the one that forked it) and prints the peak at the end.
_PEAK = """
import re, sys
with open("/proc/self/clear_refs", "w") as handle:
    handle.write("5")
{body}
status = open("/proc/self/status").read()
print(int(re.search(r"VmHWM:\\s+(\\d+)", status).group(1)) / 1024, file=sys.stderr)
"""
NAIVE = """
import numpy as np
from numeric import module_sinusoidal_pe
table = np.load(PATH)
reference = module_sinusoidal_pe(*table.shape)
print(float(np.max(np.abs(table - reference))))
"""
AUDIT = """
from proofs.cli.main import main
status = main(["audit", PATH])
"""


def run(body: str, path: Path) -> tuple[float, float]:
    """(wall seconds, peak MB) of body run in a fresh Python process."""
    code = _PEAK.format(body=body.replace("PATH", repr(str(path))))
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    wall = time.perf_counter() - start
    return wall, float(done.stderr.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-len", type=int, default=100_000)
    parser.add_argument("--d-model", type=int, default=1024)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n, d = args.max_len, args.d_model
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "table.npy"
        table = np.lib.format.open_memmap(path, mode="w+", dtype=np.float32, shape=(n, d))
        for a in range(0, n, 8192):
            table[a : a + 8192] = sinusoidal_pe(min(8192, n - a), d, start=a, dtype=np.float32)
        table.flush()
        del table
        cases = {"naive max |T - ref| (float64)": NAIVE, "pe-proofs audit": AUDIT}
        best = {name: (float("inf"), float("inf")) for name in cases}
        for _ in range(args.repeat):
            for name, body in cases.items():
                wall, peak = run(body, path)
                best[name] = (min(best[name][0], wall), min(best[name][1], peak))
        size = path.stat().st_size / 2**20
    naive_wall, naive_peak = best["naive max |T - ref| (float64)"]
    print(
        f"table ({n}, {d}) float32, {size:.0f} MiB on disk, best of {args.repeat} fresh processes"
    )
    print(f"{'method':<32}{'wall s':>8}{'x naive':>9}{'peak MB':>9}{'x naive':>9}")
    for name, (wall, peak) in best.items():
        print(
            f"{name:<32}{wall:>8.2f}{wall / naive_wall:>8.2f}x{peak:>9.0f}{peak / naive_peak:>8.2f}x"
        )
    print(json.dumps({k: {"wall": v[0], "peak_mb": v[1]} for k, v in best.items()}))


if __name__ == "__main__":
    main()
