"""Time numeric.audit_rope on a large float32 RoPE cache beside the check a user would write.

Run: python benchmarks/bench_rope_audit.py [--positions N] [--head-dim D] [--base B] [--repeat R]
Builds a (positions, head_dim) float32 rotate_half cache with numeric.rope.rope_cache (transformers'
float32 steps replayed) in a child process, saves cos and sin as .npy files, and times, rounds
interleaved:
- what `pe-proofs audit cos.npy sin.npy` does: the files opened with the audit's row readers
  (plain reads, bounded memory) and audit_rope, without and with the config: the convention,
  base, method and precision found by fitting, one pass over every row against the exact cache;
- audit_rope on the same files memory-mapped with np.load (the library called directly);
- what a user writes who already knows the config: the same cache recomputed in float64 NumPy
  and compared entry by entry (max |difference|), which names nothing and cannot tell a float32
  computation from a fault.
Prints the best and median of each with the ratio to the user's check, then the peak memory of
one `pe-proofs audit`-style run in a fresh process (ru_maxrss), and the audit's report.
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
from numeric.rope_audit.files import open_rope

_BUILD = """
import sys, numpy as np
from numeric.rope import rope_cache, rope_frequencies
n, d, base = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
cos, sin = rope_cache(rope_frequencies({"head_dim": d, "rope_theta": base}).inv_freq, n)
np.save(sys.argv[4], cos)
np.save(sys.argv[5], sin)
"""
_CHILD = """
import resource, sys
from numeric.rope_audit import audit_rope
from numeric.rope_audit.files import open_rope
cache = open_rope(sys.argv[1:3])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
audit_rope(cache.cos, cache.sin)
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
    """(peak RSS of a fresh process that opens the files as `pe-proofs audit` does and audits
    them, and its RSS once the files are open, before the audit), in MiB."""
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(cos_path), str(sin_path)],
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
    with tempfile.TemporaryDirectory() as folder:
        cos_path, sin_path = Path(folder) / "cos.npy", Path(folder) / "sin.npy"
        # The cache is built in a child, and the memory measured first, while this process is
        # small: a child's ru_maxrss starts from its parent's resident size at fork (Linux
        # keeps the high-water mark across exec).
        shape = (str(args.positions), str(args.head_dim), str(args.base))
        subprocess.run(
            [sys.executable, "-c", _BUILD, *shape, str(cos_path), str(sin_path)], check=True
        )
        audited, opened = peak_memory_mib(cos_path, sin_path)
        mapped = np.load(cos_path, mmap_mode="r"), np.load(sin_path, mmap_mode="r")
        audit_rope(mapped[0][:64], mapped[1][:64])  # imports before the clock starts
        files = [str(cos_path), str(sin_path)]

        def cli(**options: object) -> object:
            cache = open_rope(files)
            return audit_rope(cache.cos, cache.sin, **options)

        cases = {
            "row readers + audit_rope": cli,
            "row readers + audit_rope, config": lambda: cli(config=config),
            "np.load mmap + audit_rope": lambda: audit_rope(*mapped),
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
        print(
            f"peak memory of one audit with the row readers in a fresh process: {audited:.0f} MiB "
            f"(before the audit, files open: {opened:.0f} MiB)"
        )
        print()
        print("\n".join(audit_rope(*mapped).report_lines()))


if __name__ == "__main__":
    main()
