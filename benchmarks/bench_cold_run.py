"""Part 4 goal of issue 15: a whole cold `pe-proofs` run against a bare `import sympy`.

Both run in fresh processes, interleaved, best of --repeat; the ratio printed is the goal's
(at most 5×). CPU seconds count the worker processes too; wall seconds show what a user waits.
Run: python benchmarks/bench_cold_run.py [--repeat R]
"""

from __future__ import annotations

import argparse
import sys

from process_time import PE_PROOFS, best_of, report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    base = "python -c 'import sympy'"
    results = best_of(
        {base: [sys.executable, "-c", "import sympy"], "pe-proofs (whole default run)": PE_PROOFS},
        args.repeat,
    )
    return report(results, base, {"pe-proofs (whole default run)": 5.0})


if __name__ == "__main__":
    raise SystemExit(main())
