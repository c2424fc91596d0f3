"""Side-by-side timing of the numeric check's mpmath evaluation against the certified arb one.

Run: python benchmarks/bench_certified.py [--points N] [--repeat R]
The same ~50 link-shaped identities (pair rotations, 8-term sums of sines and cosines, dot
products of encodings) are evaluated at the same exact points by (a) sympy.lambdify with
mpmath at 60 and at 120 digits, as the numeric check did before its ball arithmetic, and (b) certify_difference at
256 bits (one ball evaluation per point, decision included). The check runs the 60-digit pass
only where the sides differ at 120, so the 120-only line is its best case. Compilation is done untimed for
both. Prints each method's best time, the ratio, and how many points each method decided.
"""

from __future__ import annotations

import argparse
import random
import time

import mpmath
import sympy as sp

from proofs.engine.certified import certify_difference

pos, k = sp.symbols("pos k", real=True)
D_MODEL = 512


def _omega(i: int) -> sp.Expr:
    return sp.Integer(10000) ** sp.Rational(-2 * i, D_MODEL)


def identities() -> list[tuple[str, sp.Expr, sp.Expr]]:
    """About 50 true identities shaped like the project's derivation links."""
    cases = []
    for i in range(0, 256, 16):  # 16 pair rotations, sine and cosine rows
        w = _omega(i)
        cases.append(
            (
                f"sin rotation i={i}",
                sp.sin((pos + k) * w),
                sp.sin(pos * w) * sp.cos(k * w) + sp.cos(pos * w) * sp.sin(k * w),
            )
        )
        cases.append(
            (
                f"cos rotation i={i}",
                sp.cos((pos + k) * w),
                sp.cos(pos * w) * sp.cos(k * w) - sp.sin(pos * w) * sp.sin(k * w),
            )
        )
    for start in range(0, 96, 8):  # 12 dot products of 8 pairs: sum of cos((pos-k)*w_i)
        ws = [_omega(i) for i in range(start, start + 8)]
        cases.append(
            (
                f"8-pair dot product from i={start}",
                sp.Add(
                    *(sp.sin(pos * w) * sp.sin(k * w) + sp.cos(pos * w) * sp.cos(k * w) for w in ws)
                ),
                sp.Add(*(sp.cos((pos - k) * w) for w in ws)),
            )
        )
    for start in range(0, 48, 8):  # 6 sums of 8 squared norms: each pair has norm 1
        ws = [_omega(i) for i in range(start, start + 8)]
        cases.append(
            (
                f"8-pair norm from i={start}",
                sp.Add(*(sp.sin(pos * w) ** 2 + sp.cos(pos * w) ** 2 for w in ws)),
                sp.Integer(8),
            )
        )
    return cases


def points(count: int, seed: int = 0) -> list[dict[sp.Symbol, sp.Rational]]:
    """Exact 30-digit rational points, as proofs/sampling.py draws them for real symbols."""
    rng = random.Random(seed)
    return [
        {s: sp.Rational(rng.randint(-(10**30), 10**30), 10**29) for s in (pos, k)}
        for _ in range(count)
    ]


def _mp(value: sp.Rational) -> mpmath.mpf:
    return mpmath.mpf(value.p) / value.q


def run_mpmath(cases, pts, precisions=(120, 60)) -> tuple[int, float]:
    """Both sides at each precision (digits) at every point: (points that agreed, seconds)."""
    funcs = [sp.lambdify((pos, k), [lhs, rhs], modules="mpmath") for _, lhs, rhs in cases]
    agreed = 0
    start = time.perf_counter()
    for f in funcs:
        for pt in pts:
            for dps in precisions:
                with mpmath.workdps(dps):
                    a, b = f(_mp(pt[pos]), _mp(pt[k]))
                    close = abs(a - b) <= mpmath.mpf(10) ** (20 - dps) * max(abs(a), 1)
            agreed += bool(close)
    return agreed, time.perf_counter() - start


def run_arb(cases, pts) -> tuple[int, float]:
    """One 256-bit ball evaluation and decision per point: (points that agreed, seconds)."""
    for _, lhs, rhs in cases:  # compile untimed, like lambdify above
        certify_difference(lhs, rhs, pts[0], budget_bits=256)
    agreed = 0
    start = time.perf_counter()
    for _, lhs, rhs in cases:
        for pt in pts:
            d = certify_difference(lhs, rhs, pt, start_bits=256, budget_bits=256)
            agreed += d.status == "agrees"
    return agreed, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=24)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    cases = identities()
    pts = points(args.points)
    total = len(cases) * len(pts)
    print(f"{len(cases)} identities x {len(pts)} points = {total} evaluations of both sides")
    results = {}
    runs = (
        ("mpmath 120+60 digits (lambdify)", run_mpmath),
        ("mpmath 120 digits only", lambda c, p: run_mpmath(c, p, (120,))),
        ("arb 256 bits (certify_difference)", run_arb),
    )
    for name, run in runs:
        best, agreed = float("inf"), 0
        for _ in range(args.repeat):
            agreed, seconds = run(cases, pts)
            best = min(best, seconds)
        results[name] = best
        print(f"{name:34s} {best:8.3f} s   agreed at {agreed}/{total} points")
    base, single, ours = results.values()
    print(
        f"ratio mpmath 120+60 / arb: {base / ours:.1f}x (120 digits only / arb: {single / ours:.1f}x)"
    )


if __name__ == "__main__":
    main()
