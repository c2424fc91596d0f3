"""Side-by-side timing of numeric.rope.rope_cache against the NumPy code a user would write.

Run: python benchmarks/bench_rope_cache.py [--positions N] [--head-dim D] [--base B] [--repeat R]
Builds a (positions, head_dim) float32 rotate_half cos/sin cache four ways:
- numeric.rope.rope_cache, arithmetic "exact" (angles reduced without error, rounded once);
- numeric.rope.rope_cache, arithmetic "float32" (transformers' float32 steps replayed);
- the straightforward float32 code: inv_freq, outer product, cat(freqs, freqs), cos, sin;
- the same in float64, cast to float32 at the end.
Every method runs once per round, rounds interleaved so load from other processes hits all of
them alike; the best and median round are printed with the ratio to each plain version. Then
each cache's max error against mpmath (50 digits, the true θ_i = b^(−2i/d)) on sampled
positions, the last position included.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import mpmath
import numpy as np

from numeric.rope import rope_cache
from numeric.rope.scaling import default_frequencies


def plain_float32(n: int, d: int, base: float) -> tuple[np.ndarray, np.ndarray]:
    """What a user writes: everything in float32."""
    inv_freq = 1.0 / (np.float32(base) ** (np.arange(0, d, 2, dtype=np.float32) / np.float32(d)))
    freqs = np.outer(np.arange(n, dtype=np.float32), inv_freq)
    emb = np.concatenate([freqs, freqs], axis=-1)
    return np.cos(emb), np.sin(emb)


def plain_float64(n: int, d: int, base: float) -> tuple[np.ndarray, np.ndarray]:
    """The careful user: float64 throughout, cast to float32 at the end."""
    inv_freq = 1.0 / (base ** (np.arange(0, d, 2, dtype=np.float64) / d))
    freqs = np.outer(np.arange(n, dtype=np.float64), inv_freq)
    emb = np.concatenate([freqs, freqs], axis=-1)
    return np.cos(emb).astype(np.float32), np.sin(emb).astype(np.float32)


def round_times(cases: dict[str, Callable[[], object]], repeat: int) -> dict[str, list[float]]:
    """Each case's seconds over `repeat` rounds; a round runs every case once, in turn."""
    times: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(repeat):
        for name, make in cases.items():
            start = time.perf_counter()
            result = make()
            times[name].append(time.perf_counter() - start)
            del result
    return times


def max_error(
    cos: np.ndarray, sin: np.ndarray, positions: np.ndarray, d: int, base: float
) -> float:
    """Largest |entry − exact| over the sampled rows and every column, exact from mpmath."""
    worst = mpmath.mpf(0)
    with mpmath.workdps(50):
        thetas = [mpmath.power(mpmath.mpf(base), -mpmath.mpf(2 * i) / d) for i in range(d // 2)]
        for p in positions:
            for i, theta in enumerate(thetas):
                angle = int(p) * theta
                c, s = mpmath.cos(angle), mpmath.sin(angle)
                for column in (i, i + d // 2):
                    worst = max(worst, abs(mpmath.mpf(float(cos[p, column])) - c))
                    worst = max(worst, abs(mpmath.mpf(float(sin[p, column])) - s))
    return float(worst)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=131072)
    parser.add_argument("--head-dim", type=int, default=128)
    parser.add_argument("--base", type=float, default=10000.0)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--samples", type=int, default=48)
    args = parser.parse_args()
    n, d, base = args.positions, args.head_dim, args.base
    exact64 = default_frequencies(d, base)
    replay32 = default_frequencies(d, base, arithmetic="float32")
    cases: dict[str, Callable[[], tuple[np.ndarray, np.ndarray]]] = {
        "numeric.rope, exact": lambda: rope_cache(exact64, n, arithmetic="exact"),
        "numeric.rope, float32 replay": lambda: rope_cache(replay32, n, arithmetic="float32"),
        "plain NumPy, float32": lambda: plain_float32(n, d, base),
        "plain NumPy, float64 then cast": lambda: plain_float64(n, d, base),
    }
    times = round_times(cases, args.repeat)
    best = {name: min(t) for name, t in times.items()}
    print(
        f"({n}, {d}) float32 cos and sin caches, rotate_half, b = {base:g}; {args.repeat} interleaved rounds"
    )
    print(
        f"{'method':32s} {'best s':>8s} {'median s':>9s} {'÷ plain f32':>12s} {'÷ plain f64':>12s}"
    )
    for name, t in times.items():
        print(
            f"{name:32s} {best[name]:8.4f} {statistics.median(t):9.4f} "
            f"{best[name] / best['plain NumPy, float32']:12.2f} {best[name] / best['plain NumPy, float64 then cast']:12.2f}"
        )
    rng = np.random.default_rng(0)
    positions = np.unique(np.append(rng.integers(0, n, args.samples - 1), n - 1))
    print(
        f"\nmax |entry − exact| over {positions.size} sampled positions (last = {n - 1}), all {d} columns, mpmath 50 digits"
    )
    for name, make in cases.items():
        cos, sin = make()
        print(f"{name:32s} {max_error(cos, sin, positions, d, base):.3e}")
    print(f"(float32 rounds a value in [-1, 1] by up to {2.0**-25:.3e})")


if __name__ == "__main__":
    main()
