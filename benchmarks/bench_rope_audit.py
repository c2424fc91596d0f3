"""Time numeric.audit_rope on a large float32 RoPE cache beside the check a user would write.

Run: python benchmarks/bench_rope_audit.py [--positions N] [--head-dim D] [--base B] [--repeat R]
Builds a (positions, head_dim) float32 rotate_half cache with numeric.rope.rope_cache (transformers'
float32 steps replayed), saves cos and sin as .npy files, and times, rounds interleaved:
- audit_rope on the memory-mapped files (what `pe-proofs audit` reads), without and with the
  config: the convention, base, method and precision found by fitting, one pass over every row
  against the exact cache;
- what a user writes who already knows the config: the same cache recomputed in float64 NumPy
  and compared entry by entry (max |difference|), which names nothing and cannot tell a float32
  computation from a fault.
Prints the best and median of each with the ratio to the user's check, then the peak memory of
one audit in a fresh process (ru_maxrss), and the audit's report.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from numeric import audit_rope
from numeric.rope import rope_cache, rope_frequencies

_CHILD = """
import resource, sys, numpy as np
from numeric import audit_rope
cos = np.load(sys.argv[1], mmap_mode="r"); sin = np.load(sys.argv[2], mmap_mode="r")
audit_rope(cos[:64], sin[:64])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
if sys.argv[3] == "audit":
    audit_rope(cos, sin)
print(before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def user_check(cos: np.ndarray, sin: np.ndarray, base: float) -> float:
    """The careful user's check: float64 reference from the known base, max |difference|."""
    n, d = cos.shape
    inv = 1.0 / base ** (np.arange(0, d, 2, dtype=np.float64) / d)
    worst = 0.0
    for a in range(0, n, 8192):
        angles = np.outer(np.arange(a, min(n, a + 8192), dtype=np.float64), inv)
        emb = np.concatenate([angles, angles], axis=-1)
        worst = max(worst, float(np.abs(np.cos(emb) - cos[a : a + 8192]).max()))
        worst = max(worst, float(np.abs(np.sin(emb) - sin[a : a + 8192]).max()))
    return worst


def peak_memory_mib(cos_path: Path, sin_path: Path) -> tuple[float, float]:
    """(peak RSS of a fresh process that audits the memory-mapped files, and its RSS once
    imported, before the audit), in MiB. Pages of a mapped file that were read count in RSS."""
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(cos_path), str(sin_path), "audit"],
        check=True,
        capture_output=True,
        text=True,
    )
    before, after = (int(v) / 1024 for v in done.stdout.split())
    return after, before


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=131072)
    parser.add_argument("--head-dim", type=int, default=128)
    parser.add_argument("--base", type=float, default=500000.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    config = {"head_dim": args.head_dim, "rope_theta": args.base}
    cos, sin = rope_cache(rope_frequencies(config).inv_freq, args.positions)
    with tempfile.TemporaryDirectory() as folder:
        cos_path, sin_path = Path(folder) / "cos.npy", Path(folder) / "sin.npy"
        np.save(cos_path, cos)
        np.save(sin_path, sin)
        del cos, sin
        mapped = np.load(cos_path, mmap_mode="r"), np.load(sin_path, mmap_mode="r")
        audit_rope(mapped[0][:64], mapped[1][:64])  # imports before the clock starts
        cases = {
            "audit_rope(cos, sin)": lambda: audit_rope(*mapped),
            "audit_rope(cos, sin, config=...)": lambda: audit_rope(*mapped, config=config),
            "user: float64 recompute + compare": lambda: user_check(*mapped, args.base),
        }
        times: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.repeat):
            for name, run in cases.items():
                start = time.perf_counter()
                run()
                times[name].append(time.perf_counter() - start)
        user = min(times["user: float64 recompute + compare"])
        print(
            f"cache ({args.positions}, {args.head_dim}) float32 x 2 (cos, sin), "
            f"{2 * args.positions * args.head_dim * 4 / 2**20:.0f} MiB, memory-mapped .npy; "
            f"{args.repeat} rounds"
        )
        print(f"{'method':<36}{'best s':>8}{'median s':>10}{'x user':>8}")
        for name, runs in times.items():
            best = min(runs)
            print(f"{name:<36}{best:>8.2f}{statistics.median(runs):>10.2f}{best / user:>8.2f}")
        audited, imported = peak_memory_mib(cos_path, sin_path)
        print(
            f"peak memory of one audit in a fresh process: {audited:.0f} MiB "
            f"(importing alone: {imported:.0f} MiB)"
        )
        print()
        print("\n".join(audit_rope(*mapped).report_lines()))


if __name__ == "__main__":
    main()
