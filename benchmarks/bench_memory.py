"""Part 2 goal of issue 15: the rotation twin on a (1_000_000, 1024) table within 512 MiB peak RSS.

Runs numeric.checks.rotation.rotation_table(max_len=M, d_model=D) in a fresh process under
/usr/bin/time -v (apt-get install -y time if it is missing) and prints its peak resident set
size, beside a bare `import numpy` process and the size the whole float64 table would take,
and the ratios. Run: python benchmarks/bench_memory.py [--max-len M] [--d-model D]
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import time

LIMIT_MIB = 512.0


def peak_rss_mib(code: str) -> tuple[float, float]:
    """(peak RSS in MiB, wall seconds) of `python -c code` measured by /usr/bin/time -v."""
    start = time.perf_counter()
    done = subprocess.run(
        ["/usr/bin/time", "-v", sys.executable, "-c", code], capture_output=True, text=True
    )
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{code!r} failed: {done.stderr[-800:]}")
    kib = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    if kib is None:
        raise RuntimeError("no 'Maximum resident set size' in /usr/bin/time -v output")
    return int(kib.group(1)) / 1024, wall


def report(name: str, code: str, table_mib: float, base_mib: float) -> float:
    """Run code in a fresh process; print its peak RSS beside the whole table's size."""
    twin_mib, wall = peak_rss_mib(code)
    print(f"{name}: passed in {wall:.1f} s")
    print(f"  peak RSS            {twin_mib:10.1f} MiB")
    print(f"  bare `import numpy` {base_mib:10.1f} MiB")
    print(f"  whole float64 table {table_mib:10.1f} MiB (never held)")
    print(
        f"  peak / limit        {twin_mib / LIMIT_MIB:10.3f}  (goal ≤ 1, limit {LIMIT_MIB:g} MiB)"
    )
    print(f"  peak / whole table  {twin_mib / table_mib:10.4f}")
    return twin_mib


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-len", type=int, default=1_000_000)
    parser.add_argument("--d-model", type=int, default=1024)
    args = parser.parse_args()
    if shutil.which("/usr/bin/time") is None:
        print("/usr/bin/time is missing: apt-get install -y time", file=sys.stderr)
        return 2
    twin = (
        "from numeric.checks.rotation import rotation_table\n"
        f"t = rotation_table(max_len={args.max_len}, d_model={args.d_model})\n"
        "assert t.passed, t.rows"
    )
    base_mib, _ = peak_rss_mib("import numpy")
    table_mib = args.max_len * args.d_model * 8 / 2**20
    name = f"rotation_table(max_len={args.max_len}, d_model={args.d_model})"
    twin_mib = report(name, twin, table_mib, base_mib)
    return 0 if twin_mib <= LIMIT_MIB else 1


if __name__ == "__main__":
    raise SystemExit(main())
