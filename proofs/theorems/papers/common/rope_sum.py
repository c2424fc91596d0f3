"""Men et al.'s criterion, decided over every integer m: B(m) = Σ_{i<d/2} cos(m·θ_i) ≥ 0 with
θ_i = b^(−2i/d), b an exact rational.

The sweep is a float64 pass over every m with a rigorous error bound, and a certified arb
evaluation wherever the float64 value lies within that bound of zero. A chunk of positions
m = m0 + k, k = 0 … CHUNK − 1, is one matrix product: cos((m0 + k)·θ) = cos(m0·θ)·cos(k·θ) −
sin(m0·θ)·sin(k·θ), so B over the chunk is C·c − S·s with C[k, i] = cos(k·θ_i) and
S[k, i] = sin(k·θ_i) computed once per sweep, c = cos(m0·θ) and s = sin(m0·θ). The bound for
m ≤ M:

- θ̃_i, the float64 of θ_i, is the nearest double to an arb ball; |θ̃_i − θ_i| ≤ δ_i with δ_i
  read off the ball (rigorous). So |(m0 + k)·θ̃_i − m·θ_i| ≤ M·δ_i.
- the arguments fl(m0·θ̃_i) and fl(k·θ̃_i) are each rounded once (m0, k are exact doubles):
  together at most M·θ̃_i·2^−53 off, and cos(a + b) is 1-Lipschitz in a + b.
- the library's cos and sin at x are within COS_ERROR + |x|·REDUCTION of the true values: an
  allowance of 2^−40 (about 2000 ulps; glibc and SIMD libms claim ≤ 4) plus 2^−50 relative to
  the argument for the reduction, which covers even a reduction by a double-precision 2π. Four
  such values enter each term (each multiplied by a factor of magnitude ≤ 1 + 2^−40). This is
  the one assumption about the machine; tests/theorems/papers check it against arb at the
  largest arguments used.
- the two matrix-vector products of n = d/2 products each, and their difference, in any order
  and with or without FMA: ≤ (2n)²·2^−52.

So |B̃(m) − B(m)| ≤ E(M) = (1 + 2^−30)·(Σ_i [M·(δ_i + θ̃_i·(2^−53 + 2·2^−50)) + 4·2^−40] +
(2n)²·2^−52), computed in float64 and rounded up by the factor. A float64 value above E(M) is
certified positive, below −E(M) negative (and a failing m is always confirmed by its arb ball,
so a `fails` never rests on the libm allowance), and every other m is evaluated in arb at 128 to
1024 bits (undecided if no precision separates it from 0). Memory: two CHUNK × n
matrices per sweep.

>>> from flint import fmpq
>>> Criterion(fmpq(10000)).first_failure(100000)[0]
1707
"""

from __future__ import annotations

import math

import numpy as np
from flint import arb, fmpq

from proofs.engine.balls import precision
from proofs.theorems.papers.common.balls import PRECISIONS, ball, sign

DIM = 128
CHUNK = 1024
# Where a chunk near the top of the range is tried first: failures of bases near the bound
# sit near the end of the range, and one found there settles a verdict without the full sweep.
PROBE = 8192
COS_ERROR = 2.0**-40
REDUCTION = 2.0**-50
UNIT = 2.0**-53


