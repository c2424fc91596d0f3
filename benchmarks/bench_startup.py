"""Issue 19's goal: `pe-proofs --version` (and --help) in less than half of a bare `import sympy`.

All run in fresh processes, interleaved, best of --repeat; the ratio to `import sympy` is
printed for wall and CPU seconds, with the goal (at most 0.5×) marked.
Run: python benchmarks/bench_startup.py [--repeat R]
"""

from __future__ import annotations

import argparse
import sys

from process_time import PE_PROOFS, best_of, report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    base = "python -c 'import sympy'"
    results = best_of(
        {
            base: [sys.executable, "-c", "import sympy"],
            "pe-proofs --version": [*PE_PROOFS, "--version"],
            "pe-proofs --help": [*PE_PROOFS, "--help"],
        },
        args.repeat,
    )
    return report(results, base, {"pe-proofs --version": 0.5, "pe-proofs --help": 0.5})


if __name__ == "__main__":
    raise SystemExit(main())
