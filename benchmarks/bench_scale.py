"""Part 1 goals of issue 15, timed side by side in one run (fresh processes, best of --repeat):

  pe-proofs prove rotation --no-twin --d-model 4096   ≤ 10× the same at --d-model 8
  pe-proofs --d-model 512                             ≤ 3× the whole default run

Run: python benchmarks/bench_scale.py [--repeat R] [--d-model-max D]
--d-model-max D also times rotation at D (default 65536, the cap), for the record.
"""

from __future__ import annotations

import argparse

from process_time import PE_PROOFS, best_of, report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--d-model-max", type=int, default=65536)
    args = parser.parse_args()
    rotation = [*PE_PROOFS, "prove", "rotation", "--no-twin", "--d-model"]
    small = "prove rotation --no-twin --d-model 8"
    print("rotation alone:")
    code = report(
        best_of(
            {
                small: [*rotation, "8"],
                "prove rotation --no-twin --d-model 4096": [*rotation, "4096"],
                f"prove rotation --no-twin --d-model {args.d_model_max}": [
                    *rotation,
                    str(args.d_model_max),
                ],
            },
            args.repeat,
        ),
        small,
        {"prove rotation --no-twin --d-model 4096": 10.0},
    )
    print("\nwhole run:")
    code |= report(
        best_of(
            {
                "pe-proofs (default, d_model 8)": PE_PROOFS,
                "pe-proofs --d-model 512": [*PE_PROOFS, "--d-model", "512"],
            },
            args.repeat,
        ),
        "pe-proofs (default, d_model 8)",
        {"pe-proofs --d-model 512": 3.0},
    )
    return code


if __name__ == "__main__":
    raise SystemExit(main())
