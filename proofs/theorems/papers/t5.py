"""Raffel et al. 2020 (T5), §2.1, and transformers' T5Attention._relative_position_bucket.

The paper: 32 embeddings "with ranges that increase in size logarithmically up to an offset of
128 beyond which we assign all relative positions to the same embedding". The code
(bidirectional, num_buckets = 32, max_distance = 128): 16 buckets per direction, distances
r < 8 exact, else bucket 8 + trunc(ln(r/8)/ln(16)·8), capped at 15, computed in float32.

Exactly, bucket k ≥ 8 starts at the least integer r ≥ 8·2^((k − 8)/2), so the last bucket (15)
starts at ⌈64·√2⌉ = 91, not 128. The float32 boundaries are computed the way transformers does
(NumPy float32: r/8, its log, divided by float32(ln 16), times 8, truncated) and compared with
the exact buckets, decided by balls (where r/8 is a power of 2, the value 2·log2(r/8) is an
exact integer, settled by exact arithmetic). At r = 16, 32 and 64 the float32 value is exactly 2, 4 and 6, as the exact
one is: NumPy's float32 log is correctly rounded there, and a log one ulp low (torch's on some
platform?) would put those distances one bucket down; the witness lists them.
"""

from __future__ import annotations

import math

import numpy as np
import sympy as sp
from flint import arb, fmpz

from proofs.engine.balls import precision
from proofs.engine.facts import Refutation
from proofs.theorems.papers.common.entry import Entry

NUM_BUCKETS = 32
MAX_DISTANCE = 128
HALF = NUM_BUCKETS // 2
MAX_EXACT = HALF // 2
SPAN = 512  # distances checked: 0 .. SPAN − 1, both signs


def float32_values(r: np.ndarray) -> np.ndarray:
    """ln(r/8)/ln(16)·8 in float32, the value the code truncates (r ≥ 8)."""
    scaled = np.log(np.asarray(r).astype(np.float32) / np.float32(MAX_EXACT))
    scaled = scaled / np.float32(math.log(MAX_DISTANCE / MAX_EXACT))
    return scaled * np.float32(HALF - MAX_EXACT)


def float32_buckets(distances: np.ndarray) -> np.ndarray:
    """The bucket of each relative position (key − query), as transformers computes it with
    float32 arithmetic (NumPy standing in for torch).

    >>> float32_buckets(np.array([-1, 0, 1, 90, 91, 128])).tolist()
    [1, 0, 17, 30, 31, 31]
    """
    rel = np.asarray(distances, dtype=np.int64)
    buckets = (rel > 0).astype(np.int64) * HALF
    r = np.abs(rel)
    with np.errstate(divide="ignore"):
        scaled = float32_values(r)
    large = MAX_EXACT + np.where(r < MAX_EXACT, 0, scaled).astype(np.int64)
    large = np.minimum(large, HALF - 1)
    return buckets + np.where(r < MAX_EXACT, r, large)


