"""Time the whole `pe-proofs papers --json` run and its peak memory, in fresh processes.

Run: python benchmarks/bench_papers.py [--repeat R]
Prints the best and median wall and CPU seconds of R runs (the machine is shared: CPU seconds
are the steadier number), then the peak resident memory of one run (ru_maxrss of the child),
which bounds the Men et al. sweep's streaming (chunks of 8192 positions × 64 pairs).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess

from process_time import PE_PROOFS, ROOT, run_once


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    argv = [*PE_PROOFS, "papers", "--json"]
    runs = [run_once(argv) for _ in range(args.repeat)]
    walls, cpus = [w for w, _ in runs], [c for _, c in runs]
    print(f"pe-proofs papers --json, {args.repeat} runs")
    print(f"  wall: best {min(walls):.1f} s, median {statistics.median(walls):.1f} s")
    print(f"  cpu:  best {min(cpus):.1f} s, median {statistics.median(cpus):.1f} s")
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(f"  peak memory of one run: {max(peak, before) / 1024:.0f} MB (ru_maxrss)")


if __name__ == "__main__":
    main()
