"""Option parsers shared by several commands: each turns text into a checked value or fails in one line."""

from __future__ import annotations

import argparse
import math


def positive_even_int(text: str) -> int:
    """--d-model: a positive even integer."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive even integer, got {text!r}") from None
    if value < 2 or value % 2:
        raise argparse.ArgumentTypeError(f"must be a positive even integer, got {value}")
    if value > 4096:
        raise argparse.ArgumentTypeError(f"must be at most 4096 for symbolic proofs, got {value}")
    return value


def non_negative_int(text: str) -> int:
    """A count such as --max-len: an integer >= 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {value}")
    return value


def finite_float(text: str) -> float:
    """A finite real number such as --k."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
    return value


def base_value(text: str) -> float:
    """--base: a finite number greater than 1."""
    value = finite_float(text)
    if value <= 1:
        raise argparse.ArgumentTypeError(f"must be finite and greater than 1, got {text!r}")
    return value
