"""Part 4 goal of issue 15: a whole cold `pe-proofs` run against a bare `import sympy`.

All run in fresh processes, interleaved, best of --repeat; the goal (at most 5×) is marked for
wall seconds (what a user waits) and CPU seconds (all work, the worker processes included)
separately. The same run in one process (--jobs 1) is printed for the record.
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
        {
            base: [sys.executable, "-c", "import sympy"],
            "pe-proofs (whole default run)": PE_PROOFS,
            # For the record: the same work in one process (no workers).
            "pe-proofs --jobs 1": [*PE_PROOFS, "--jobs", "1"],
        },
        args.repeat,
    )
    return report(results, base, {"pe-proofs (whole default run)": 5.0})


if __name__ == "__main__":
    raise SystemExit(main())