def exact_bucket(r: int) -> int:
    """The bucket of distance r ≥ 0 in exact arithmetic: floor(8·ln(r/8)/ln 16) + 8, capped.

    >>> [exact_bucket(r) for r in (7, 8, 15, 16, 90, 91)]
    [7, 8, 9, 10, 14, 15]
    """
    if r < MAX_EXACT:
        return r
    ratio = fmpz(r)
    # r/8 = 2^t exactly: the value 2t is an integer (ln 16 = 4 ln 2).
    if r % MAX_EXACT == 0 and (r // MAX_EXACT) & (r // MAX_EXACT - 1) == 0:
        value = 2 * ((r // MAX_EXACT).bit_length() - 1)
        return min(MAX_EXACT + value, HALF - 1)
    for bits in (64, 128, 256, 1024):
        with precision(bits):
            v = (arb(ratio) / MAX_EXACT).log() / arb(MAX_DISTANCE // MAX_EXACT).log()
            v = v * (HALF - MAX_EXACT)
        floor = v.floor()
        if floor.is_exact() or not v.contains_integer():
            return min(MAX_EXACT + int(floor.unique_fmpz()), HALF - 1)
    raise ArithmeticError(f"the bucket of {r} is not decided at 1024 bits")


def entries() -> list[Entry]:
    """Two entries: where the last bucket starts, and whether float32 moves a boundary."""
    distances = np.arange(-SPAN + 1, SPAN)
    code = float32_buckets(distances)
    exact = np.array([exact_bucket(abs(int(r))) + (HALF if r > 0 else 0) for r in distances])
    first_last = min(r for r in range(SPAN) if exact_bucket(r) == HALF - 1)
    moved = [int(r) for r, c, e in zip(distances, code, exact, strict=True) if c != e]
    # Where the float32 value lands exactly on a bucket's start below the cap, a log one ulp
    # low (another library's float32 log) would move the distance one bucket down.
    large = np.arange(MAX_EXACT + 1, SPAN)
    values = float32_values(large)
    on_boundary = [
        int(r)
        for r, v in zip(large, values, strict=True)
        if v == np.floor(v) and MAX_EXACT + v < HALF - 1
    ]
    paper = 'Raffel et al. 2020, "Exploring the Limits of Transfer Learning..." (T5)'
    code_note = "transformers T5Attention._relative_position_bucket(bidirectional=True, num_buckets=32, max_distance=128)"
    return [
        Entry(
            id="t5.buckets",
            paper=paper,
            where="§2.1; " + code_note,
            claim="bucket ranges increase logarithmically up to an offset of 128, beyond which all relative positions share one embedding",
            reading="the last bucket's first distance is 128 (the code's max_distance)",
            verdict="fails" if first_last != MAX_DISTANCE else "holds",
            witness={
                "first_distance_of_last_bucket": first_last,
                "exact": "ceil(8*2**(7/2)) = ceil(64*sqrt(2))",
                "claimed": MAX_DISTANCE,
                "bucket_starts": {
                    str(k): min(r for r in range(SPAN) if exact_bucket(r) == k)
                    for k in range(MAX_EXACT, HALF)
                },
            },
        ),
        Entry(
            id="t5.buckets.float32",
            paper=paper,
            where=code_note,
            claim="the float32 computation gives the buckets of the exact log formula",
            reading=f"relative positions -{SPAN - 1}..{SPAN - 1}; float32 as NumPy computes it",
            verdict="fails" if moved else "holds",
            witness={
                "distances_checked": [-SPAN + 1, SPAN - 1],
                "exactly_on_a_boundary": on_boundary,
                "moved": [
                    {"r": r, "float32": int(float32_buckets(np.array([r]))[0]), "exact": int(e)}
                    for r, e in ((r, exact[r + SPAN - 1]) for r in moved)
                ],
            },
        ),
    ]


def facts(found: list[Entry]) -> dict[str, Refutation]:
    """The last bucket's first distance r (when it is not 128): the claim that r, below 128,
    still lies in a bucket before the last, 8·ln(r/8)/ln 16 < 7, refuted. The float32 entry
    has no fact: the engine does not model NumPy's float32 log."""
    stated = {}
    for e in found:
        if e.id == "t5.buckets" and e.verdict == "fails":
            r = e.witness["first_distance_of_last_bucket"]
            value = (
                (HALF - MAX_EXACT)
                * sp.log(sp.Rational(r, MAX_EXACT))
                / sp.log(MAX_DISTANCE // MAX_EXACT)
            )
            stated[e.id] = Refutation(
                f"t5_distance_{r}_in_last_bucket",
                f"Distance {r} < {MAX_DISTANCE} lies in a bucket before the last: "
                f"8·ln({r}/8)/ln 16 < 7 (the paper's 'up to an offset of 128')",
                sp.Lt(value, HALF - 1 - MAX_EXACT, evaluate=False),
            )
    return stated
