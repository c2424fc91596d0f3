"""Seeded random points that respect each symbol's SymPy assumptions."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterable, Iterator

import sympy as sp

# A sampled value must satisfy every assumption the symbol carries; these are the ones
# the generator below aims at directly. Anything else is checked by rejection.
_MAX_TRIES = 200


def _candidate(symbol: sp.Symbol, rng: random.Random) -> sp.Expr:
    """One exact value drawn from the widest domain the symbol's assumptions allow."""
    a = symbol.assumptions0
    if a.get("integer"):
        lo, hi = -12, 12
        if a.get("positive"):
            lo = 1
        elif a.get("nonnegative"):
            lo = 0
        elif a.get("negative"):
            hi = -1
        elif a.get("nonpositive"):
            hi = 0
        n = rng.randint(lo, hi)
        if a.get("even"):
            n = 2 * n if n != 0 or not a.get("nonzero") else 2
        elif a.get("odd"):
            n = 2 * n + 1
        return sp.Integer(n)
    if a.get("real") or a.get("rational"):
        # 30 exact digits: the point is exact, so both precisions see the same number.
        scale = rng.choice((1, 1, 1, 10, 100)) * 10
        x = sp.Rational(rng.randint(-(10**30), 10**30), 10**30) * scale
        if a.get("positive") or a.get("nonnegative"):
            x = abs(x)
        elif a.get("negative") or a.get("nonpositive"):
            x = -abs(x)
        return x
    re = sp.Rational(rng.randint(-(10**30), 10**30), 10**30) * 3
    im = sp.Rational(rng.randint(-(10**30), 10**30), 10**30) * 3
    return re + sp.I * im


def large_points(
    symbols: Iterable[sp.Symbol], count: int, *, seed: int = 0
) -> list[dict[sp.Symbol, sp.Expr]]:
    """count points like sample_points' but with every real or complex symbol 10^4 to 10^8 times
    larger: a claim false only far out (a branch of the logarithm crossed at |y| > 52000) is seen
    there. Integer symbols keep their small values (they bound sums). Points whose values cannot
    meet a symbol's assumptions are left out.
    """
    rng = random.Random(f"large {seed}")
    ordered = sorted(set(symbols), key=symbol_order)
    points = []
    for _ in range(count):
        point = {}
        for s in ordered:
            value = sample_value(s, rng)
            if value is not None and not s.assumptions0.get("integer"):
                scaled = value * 10 ** rng.randint(4, 8)
                value = scaled if satisfies(s, scaled) else value
            if value is None:
                break
            point[s] = value
        else:
            points.append(point)
    return points


def satisfies(symbol: sp.Symbol, value: sp.Expr) -> bool:
    """True when value provably has every assumption the symbol carries (True or False)."""
    for name, wanted in symbol.assumptions0.items():
        if name in ("commutative",):
            continue
        have = getattr(value, "is_" + name, None)
        if have is not wanted:
            return False
    return True


def sample_value(symbol: sp.Symbol, rng: random.Random) -> sp.Expr | None:
    """A value for symbol satisfying its assumptions, or None if none was found."""
    for _ in range(_MAX_TRIES):
        value = _candidate(symbol, rng)
        if satisfies(symbol, value):
            return value
    return None


def symbol_order(symbol: sp.Symbol) -> tuple[str, str]:
    """A total order on symbols: by name, then by assumptions (two may share a name)."""
    return symbol.name, str(sorted(symbol.assumptions0.items()))


def sample_points(
    symbols: Iterable[sp.Symbol], *, seed: int = 0
) -> Iterator[dict[sp.Symbol, sp.Expr]]:
    """An endless stream of points (symbol -> exact value), reproducible from seed.

    Stops early if some symbol's assumptions cannot be met by the generator.
    """
    key = (tuple(sorted(set(symbols), key=symbol_order)), seed)
    with _LOCK:
        drawn = _DRAWN.pop(key, None) or ([], _draw(*key))
        _DRAWN[key] = drawn  # most recently used last
        while len(_DRAWN) > _KEEP_STREAMS:
            _DRAWN.pop(next(iter(_DRAWN)))
    points, source = drawn
    n = 0
    while True:
        with _LOCK:
            if n == len(points):
                point = next(source, None)
                if point is None:
                    return
                points.append(point)
            point = dict(points[n])
        yield point
        n += 1


# Every link of a run samples the same few symbol sets (pos, k, i, d_model) from seed 0, and
# checking a value against all of a symbol's assumptions is costly: each stream is drawn once
# and replayed. A lock keeps a stream whole when two threads read it.
_KEEP_STREAMS = 256
_DRAWN: dict[tuple, tuple[list[dict[sp.Symbol, sp.Expr]], Iterator]] = {}
_LOCK = threading.Lock()


def _draw(ordered: tuple[sp.Symbol, ...], seed: int) -> Iterator[dict[sp.Symbol, sp.Expr]]:
    rng = random.Random(seed)
    while True:
        point = {}
        for s in ordered:
            value = sample_value(s, rng)
            if value is None:
                return
            point[s] = value
        yield point