class Criterion:
    """B(m) ≥ 0 for one base b at head dimension dim, decided incrementally: holds_to is the
    largest H such that every m ≤ H has been swept with no certified failure; fail_at the
    smallest certified failing m known (the first one when first_known); undecided the m the
    sweep could not decide."""

    def __init__(self, base: fmpq, dim: int = DIM) -> None:
        if dim < 2 or dim % 2:
            raise ValueError(f"dim must be an even integer >= 2, got {dim}")
        if not base > 0:
            raise ValueError(f"base must be positive, got {base}")
        self.base = base
        self.dim = dim
        self.pairs = dim // 2
        self._thetas: dict[int, list[arb]] = {}
        balls = self._theta_balls(PRECISIONS[0])
        self.theta = np.array([float(t.mid()) for t in balls])
        # δ_i ≥ |θ̃_i − θ_i|, rounded up.
        self.delta = np.array(
            [
                math.nextafter(float((arb(f) - t).abs_upper()), math.inf) * (1 + 2**-50)
                for f, t in zip(self.theta, balls, strict=True)
            ]
        )
        self.holds_to = -1
        self.fail_at: int | None = None
        self.first_known = False
        self.undecided: list[int] = []
        self._values: dict[int, arb] = {}

    def _theta_balls(self, bits: int) -> list[arb]:
        if bits not in self._thetas:
            with precision(bits):
                log_b = ball(self.base).log()
                self._thetas[bits] = [
                    (-(arb(2 * i) / self.dim) * log_b).exp() for i in range(self.pairs)
                ]
        return self._thetas[bits]

    def error_bound(self, top: int) -> float:
        """E(top): the float64 pass's error bound for every m ≤ top (see the module's text)."""
        per_term = top * (self.delta + self.theta * (UNIT + 2 * REDUCTION)) + 4 * COS_ERROR
        total = float(np.sum(per_term)) + (2 * self.pairs) ** 2 * 2.0**-52
        return total * (1 + 2**-30)

    def value(self, m: int) -> tuple[int | None, arb]:
        """The certified sign of B(m) and its ball (raising the precision as needed)."""
        result: tuple[int | None, arb] = (None, arb(0))
        for bits in PRECISIONS:
            thetas = self._theta_balls(bits)
            with precision(bits):
                total = sum(((arb(m) * t).cos() for t in thetas), arb(0))
            result = (sign(total), total)
            if result[0] is not None:
                break
        self._values[m] = result[1]
        return result

    def ball_at(self, m: int) -> arb:
        """B(m) as a ball (computed on demand)."""
        return self._values[m] if m in self._values else self.value(m)[1]

    def _scan(self, lo: int, hi: int) -> tuple[int | None, list[int]]:
        """The first certified failure in [lo, hi] (or None) and the undecided m before it."""
        undecided: list[int] = []
        steps = np.multiply.outer(np.arange(min(CHUNK, hi - lo + 1), dtype=np.float64), self.theta)
        cos_steps, sin_steps = np.cos(steps), np.sin(steps)
        for start in range(lo, hi + 1, CHUNK):
            stop = min(start + CHUNK - 1, hi)
            count = stop - start + 1
            at = start * self.theta
            sums = cos_steps[:count] @ np.cos(at) - sin_steps[:count] @ np.sin(at)
            bound = self.error_bound(stop)
            negative = np.flatnonzero(sums < -bound)
            end = negative[0] if negative.size else sums.size
            near = np.flatnonzero(np.abs(sums[:end]) <= bound)
            for k in near:
                s, _ = self.value(start + int(k))
                if s == -1:
                    return start + int(k), undecided
                if s is None:
                    undecided.append(start + int(k))
            if negative.size:
                m = start + int(negative[0])
                # A failure is reported with its ball, so it never rests on the libm allowance.
                if self.value(m)[0] != -1:
                    raise ArithmeticError(
                        f"B({m}) for base {self.base}: the float64 pass says negative beyond its "
                        "error bound and arb does not agree; the library's cos or sin is less "
                        "accurate than the bound assumes"
                    )
                return m, undecided
        return None, undecided

    def _extend(self, n: int) -> None:
        """Sweep upwards from holds_to + 1 to n, or to the first failure."""
        top = n if self.fail_at is None else min(n, self.fail_at - 1)
        if top <= self.holds_to:
            if self.fail_at is not None and self.fail_at == self.holds_to + 1:
                self.first_known = True
            return
        found, undecided = self._scan(self.holds_to + 1, top)
        self.undecided += undecided
        if found is None:
            self.holds_to = top
            if self.fail_at is not None and self.fail_at == top + 1:
                self.first_known = True
        else:
            self.holds_to = found - 1
            self.fail_at = found
            self.first_known = True

    def decide(self, n: int, *, first: bool = False) -> tuple[str, int | None]:
        """The verdict on 'B(m) ≥ 0 for every integer m in [0, n]' and its witness m (a failing m,
        the first one if first; an undecided m; or None when it holds)."""
        if self.fail_at is not None and self.fail_at <= n and (self.first_known or not first):
            return "fails", self.fail_at
        if not first and self.fail_at is None and n - PROBE > self.holds_to:
            found, _ = self._scan(n - PROBE + 1, n)
            if found is not None:
                self.fail_at = found
                return "fails", found
        self._extend(n)
        if self.fail_at is not None and self.fail_at <= n:
            return "fails", self.fail_at
        pending = [m for m in self.undecided if m <= n]
        if pending:
            return "undecided", pending[0]
        return "holds", None

    def first_failure(self, n: int) -> tuple[int | None, arb | None]:
        """The first m in [0, n] with B(m) certified negative, and B(m)'s ball; (None, None) if
        none (the criterion holds on [0, n], or is undecided at self.undecided)."""
        verdict, m = self.decide(n, first=True)
        if verdict != "fails" or m is None:
            return None, None
        return m, self.ball_at(m)
