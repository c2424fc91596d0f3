"""Issue 15 part 2: the nearest-rows and layouts twins on tables larger than 512 MiB, in bounded memory.

Runs numeric.checks.unique.nearest_rows_table and numeric.checks.layouts.layout_table, each in a
fresh process under /usr/bin/time -v (apt-get install -y time if it is missing), and prints the
peak resident set size beside a bare `import numpy` process, the size of the whole float64 table
(and, for the layouts, of the dense d_model × d_model P the twin used to build), and the ratios.
With --baseline DIR (another checkout's sources, e.g. `git archive main | tar -x -C /tmp/base`)
it also times `python -m proofs.cli.main prove layouts --d-model D --jobs 1` in both trees,
alternating, and prints the ratio this/baseline.
Run: python benchmarks/bench_memory_twins.py [--nearest-len N] [--nearest-d D] [--layout-d D]
[--layout-len M] [--baseline DIR] [--repeat R]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
from pathlib import Path

from bench_memory import LIMIT_MIB, peak_rss_mib, report
from bench_proof_run import seconds_in_tree

HERE = Path(__file__).resolve().parent.parent


def prove_seconds(tree: Path, d_model: int) -> float:
    """Wall seconds of `prove layouts --d-model d_model --jobs 1` with tree first on the path."""
    args = ["-m", "proofs.cli.main", "prove", "layouts", "--d-model", str(d_model), "--jobs", "1"]
    return seconds_in_tree(tree, args)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nearest-len", type=int, default=8_500_000)
    parser.add_argument("--nearest-d", type=int, default=8)
    parser.add_argument("--layout-d", type=int, default=16384)
    parser.add_argument("--layout-len", type=int, default=5000)
    parser.add_argument("--baseline", type=Path)
    parser.add_argument("--prove-d", type=int, default=4096)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    if shutil.which("/usr/bin/time") is None:
        print("/usr/bin/time is missing: apt-get install -y time", file=sys.stderr)
        return 2
    base_mib, _ = peak_rss_mib("import numpy")
    n, d = args.nearest_len, args.nearest_d
    nearest = report(
        f"nearest_rows_table(max_lens=({n},), d_model={d})",
        "from numeric.checks.unique import nearest_rows_table\n"
        f"t = nearest_rows_table(max_lens=({n},), d_model={d})\n"
        "assert t.passed, t.rows\n"
        "print(t.rows)",
        n * d * 8 / 2**20,
        base_mib,
    )
    ld, ln = args.layout_d, args.layout_len
    layout = report(
        f"layout_table(d_model={ld}, max_len={ln})",
        "from numeric.checks.layouts import layout_table\n"
        f"t = layout_table(d_model={ld}, max_len={ln})\n"
        "assert t.passed, t.rows",
        ln * ld * 8 / 2**20,
        base_mib,
    )
    print(f"  dense P alone       {ld * ld * 8 / 2**20:10.1f} MiB (no longer built)")
    if args.baseline is not None:
        times: dict[str, list[float]] = {"baseline": [], "this": []}
        for _ in range(args.repeat):
            times["baseline"].append(prove_seconds(args.baseline.resolve(), args.prove_d))
            times["this"].append(prove_seconds(HERE, args.prove_d))
        print(f"prove layouts --d-model {args.prove_d} --jobs 1, wall seconds:")
        for name, values in times.items():
            print(f"  {name:9s} median {statistics.median(values):7.2f} s  ({values})")
        ratio = statistics.median(times["this"]) / statistics.median(times["baseline"])
        print(f"  ratio this/baseline (median): {ratio:.3f}")
    return 0 if max(nearest, layout) <= LIMIT_MIB else 1


if __name__ == "__main__":
    raise SystemExit(main())
