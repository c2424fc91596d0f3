"""Side-by-side timing of numeric.sinusoidal_pe against the module's formula, PyTorch and a plain fill.

Run: python benchmarks/bench_tables.py [--max-len N] [--d-model D] [--repeat R]
Every method runs once per round, rounds interleaved so load from other processes hits all
of them alike; each method's best round (and median) is printed with the speed-up over the
module's function and over PyTorch's usual float32 code, and the fraction of the rate of filling
a fresh array of the same size and dtype (the write-bandwidth limit). Then each table's max
error against mpmath.
PyTorch is optional (benchmark only): without it its rows are skipped.
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable

import numpy as np
from fill_rate import fresh_fill, round_times

from numeric import max_abs_error, module_sinusoidal_pe, sinusoidal_pe
from numeric.precision import default_dims, sample_positions
from numeric.tables import thread_count

try:
    import torch
except ImportError:
    torch = None

# Our time must be at most the fresh fill's time / GOAL.
GOAL = 0.8


def torch_pe(max_len: int, d_model: int):
    """The Annotated Transformer's PositionalEncoding table: float32 all the way."""
    pe = torch.zeros(max_len, d_model)
    position = torch.arange(0, max_len).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2) * -(math.log(10000.0) / d_model))
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-len", type=int, default=100_000)
    parser.add_argument("--d-model", type=int, default=512)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    n, d = args.max_len, args.d_model
    touched = {dtype: np.ones((n, d), dtype=dtype) for dtype in (np.float64, np.float32)}
    cases: dict[str, Callable[[], object]] = {}
    groups: dict[str, list[str]] = {"float64": [], "float32": []}
    for dtype, group in ((np.float64, "float64"), (np.float32, "float32")):
        named = {
            f"fill a fresh {group} array": lambda dtype=dtype: fresh_fill(n, d, dtype),
            f"fill a touched {group} array": lambda dtype=dtype: touched[dtype].fill(0.5),
            f"sinusoidal_pe {group}, all threads": lambda dtype=dtype: sinusoidal_pe(
                n, d, dtype=dtype
            ),
            f"sinusoidal_pe {group}, threads=1": lambda dtype=dtype: sinusoidal_pe(
                n, d, dtype=dtype, threads=1
            ),
            f"sinusoidal_pe {group} concatenated": lambda dtype=dtype: sinusoidal_pe(
                n, d, dtype=dtype, layout="concatenated"
            ),
        }
        if group == "float64":
            named["module_sinusoidal_pe (float64)"] = lambda: module_sinusoidal_pe(n, d)
        elif torch is not None:
            named["torch Annotated Transformer (float32)"] = lambda: torch_pe(n, d)
        cases.update(named)
        groups[group] = list(named)
    sinusoidal_pe(8, d)  # frequency and offset caches are per (d_model, base): fill them untimed
    nbytes = n * d * 8
    rounds = round_times(cases, nbytes, args.repeat)
    times = {name: min(t) for name, t in rounds.items()}

    print(
        f"table ({n}, {d}), {nbytes / 2**20:.0f} MiB in float64, best of {args.repeat} rounds; "
        f"all threads = {thread_count(None)}, numpy {np.__version__}, "
        f"load average {os.getloadavg()[0]:.1f} (a shared machine: expect noise)"
    )
    if torch is None:
        print("torch not installed, skipped")
    else:
        print(f"torch {torch.__version__} with {torch.get_num_threads()} threads")
    module = times["module_sinusoidal_pe (float64)"]
    torch_time = times.get("torch Annotated Transformer (float32)")
    for group, names in groups.items():
        fresh = times[f"fill a fresh {group} array"]
        print(
            f"\n{'method':<40}{'best ms':>8}{'median':>8}{'vs module':>11}{'vs torch f32':>14}"
            f"{'of fill rate':>14}"
        )
        for name in names:
            t = times[name]
            vs_torch = f"{torch_time / t:>13.2f}x" if torch_time else f"{'-':>14}"
            median = float(np.median(rounds[name]))
            print(
                f"{name:<40}{t * 1e3:>8.1f}{median * 1e3:>8.1f}{module / t:>10.1f}x{vs_torch}"
                f"{fresh / t:>14.0%}"
            )
        ours = times[f"sinusoidal_pe {group}, all threads"]
        verdict = "reached" if fresh / ours >= GOAL else "not reached"
        print(f"goal {GOAL:.0%} of the fresh-fill rate in {group}: {verdict} ({fresh / ours:.0%})")

    positions = sample_positions(n, 64).tolist()
    dims = list(default_dims(d))
    print(
        f"\nmax error against mpmath at {len(positions)} rows (the last included) x {len(dims)} dims"
    )
    tables = {
        "sinusoidal_pe float64": lambda: sinusoidal_pe(n, d),
        "sinusoidal_pe float32": lambda: sinusoidal_pe(n, d, dtype=np.float32),
        "module_sinusoidal_pe (float64)": lambda: module_sinusoidal_pe(n, d),
    }
    if torch is not None:
        tables["torch Annotated Transformer (float32)"] = lambda: torch_pe(n, d).numpy()
    for name, make in tables.items():
        error = max_abs_error(make()[np.ix_(positions, dims)], positions, dims, d)
        print(f"{name:<40}{error:>10.1e}")


if __name__ == "__main__":
    main()
