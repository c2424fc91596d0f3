"""How large the numbers in a parsed expression are, or could become: estimates in bits.

The safe parser refuses an expression whose numbers could grow past its limits before SymPy
builds them (9**9**9**9, exp(10**30), (2**pos)**(10**10/pos)); these are its estimates.
"""

from __future__ import annotations

import math

import sympy as sp


def rational_bits(value: sp.Rational) -> float:
    """log2 of numerator plus denominator magnitudes: the size of the number in bits."""
    numerator, denominator = abs(int(value.p)), int(value.q)
    return (math.log2(numerator) if numerator > 1 else 0.0) + (
        math.log2(denominator) if denominator > 1 else 0.0
    )


def largest_number_bits(expr: sp.Expr) -> float:
    return max((rational_bits(number) for number in expr.atoms(sp.Rational)), default=0.0)


def growth(expr: sp.Basic) -> float:
    """Upper estimate, in bits, of the numbers SymPy could compute from ``expr``.

    Powers multiply the size of their base by the coefficients of their exponent, since
    exponents can later combine, e.g. (2**pos)**(64/pos) == 2**64. Never below 1.
    """
    if expr.is_Rational:
        return max(1.0, rational_bits(expr))
    if isinstance(expr, sp.exp):
        argument = expr.args[0]
        return (1 + growth(argument)) * (1 + coefficients(argument))
    if expr.is_Pow:
        base, exponent = expr.args
        return growth(base) * (1 + coefficients(exponent)) + growth(exponent)
    if not expr.args:
        return 1.0
    return sum(growth(arg) for arg in expr.args)


def coefficients(expr: sp.Basic) -> float:
    """Sum of the numerators of the numbers in ``expr`` outside log arguments."""
    if expr.is_Rational:
        return to_float(abs(int(expr.p)))
    if isinstance(expr, sp.log):
        return 0.0
    return sum((coefficients(arg) for arg in expr.args), 0.0)


def magnitude(number: sp.Basic) -> float:
    """Upper estimate of ``|log2|number||``, the bits of a (possibly irrational) number."""
    if number.is_Rational:
        return max(1.0, rational_bits(number))
    if isinstance(number, sp.exp):
        return math.log2(math.e) * bound(number.args[0])
    if number.is_Pow:
        base, exponent = number.args
        return magnitude(base) * bound(exponent)
    if isinstance(number, sp.log):
        return math.log2(magnitude(number.args[0]) + 1) + 1
    if isinstance(number, (sp.sin, sp.cos)):
        return 1.0
    if number.is_Add:
        return max(magnitude(arg) for arg in number.args) + 1
    if number.is_Mul:
        return sum(magnitude(arg) for arg in number.args)
    return 2.0


def bound(number: sp.Basic) -> float:
    """Upper estimate of ``|number|``."""
    if number.is_Rational:
        numerator, denominator = abs(int(number.p)), int(number.q)
        if numerator.bit_length() - denominator.bit_length() > 1000:
            return math.inf
        return numerator / denominator
    # Capped so that 2**bits stays a finite float; anything near the cap is refused anyway.
    return 2.0 ** min(magnitude(number), 1000.0)


def to_float(value: int) -> float:
    # Far above any limit; avoids OverflowError in float().
    return float(value) if value.bit_length() < 1000 else math.inf


# The library refuses a claim holding a number whose exact value takes more bits than this:
# the big-integer work on it (2**(10**9), a Float with binary exponent 10**9 taken at its exact
# value) runs in C, where no time budget can interrupt it.
MAX_EXACT_BITS = 100_000


def exact_bits(number: sp.Basic) -> float:
    """Bits of the exact value of a Rational, a Float, or an unevaluated power of a rational to
    an integer (2**(10**9) has 10**9); 0 for anything else."""
    if number.is_Rational:
        return rational_bits(number)
    if number.is_Float:
        _, mantissa, exponent, _ = number._mpf_
        return int(mantissa).bit_length() + abs(int(exponent)) if mantissa else 0.0
    if number.is_Pow and number.base.is_Rational and number.exp.is_Integer:
        if number.base in (0, 1, -1):
            return 0.0
        return max(1.0, rational_bits(number.base)) * abs(to_float(int(number.exp)))
    return 0.0


def check_exact_size(expr: sp.Basic, what: str) -> None:
    """ValueError naming what when expr holds a number of more than MAX_EXACT_BITS bits."""
    for node in sp.preorder_traversal(expr):
        bits = exact_bits(node) if isinstance(node, sp.Expr) else 0.0
        if bits > MAX_EXACT_BITS:
            raise ValueError(
                f"{what} holds a number too large to compute exactly ({node.func.__name__} of "
                f"about {bits:.3g} bits); numbers are limited to {MAX_EXACT_BITS} bits"
            )
