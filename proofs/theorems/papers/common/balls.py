"""Ball helpers for the ledger: exact rationals as balls, a sign decided by a ball, and a
ball's text.

>>> from flint import arb
>>> sign(arb(2).sqrt() - 1)
1
>>> enclosure(arb(1) / 3, 10)
'[0.3333333333 +/- 3.34e-11]'
"""

from __future__ import annotations

from flint import arb, fmpq, fmpz

from proofs.engine.balls import precision

# The precisions tried in turn before a sign is left undecided.
PRECISIONS = (128, 256, 512, 1024)


def ball(value: int | fmpq) -> arb:
    """An exact integer or rational as a (zero-radius) ball."""
    return arb(fmpz(value)) if isinstance(value, int) else arb(value)


def sign(x: arb) -> int | None:
    """1 or -1 when the ball excludes 0, else None (undecided at this precision)."""
    if x > 0:
        return 1
    if x < 0:
        return -1
    return None


def decided_sign(compute, precisions: tuple[int, ...] = PRECISIONS) -> tuple[int | None, arb]:
    """The sign of compute() (a function returning a ball at the current precision), raising the
    precision until the ball excludes 0; (None, last ball) when no precision decides."""
    value = arb(0)
    for bits in precisions:
        with precision(bits):
            value = compute()
        s = sign(value)
        if s is not None:
            return s, value
    return None, value


def enclosure(x: arb, digits: int = 20) -> str:
    """flint's rigorous text of the ball: '[mid +/- radius]' (or an exact number)."""
    return x.str(digits, radius=True)
