"""Theorem (rope_precision): what bf16, fp16 and fp32 do to RoPE's positions and frequencies.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves.

Numeric twin: numeric.checks.rope_precision.rope_precision_table.

One file because a theorem module reads as its derivation (statement, parts, done): its
length is its 21 parts, each a short named function.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.citation import Lemma, substitute
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import NonNegative, Refutation
from proofs.engine.rules import ALGEBRA, INTEGER_PARTS, POWER_LAWS, PYTHAGOREAN
from proofs.engine.theorem import Theorem
from proofs.theorems.rope.definitions import (
    K1,
    K2,
    Q1,
    Q2,
    M,
    N,
    enclosure_fact,
    relative_form,
)
from proofs.theorems.rope.layouts import (
    pair_relative_derivation,
)

NAME = "rope_precision"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "Integers below 2^ν are exact with ν significant bits, but bf16 and fp16 round 257, 2049 "
    "and 10002, so fp16 positions break the relative score; a bf16 inv_freq keeps the phase at "
    "position m within m·θ_i·2^(−8) of m·θ_i, not within m·θ_i·2^(−9)."
)

# The lesson's letters: ν significant bits, m a position (the query's), N an integer nearest.
P_BITS = sp.Symbol("nu", integer=True, positive=True)
N_INT = sp.Symbol("n", integer=True, positive=True)
K_INT = sp.Symbol("k", integer=True, nonnegative=True)
T = sp.Symbol("t", nonnegative=True)
PHI = sp.Symbol("phi", real=True)


def _add(*terms: sp.Expr) -> sp.Expr:
    return sp.Add(*terms, evaluate=False)


def _mul(*factors: sp.Expr) -> sp.Expr:
    return sp.Mul(*factors, evaluate=False)


def nearest_even(y: sp.Expr) -> sp.Expr:
    """RNE(y) = ⌈(y − 1/2)/2⌉ + ⌊(y + 1/2)/2⌋: the nearest integer to y, ties to the even one
    (for y = 2k + f, 0 ≤ f < 2, the two terms add 0, 1 or 2 to 2k as f ≤ 1/2, 1/2 < f < 3/2,
    f ≥ 3/2). Floor and ceiling unevaluated; for a number y the arithmetic inside them is done."""
    if y.free_symbols:
        low = _mul(_add(y, sp.Rational(-1, 2)), sp.Rational(1, 2))
        high = _mul(_add(y, sp.Rational(1, 2)), sp.Rational(1, 2))
    else:
        low, high = (y - sp.Rational(1, 2)) / 2, (y + sp.Rational(1, 2)) / 2
    return _add(sp.ceiling(low, evaluate=False), sp.floor(high, evaluate=False))


def binade(x: sp.Expr) -> sp.Expr:
    """⌊log₂ x⌋, unevaluated."""
    return sp.floor(_mul(sp.log(x), sp.Pow(sp.log(2), -1, evaluate=False)), evaluate=False)


def rounded(x: sp.Expr, bits: sp.Expr, exponent: sp.Expr) -> sp.Expr:
    """fl_bits(x) = u·RNE(x/u), u = 2^(e + 1 − bits), x in the binade e. For a number x the
    spacing and x/u are computed (exact rational arithmetic); for a symbolic one kept as written."""
    if not x.free_symbols and not exponent.free_symbols:
        spacing = sp.Integer(2) ** (exponent + 1 - bits)
        return _mul(spacing, nearest_even(x / spacing))
    spacing = sp.Pow(2, _add(exponent, 1, -bits), evaluate=False)
    return _mul(spacing, nearest_even(_mul(x, sp.Pow(spacing, -1, evaluate=False))))


# The integers rounded below that are not powers of two (256 = 2^8 and 2^24 have their
# binades as exponents, which a ball cannot decide: log₂ of them is an integer).
BINADE_INTEGERS = (257, 2049, 10000, 10002, 2**24 + 1)


def binades_derivation() -> Derivation:
    """⌊log₂ x⌋ for every number rounded here: the binade fixes the spacing 2^(e + 1 − ν)."""
    xs = [*map(sp.Integer, BINADE_INTEGERS), theta_24()]
    exact = [*(sp.Integer(x.bit_length() - 1) for x in BINADE_INTEGERS), sp.Integer(-5)]
    return Derivation(
        "binades",
        "The binades e = floor(log₂ x) of 257, 2049, 10000, 10002, 2^24 + 1 and θ_24 = 10⁴^(−3/8) "
        "(those of 256 = 2^8 and 2^24 are 8 and 24): each fixes the spacing 2^(e + 1 − ν) of a "
        "ν-bit format there",
        (
            Step(sp.ImmutableMatrix([binade(x) for x in xs])),
            Step(
                sp.ImmutableMatrix(exact),
                by=INTEGER_PARTS,
                note="each log₂ x between two integers, by a certified ball",
            ),
        ),
    )


def rounded_at(x: int, bits: int) -> sp.Expr:
    """fl_bits(x) for an integer x ≥ 1, at its binade (proved in binades)."""
    return rounded(sp.Integer(x), sp.Integer(bits), sp.Integer(x.bit_length() - 1))


M_INT = sp.Symbol("m", integer=True)


def nearest_fixes_integers() -> tuple[Derivation, Derivation]:
    """RNE(y) = y for every integer y: y = 2m and y = 2m + 1."""
    return tuple(
        Derivation(
            name,
            f"Rounding to nearest fixes every integer: RNE({text}) = {text} for every integer m",
            (Step(nearest_even(y)), Step(y, by=INTEGER_PARTS, note=note)),
        )
        for name, y, text, note in (
            ("nearest_fixes_even", 2 * M_INT, "2m", "ceil(m − 1/4) + floor(m + 1/4) = m + m"),
            (
                "nearest_fixes_odd",
                2 * M_INT + 1,
                "2m + 1",
                "ceil(m + 1/4) + floor(m + 3/4) = (m + 1) + m",
            ),
        )
    )


def exact_integers() -> Derivation:
    """u·(n/u) = n with u = 2^(e + 1 − ν) and e = ν − 1 − k: the spacing times n/u."""
    spacing = sp.Pow(2, _add(_add(P_BITS, -1, -K_INT), 1, -P_BITS), evaluate=False)
    return Derivation(
        "integers_exact_below_2_to_p",
        "So every integer 1 ≤ n < 2^ν is exact with ν bits: its binade is e = ν − 1 − k with "
        "k ≥ 0, the spacing u = 2^(e + 1 − ν) = 2^(−k), n/u = n·2^k is an integer (even or "
        "odd), so RNE(n/u) = n/u and fl(n) = u·(n/u) = n",
        (
            Step(_mul(spacing, _mul(N_INT, sp.Pow(spacing, -1, evaluate=False)))),
            Step(
                _mul(
                    sp.Pow(2, -K_INT, evaluate=False), _mul(N_INT, sp.Pow(2, K_INT, evaluate=False))
                ),
                by=POWER_LAWS,
                note="(ν − 1 − k) + 1 − ν = −k",
            ),
            Step(N_INT, by=POWER_LAWS, note="2^(−k)·2^k = 1"),
        ),
    )


def rounding_derivation(name: str, title: str, x: int, bits: int, value: int) -> Derivation:
    return Derivation(
        name,
        title,
        (
            Step(rounded_at(x, bits)),
            Step(
                sp.Integer(value), by=INTEGER_PARTS, note="each floor and ceiling decided exactly"
            ),
        ),
    )


def float_facts() -> tuple[Derivation, ...]:
    return (
        rounding_derivation(
            "fp32_2_to_24_exact",
            "2^24 itself is exact in fp32 (ν = 24, binade 24): fl_fp32(16777216) = 16777216",
            2**24,
            24,
            2**24,
        ),
        rounding_derivation(
            "fp32_first_inexact",
            "2^24 + 1 is not: it is a tie between 2^24 and 2^24 + 2, and rounds to the even "
            "significand, fl_fp32(16777217) = 16777216",
            2**24 + 1,
            24,
            2**24,
        ),
        rounding_derivation(
            "bf16_257",
            "bf16 (ν = 8): 257 is a tie between 256 and 258 and rounds to 256",
            257,
            8,
            256,
        ),
        rounding_derivation(
            "fp16_2049",
            "fp16 (ν = 11): 2049 is a tie between 2048 and 2050 and rounds to 2048",
            2049,
            11,
            2048,
        ),
        rounding_derivation(
            "fp16_10002",
            "fp16: above 8192 the spacing is 8, and 10002 rounds to 10000",
            10002,
            11,
            10000,
        ),
    )


THETA = sp.Symbol("theta", real=True)


def rotation_angle(position: sp.Expr) -> sp.Expr:
    return _mul(position, THETA)


def bf16_positions() -> Derivation:
    def rotation(position: sp.Expr) -> sp.ImmutableMatrix:
        angle = rotation_angle(position)
        c, s = sp.cos(angle, evaluate=False), sp.sin(angle, evaluate=False)
        return sp.ImmutableMatrix([[c, -s], [s, c]])

    return Derivation(
        "bf16_positions_collide",
        "So in bf16 positions 257 and 256 get one rotation: G(fl(257)·θ) = G(256·θ) = "
        "G(fl(256)·θ), for every frequency θ",
        (
            Step(rotation(rounded_at(257, 8))),
            Step(rotation(sp.Integer(256)), by=INTEGER_PARTS),
            Step(rotation(rounded_at(256, 8)), by=INTEGER_PARTS),
        ),
    )


def fp16_scores(pair: Derivation) -> Derivation:
    far, near = rounded_at(10002, 11), rounded_at(10000, 11)
    at = {M: sp.Integer(10000), N: sp.Integer(10000)}
    # The score multiplied out (pair_relative's second step): SymPy multiplying matrices of
    # unevaluated floors would ask their assumptions, which evaluates them numerically.
    expanded = pair.steps[1].expr
    return Derivation(
        "fp16_positions_score",
        "With fp16 positions, the score of a query at 10002 and a key at 10000 is the score at "
        "(10000, 10000): ⟨q, G((10000 − 10000)θ)κ⟩, distance 0",
        (
            Step(substitute(expanded, {M: far, N: near})),
            Step(substitute(expanded, at), by=INTEGER_PARTS),
            Step(substitute(relative_form(N - M), at), by=Lemma(pair, at)),
        ),
    )


def fp16_refuted(scores: Derivation) -> Refutation:
    """The claim that the fp16 score (scores: at (10002, 10000) it is ⟨q, G(0·θ)κ⟩) is the
    relative score at the true distance −2."""
    return Refutation(
        "fp16_positions_not_relative",
        "RoPE with fp16 positions is relative: the score of a query at 10002 and a key at 10000, "
        "⟨q, G((10000 − 10000)θ)κ⟩ by fp16_positions_score, is the relative score at distance "
        "n − m = −2, ⟨q, G(−2θ)κ⟩, for every q, κ and θ (at q = κ = (1, 0), θ = 1: cos 0 = 1 "
        "against cos 2)",
        sp.Eq(scores.rhs, relative_form(sp.Integer(10000 - 10002)), evaluate=False),
        (
            (K1, sp.Integer(1)),
            (K2, sp.Integer(0)),
            (Q1, sp.Integer(1)),
            (Q2, sp.Integer(0)),
            (THETA, sp.Integer(1)),
        ),
    )


def scaled_significand() -> Derivation:
    """2^(−ν)·y = 1/2 + 2^(−ν)·t for y = 2^(ν−1) + t."""
    low = sp.Pow(2, P_BITS - 1, evaluate=False)
    scale = sp.Pow(2, -P_BITS, evaluate=False)
    return Derivation(
        "scaled_significand",
        "Round to nearest with ν bits: write x = u·y, y = 2^(ν−1) + t in [2^(ν−1), 2^ν) "
        "(t ≥ 0); then 2^(−ν)·y = 1/2 + 2^(−ν)·t",
        (
            Step(_mul(scale, _add(low, T))),
            Step(_add(_mul(scale, low), _mul(scale, T)), by=ALGEBRA),
            Step(
                _add(sp.Rational(1, 2), _mul(scale, T)), by=POWER_LAWS, note="2^(−ν)·2^(ν−1) = 1/2"
            ),
        ),
    )


def relative_error_fact() -> NonNegative:
    """Round to nearest with ν bits: |fl(x) − x| ≤ 2^(−ν)·x, shown squared."""
    w = sp.Symbol("w", nonnegative=True)
    miss = sp.cos(PHI) / 2
    return NonNegative(
        "nearest_relative_error",
        "fl(x) = u·N with |N − y| ≤ 1/2 (N − y = cos(φ)/2), and 2^(−ν)·y = 1/2 + w (w ≥ 0): "
        "(2^(−ν)·y)² − (N − y)² = sin²φ/4 + w + w² ≥ 0, so |fl(x) − x| = u·|N − y| ≤ "
        "2^(−ν)·u·y = 2^(−ν)·x: the unit roundoff of bf16 (ν = 8) is 2^(−8)",
        (sp.Rational(1, 2) + w) ** 2 - miss**2,
        sp.sin(PHI) ** 2 / 4 + w + w**2,
        PYTHAGOREAN,
    )


def transformers_path_facts() -> tuple[NonNegative, NonNegative]:
    """transformers' path compounds three roundings, each fl(x) = x·(1 + δ) with |δ| at most the
    format's unit roundoff (nearest_relative_error): fp32 inv_freq (u = 2^(−24)), its bf16 cast
    (2^(−8)), the fp32 phase (2^(−24)). The phase is m·θ·(1 + δ₁)(1 + δ₂)(1 + δ₃); the two facts
    bound that product within 1 ± (2^(−8) + 2^(−22)), for every δ in range."""
    u8, u24 = sp.Rational(1, 2**8), sp.Rational(1, 2**24)
    stated = _add(u8, sp.Rational(1, 2**22))
    tau = sp.symbols("tau_1:4", real=True)
    # Above: each factor 1 + δ_j ≤ 1 + u_j, written (1 + u_j)·cos²τ_j (every value in [0, 1 + u_j]).
    tops = (1 + u24, 1 + u8, 1 + u24)
    c = [sp.cos(t) ** 2 for t in tau]
    s_ = [sp.sin(t) ** 2 for t in tau]
    most = tops[0] * tops[1] * tops[2]
    above = _add(stated, 1, -_mul(*(_mul(top, cj) for top, cj in zip(tops, c, strict=True))))
    # most·(1 − c₁c₂c₃) = most·(s₁ + c₁s₂ + c₁c₂s₃), and stated + 1 − most > 0.
    above_witness = (stated + 1 - most) + most * (s_[0] + c[0] * s_[1] + c[0] * c[1] * s_[2])
    # Below: each factor 1 + δ_j ≥ 1 − u_j, written (1 − u_j) + x_j² (every value from 1 − u_j up).
    x = sp.symbols("x_1:4", real=True)
    lows = (1 - u24, 1 - u8, 1 - u24)
    factors = [_add(low, xj**2) for low, xj in zip(lows, x, strict=True)]
    below = _add(_mul(*factors), -1, stated)
    below_witness = sp.expand(sp.Mul(*factors) - lows[0] * lows[1] * lows[2]) + (
        lows[0] * lows[1] * lows[2] - 1 + stated
    )
    return (
        NonNegative(
            "float32_path_bound",
            "transformers' path (inv_freq in fp32, cast to bf16, phase m·θ_b in fp32, θ_b the "
            "bf16 inv_freq) compounds three roundings, the phase m·θ·(1 + δ₁)(1 + δ₂)(1 + δ₃) "
            "with |δ₁|, |δ₃| ≤ 2^(−24) and |δ₂| ≤ 2^(−8): above, writing 1 + δ_j = "
            "(1 + u_j)·cos²τ_j, 2^(−8) + 2^(−22) + 1 − (1 + δ₁)(1 + δ₂)(1 + δ₃) ≥ 0 for every "
            "τ_j, the twin's bound",
            above,
            above_witness,
            PYTHAGOREAN,
        ),
        NonNegative(
            "float32_path_bound_below",
            "The same path, below: writing 1 + δ_j = (1 − u_j) + x_j², "
            "(1 + δ₁)(1 + δ₂)(1 + δ₃) − 1 + 2^(−8) + 2^(−22) ≥ 0 for every x_j, so the phase's "
            "relative error is at most 2^(−8) + 2^(−22) either way",
            below,
            below_witness,
            ALGEBRA,
        ),
    )


D_PRECISION, B_PRECISION, PAIR = 128, 10000, 24
# A position, in the claim that the phase error at every position is at most m·θ_i·2^(−9).
POSITION = sp.Symbol("m", integer=True, positive=True)


def theta_24() -> sp.Expr:
    return sp.Pow(sp.Integer(B_PRECISION), sp.Rational(-2 * PAIR, D_PRECISION), evaluate=False)


def pair_24() -> Derivation:
    return Derivation(
        "bf16_inv_freq_pair_24",
        "At d = 128, b = 10⁴, pair 24: θ_24 = 10⁴^(−3/8) = 0.0316…, in the binade [2^(−5), "
        "2^(−4)), spacing 2^(−12); θ_24·2^12 = 129.53…, so fl_bf16(θ_24) = 130·2^(−12) = 65/2048",
        (
            Step(rounded(theta_24(), sp.Integer(8), sp.Integer(-5))),
            Step(
                sp.Rational(65, 2048),
                by=INTEGER_PARTS,
                note="floors and ceilings by certified balls",
            ),
        ),
    )


def pair_24_facts(rounded_24: sp.Expr) -> tuple[NonNegative | Refutation, ...]:
    theta = theta_24()
    error = _add(_mul(rounded_24, sp.Pow(theta, -1, evaluate=False)), -1)
    return (
        enclosure_fact(
            "bf16_pair_24_error",
            "Certified: fl_bf16(θ_24)/θ_24 − 1 lies in {interval}, above 2^(−9) = 0.001953…, so "
            "at every position m the phase m·fl_bf16(θ_24) misses m·θ_24 by more than "
            "m·θ_24·2^(−9)",
            error,
            4,
        ),
        Refutation(
            "bound_2_to_9_refuted",
            "The phase error of a bf16 inv_freq is at most m·θ_i·2^(−9) at every position m "
            "(tried at pair 24, m = 1)",
            sp.Le(
                sp.Abs(_add(_mul(POSITION, rounded_24), -_mul(POSITION, theta))),
                _mul(POSITION, theta, sp.Pow(2, -9, evaluate=False)),
                evaluate=False,
            ),
            ((POSITION, sp.Integer(1)),),
        ),
        NonNegative(
            "pair_24_far_from_tie",
            "θ_24·2^12 exceeds the tie 129.5 by at least 1/40: every fp32 approximation of θ_24 "
            "within 2^(−13) relative (transformers' fp32 inv_freq is within a few ulps, 2^(−22)) "
            "rounds to the same bf16 value 65/2048",
            _add(_mul(theta, 4096), sp.Rational(-259, 2), sp.Rational(-1, 40)),
            _mul(
                _add(
                    theta,
                    _mul(sp.Rational(-1, 4096), _add(sp.Rational(259, 2), sp.Rational(1, 40))),
                ),
                4096,
            ),
            ALGEBRA,
        ),
    )


def build(d_model: int = 8) -> Theorem:
    """The precision theorem (d_model is unused: the statements are about numbers and one pair)."""
    del d_model
    pair = pair_relative_derivation()
    p24 = pair_24()
    scores = fp16_scores(pair)
    return Theorem(
        name=NAME,
        title="RoPE in bf16, fp16 and fp32: colliding positions, the phase bound",
        statement=STATEMENT,
        parts=(
            *nearest_fixes_integers(),
            exact_integers(),
            binades_derivation(),
            *float_facts(),
            bf16_positions(),
            pair,
            scores,
            fp16_refuted(scores),
            scaled_significand(),
            relative_error_fact(),
            *transformers_path_facts(),
            p24,
            *pair_24_facts(p24.rhs),
        ),
        twin="numeric.checks.rope_precision.rope_precision_table",
        remarks=(
            "Formats as IEEE 754 binary16 and binary32 define them and bfloat16 as truncated "
            "binary32 (8 significant bits including the hidden one); only normal numbers occur. "
            "The rounding formula is round to nearest, ties to even, written with floor and "
            "ceiling; every floor and ceiling of an irrational number is decided by a certified "
            "ball.",
            "pe-proofs issue 24 states the phase error bound as m·θ_i·2^(−9). With 8 significant bits the "
            "unit roundoff is 2^(−8) (Higham, Accuracy and Stability of Numerical Algorithms, "
            "section 2.1: u = β^(1−t)/2, t = 8), and pair 24 at d = 128, b = 10⁴ attains 0.003653·θ_24 > "
            "2^(−9)·θ_24; the numeric twin finds 21 of the 64 pairs above 2^(−9).",
            "nearest_relative_error takes the defining property of rounding to nearest, "
            "|N − y| ≤ 1/2 at spacing 1, as its hypothesis: the floor-and-ceiling formula has it, "
            "but that is not a step the engine checks for symbolic y.",
        ),
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
