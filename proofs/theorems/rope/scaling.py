"""Theorem (rope_scaling): each context-extension method as a map on θ_i, and where papers and code part.

Its statement is STATEMENT (Theorem.statement, which the printers and the lesson read);
each part's title states what that part proves. Every certified number is a ball of the exact
expression (floor and ceiling decided by balls too), never a float64 value.

Numeric twin: numeric.checks.rope_scaling.rope_scaling_table.

One file because a theorem module reads as its derivation (statement, parts, done): its
length is its 33 parts, one short named function each, in the order of the methods.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.blocks import BlockEquation, BlockMatrix, BlockSum, Inner, Label, Product
from proofs.engine.derivation import Derivation, Step
from proofs.engine.facts import Blockwise, NonNegative, Refutation
from proofs.engine.rules import (
    ALGEBRA,
    CANCEL,
    EXPONENT_LAWS,
    EXPONENTIAL_FORM,
    INTEGER_PARTS,
    MATRIX_PRODUCT,
    POWER_LAWS,
    PYTHAGOREAN,
)
from proofs.engine.theorem import Theorem
from proofs.theorems.rope.definitions import (
    K_VEC,
    Q_VEC,
    THETA,
    THETA_I,
    B,
    D,
    M,
    N,
    enclosure_fact,
    family,
    frequency,
    interval_fact,
    pair_bindings,
    rope_rotation,
    score_form,
    vector_blocks,
)
from proofs.theorems.sinusoidal.definitions import I

NAME = "rope_scaling"
# The theorem's statement, written once: Theorem.statement, the printers and the lesson read it.
STATEMENT = (
    "For s ≥ 1, every pair i and head width d ≥ 4: (1) linear scaling of the frequencies is "
    "scaling of the positions. (2) NTK-aware scaling keeps θ_0, divides the last pair's "
    "frequency by s, and its ratio to θ_i, between 1/s and 1, falls with i: not θ_i/s at every "
    "pair. (3) The dynamic NTK base is b at l = L. (4) YaRN's frequency, in the paper's and the "
    "code's form, lies between θ_i/s and θ_i for every ramp value in [0, 1]. (5) cos and sin "
    "times μ multiply every logit by μ², not μ. (6) Llama 3 is YaRN's paper formula without "
    "temperature. (7) YaRN's paper and code differ at pair 38; Llama 3 and transformers' yarn "
    "with the same numbers, at pair 33."
)

S = sp.Symbol("s", positive=True)
POS = sp.Symbol("m", real=True)
L = sp.Symbol("L", positive=True)
ALPHA = sp.Symbol("alpha", positive=True)
BETA = sp.Symbol("beta", positive=True)
# How far the sequence runs past the trained length (t is YaRN's temperature).
PAST = sp.Symbol("v", nonnegative=True)
# Parameters that carry the hypotheses of the inequalities: s = e^(g_s) with g_s = ln s ≥ 0,
# s = 1 + σ, b = e^(g_b), d = 2d_h + 2 (d_h = d/2 − 1 ≥ 1), ramp values cos²φ ∈ [0, 1]. Their
# letters are none of the lesson's (λ_i is a wavelength, β a ramp's end, m the query's position).
LOG_S = sp.Symbol("g_s", nonnegative=True)
SIGMA = sp.Symbol("sigma", nonnegative=True)
SIGMA_POSITIVE = sp.Symbol("sigma", positive=True)
LOG_BASE = sp.Symbol("g_b", nonnegative=True)
HALF = sp.Symbol("d_h", integer=True, positive=True)
J = sp.Symbol("j", integer=True, nonnegative=True)
PHI = sp.Symbol("phi", real=True)
CHI = sp.Symbol("chi", real=True)
MU = sp.Symbol("mu", real=True)
# Any positive frequency: the Llama 3 and YaRN formulas agree at every θ_i > 0.
FREQ = sp.Symbol("theta_i", positive=True)


def _g(angle: sp.Expr) -> sp.ImmutableMatrix:
    """G(angle) with the angle kept as written."""
    c, s = sp.cos(angle, evaluate=False), sp.sin(angle, evaluate=False)
    return sp.ImmutableMatrix([[c, -s], [s, c]])


# ── Linear ────────────────────────────────────────────────────────────────────────────────


def linear_derivation() -> Derivation:
    return Derivation(
        "linear_is_position_interpolation",
        "Linear: θ′_i = θ_i/s, and G(m·(θ/s)) = G((m/s)·θ) for every frequency θ: the scaled "
        "frequencies at position m are the original ones at m/s",
        (
            Step(_g(sp.Mul(POS, sp.Mul(THETA, 1 / S, evaluate=False), evaluate=False))),
            Step(_g(sp.Mul(POS / S, THETA, evaluate=False)), by=ALGEBRA, note="m·(θ/s) = (m/s)·θ"),
        ),
    )


# ── NTK-aware ─────────────────────────────────────────────────────────────────────────────


def ntk_base(d: sp.Expr = D) -> sp.Expr:
    """b′ = b·s^(d/(d−2)), unevaluated."""
    return sp.Mul(B, sp.Pow(S, d / (d - 2), evaluate=False), evaluate=False)


def ntk_frequency(i: sp.Expr = I, d: sp.Expr = D) -> sp.Expr:
    """θ′_i = b′^(−2i/d), unevaluated."""
    return sp.Pow(ntk_base(d), sp.Mul(-2, i, 1 / d, evaluate=False), evaluate=False)


def _theta(i: sp.Expr, d: sp.Expr = D) -> sp.Expr:
    return sp.Pow(B, sp.Mul(-2, i, 1 / d, evaluate=False), evaluate=False)


def ntk_ratio_derivation() -> Derivation:
    return Derivation(
        "ntk_ratio",
        "NTK-aware, b′ = b·s^(d/(d−2)): θ′_i/θ_i = s^(−2i/(d−2)), i, d, b and s symbolic",
        (
            Step(sp.Mul(ntk_frequency(), sp.Pow(_theta(I), -1, evaluate=False), evaluate=False)),
            Step(
                S ** (-2 * I / (D - 2)),
                by=POWER_LAWS,
                note="(b·s^(d/(d−2)))^(−2i/d) = b^(−2i/d)·s^(−2i/(d−2))",
            ),
        ),
    )


def ntk_first_derivation() -> Derivation:
    return Derivation(
        "ntk_first_pair",
        "NTK-aware, the fastest pair keeps its frequency: θ′_0 = b′^0 = 1 = θ_0",
        (Step(ntk_frequency(sp.Integer(0))), Step(_theta(sp.Integer(0)), by=ALGEBRA)),
    )


def ntk_last_derivation() -> Derivation:
    last = D / 2 - 1
    return Derivation(
        "ntk_last_pair",
        "NTK-aware, the slowest pair is divided by s: θ′_(d/2−1) = θ_(d/2−1)/s",
        (
            Step(ntk_frequency(last)),
            Step(
                sp.Mul(_theta(last), 1 / S, evaluate=False),
                by=POWER_LAWS,
                note="the exponent of s is (d/(d−2))·(−(d−2)/d) = −1",
            ),
        ),
    )


def ntk_step_derivation() -> Derivation:
    def ratio(i: sp.Expr) -> sp.Expr:
        return sp.Pow(S, sp.Mul(-2, i, 1 / (D - 2), evaluate=False), evaluate=False)

    return Derivation(
        "ntk_ratio_step",
        "NTK-aware: from one pair to the next the ratio is multiplied by s^(−2/(d−2))",
        (
            Step(sp.Mul(ratio(I + 1), sp.Pow(ratio(I), -1, evaluate=False), evaluate=False)),
            Step(S ** (-2 / (D - 2)), by=EXPONENT_LAWS),
        ),
    )


def _ntk_ratio_at(i: sp.Expr) -> sp.Expr:
    """θ′_i/θ_i = s^(−2i/(d−2)) with s = e^(g_s) and d = 2d_h + 2: e^(−i·g_s/d_h)."""
    return (S ** (-2 * sp.sympify(i) / (D - 2))).subs({S: sp.exp(LOG_S), D: 2 * HALF + 2})


def ntk_inequalities() -> tuple[NonNegative, ...]:
    x = LOG_S / (2 * HALF)
    return (
        NonNegative(
            "ntk_ratio_at_most_1",
            "NTK-aware: θ′_i/θ_i ≤ 1. With s = e^(g_s) (g_s = ln s ≥ 0) and d = 2d_h + 2: "
            "1 − e^(−i·g_s/d_h) = 2e^(−i·g_s/2d_h)·sinh(i·g_s/2d_h) ≥ 0",
            1 - _ntk_ratio_at(I),
            2 * sp.exp(-I * x) * sp.sinh(I * x),
            EXPONENTIAL_FORM,
        ),
        NonNegative(
            "ntk_ratio_at_least_1_over_s",
            "NTK-aware: θ′_i/θ_i ≥ 1/s for i ≤ d/2 − 1 = d_h. With i = d_h − j (j ≥ 0): "
            "e^(−(d_h − j)g_s/d_h) − e^(−g_s) = 2e^(−g_s + j·g_s/2d_h)·sinh(j·g_s/2d_h) ≥ 0",
            _ntk_ratio_at(HALF - J) - 1 / sp.exp(LOG_S),
            2 * sp.exp(-LOG_S + J * x) * sp.sinh(J * x),
            EXPONENTIAL_FORM,
        ),
        NonNegative(
            "ntk_ratio_falls",
            "NTK-aware: θ′_i/θ_i falls with i: e^(−i·g_s/d_h) − e^(−(i+1)g_s/d_h) = "
            "2e^(−(2i+1)g_s/2d_h)·sinh(g_s/2d_h) ≥ 0",
            _ntk_ratio_at(I) - _ntk_ratio_at(I + 1),
            2 * sp.exp(-(2 * I + 1) * x) * sp.sinh(x),
            EXPONENTIAL_FORM,
        ),
    )


def ntk_not_linear() -> Refutation:
    return Refutation(
        "ntk_is_not_linear",
        "NTK-aware is θ′_i = θ_i/s for every i, d, b and s (it is not at i = 0, where "
        "θ′_0 − θ_0/s = 1 − 1/s; they agree only at the last pair)",
        sp.Eq(ntk_frequency(), frequency() / S, evaluate=False),
        ((B, sp.Integer(10**4)), (D, sp.Integer(128)), (I, sp.Integer(0)), (S, sp.Integer(2))),
    )


# ── Dynamic NTK ───────────────────────────────────────────────────────────────────────────


def dynamic_base(length: sp.Expr, d: sp.Expr = D, factor: sp.Expr = S) -> sp.Expr:
    """b·(s·l/L − (s − 1))^(d/(d−2)), s = factor (transformers' alpha), unevaluated."""
    grown = sp.Add(
        sp.Mul(factor, length, 1 / L, evaluate=False),
        sp.Mul(-1, factor - 1, evaluate=False),
        evaluate=False,
    )
    return sp.Mul(B, sp.Pow(grown, d / (d - 2), evaluate=False), evaluate=False)


def dynamic_at_original() -> Derivation:
    return Derivation(
        "dynamic_at_original_length",
        "Dynamic NTK: at l = L the base is b, the static base used for every l ≤ L",
        (
            Step(dynamic_base(L)),
            Step(B, by=POWER_LAWS, note="s·L/L − (s − 1) = 1, and 1^x = 1"),
        ),
    )


def dynamic_base_fact() -> NonNegative:
    grown = sp.Add(
        sp.Mul(S, L + PAST, 1 / L, evaluate=False),
        sp.Mul(-1, S - 1, evaluate=False),
        evaluate=False,
    )
    return NonNegative(
        "dynamic_base_at_least_1",
        "Dynamic NTK: for l = L + v ≥ L the power's base s·l/L − (s − 1) = 1 + s·v/L is ≥ 1, so "
        "b·(…)^(d/(d−2)) is a real power of a positive continuous function of l",
        sp.Add(grown, -1, evaluate=False),
        S * PAST / L,
        ALGEBRA,
    )


VLLM_D, VLLM_S = 128, 8


def vllm_refuted() -> Refutation:
    d, s = sp.Integer(VLLM_D), sp.Integer(VLLM_S)
    constant = sp.Mul(B, sp.Pow(s**2 - s + 1, d / (d - 2), evaluate=False), evaluate=False)
    return Refutation(
        "vllm_constant_base_refuted",
        "A base free of l (vllm #41236: b·(s² − s + 1)^(d/(d−2))) equals the dynamic base with "
        f"factor s, even at l = L: at d = {VLLM_D}, s = {VLLM_S}, b·57^(64/63) = b for every b and L",
        sp.Eq(constant, dynamic_base(L, d, factor=s), evaluate=False),
        ((L, sp.Integer(4096)), (B, sp.Integer(10**4))),
    )


# ── YaRN ──────────────────────────────────────────────────────────────────────────────────


def yarn_map(theta: sp.Expr, gamma: sp.Expr, s: sp.Expr) -> sp.Expr:
    """θ′ = (1 − γ)·θ/s + γ·θ: the paper's form; the code's is this with γ = 1 − ramp."""
    return (1 - gamma) * theta / s + gamma * theta


def yarn_bounds() -> tuple[NonNegative, ...]:
    theta = frequency()
    gamma = sp.cos(PHI) ** 2
    s = 1 + SIGMA
    scaled = yarn_map(theta, gamma, s)
    return (
        NonNegative(
            "yarn_at_least_theta_over_s",
            "YaRN, any ramp value γ = cos²φ ∈ [0, 1] and s = 1 + σ ≥ 1: θ′_i − θ_i/s = "
            "γ·θ_i·σ/(1 + σ) ≥ 0",
            scaled - theta / s,
            gamma * theta * SIGMA / s,
            CANCEL,
        ),
        NonNegative(
            "yarn_at_most_theta",
            "YaRN, the same: θ_i − θ′_i = (1 − γ)·θ_i·σ/(1 + σ) = sin²φ·θ_i·σ/(1 + σ) ≥ 0",
            theta - scaled,
            sp.sin(PHI) ** 2 * theta * SIGMA / s,
            (PYTHAGOREAN, CANCEL),
        ),
    )


def ramp_continuity() -> tuple[Derivation, ...]:
    def middle(rho: sp.Expr, low: sp.Expr, high: sp.Expr) -> sp.Expr:
        return sp.Mul(sp.Add(rho, -low, evaluate=False), 1 / (high - low), evaluate=False)

    low_index, high_index = sp.symbols("low high", real=True)
    return (
        Derivation(
            "paper_ramp_at_alpha",
            "YaRN paper, section 3.2: the middle piece γ(ρ) = (ρ − α)/(β − α) is 0 at ρ = α, the value of "
            "the piece ρ < α: continuous there",
            (Step(middle(ALPHA, ALPHA, BETA)), Step(sp.Integer(0), by=ALGEBRA)),
        ),
        Derivation(
            "paper_ramp_at_beta",
            "… and 1 at ρ = β, the value of the piece ρ > β: continuous there too",
            (Step(middle(BETA, ALPHA, BETA)), Step(sp.Integer(1), by=ALGEBRA)),
        ),
        Derivation(
            "code_ramp_at_low",
            "YaRN code: its ramp (i − low)/(high − low), clamped to [0, 1], is 0 at i = low",
            (Step(middle(low_index, low_index, high_index)), Step(sp.Integer(0), by=ALGEBRA)),
        ),
        Derivation(
            "code_ramp_at_high",
            "… and 1 at i = high: no jump at either end",
            (Step(middle(high_index, low_index, high_index)), Step(sp.Integer(1), by=ALGEBRA)),
        ),
    )


def yarn_falls() -> NonNegative:
    d = D
    theta = sp.exp(-2 * LOG_BASE * I / d)
    theta_next = sp.exp(-2 * LOG_BASE * (I + 1) / d)
    s = 1 + SIGMA
    gamma, gamma_next = sp.cos(PHI) ** 2, sp.cos(PHI) ** 2 * sp.cos(CHI) ** 2
    weight = 1 / s + gamma * SIGMA / s
    drop = 2 * sp.exp(-LOG_BASE * (2 * I + 1) / d) * sp.sinh(LOG_BASE / d)
    return NonNegative(
        "yarn_falls_with_i",
        "YaRN falls with i whenever its ramp weights do: with b = e^(g_b) ≥ 1, s = 1 + σ and "
        "1 ≥ γ_i = cos²φ ≥ γ_(i+1) = cos²φ·cos²χ ≥ 0, θ′_i − θ′_(i+1) = "
        "(θ_i − θ_(i+1))·w_i + θ_(i+1)·(w_i − w_(i+1)) ≥ 0, w = 1/s + γ·σ/s",
        yarn_map(theta, gamma, s) - yarn_map(theta_next, gamma_next, s),
        drop * weight + theta_next * sp.cos(PHI) ** 2 * sp.sin(CHI) ** 2 * SIGMA / s,
        (EXPONENTIAL_FORM, PYTHAGOREAN, CANCEL),
    )


def temperature_derivation() -> Derivation:
    def scaled(position: sp.Expr, vector: sp.ImmutableMatrix) -> sp.MatMul:
        return sp.MatMul(MU * rope_rotation(position * THETA), vector, evaluate=False)

    from proofs.theorems.rope.definitions import KEY, QUERY

    return Derivation(
        "temperature_pair",
        "YaRN's temperature: with cos and sin multiplied by μ (attention_factor), one pair's "
        "score is μ² times the unscaled one",
        (
            Step(sp.MatMul(sp.Transpose(scaled(M, QUERY)), scaled(N, KEY), evaluate=False)),
            Step(sp.MatMul(MU**2, score_form(M, N), evaluate=False), by=MATRIX_PRODUCT),
        ),
    )


def temperature_head(d: int, lemma: Derivation) -> Blockwise:
    def scaled_blocks(position: sp.Expr) -> BlockMatrix:
        supports = tuple((2 * i, 2 * i + 1) for i in range(d // 2))
        label = Label(f"μG({position}θ_" + "{i})", rf"\mu G({position}\theta_" + "{{i}})")
        return BlockMatrix(
            family(MU * rope_rotation(position * frequency()), d), supports, d, label
        )

    q, k = vector_blocks(Q_VEC, "interleaved", d), vector_blocks(K_VEC, "interleaved", d)
    unscaled = sp.MatMul(
        sp.Transpose(sp.MatMul(rope_rotation(M * frequency()), q.pieces.template, evaluate=False)),
        sp.MatMul(rope_rotation(N * frequency()), k.pieces.template, evaluate=False),
        evaluate=False,
    )
    terms = family(sp.MatMul(MU**2, unscaled, evaluate=False), d)
    return Blockwise(
        "temperature_head",
        f"The whole head (d = {d}): every logit ⟨μ·RoPE(q, m), μ·RoPE(κ, n)⟩ is μ² times "
        "⟨RoPE(q, m), RoPE(κ, n)⟩",
        BlockEquation(
            Inner(Product((scaled_blocks(M), q)), Product((scaled_blocks(N), k))),
            BlockSum(
                terms,
                Label(
                    "μ²·⟨G q_({i}), G κ_({i})⟩", r"\mu^2\langle G q_{({i})}, G\kappa_{({i})}\rangle"
                ),
            ),
        ),
        lemma,
        pair_bindings("interleaved", d),
    )


def temperature_refuted(pair: Derivation) -> Refutation:
    """The claim that cos and sin multiplied by μ multiply one pair's score by μ."""
    from proofs.theorems.rope.definitions import K1, K2, Q1, Q2

    by_mu = sp.MatMul(MU, score_form(M, N), evaluate=False)
    return Refutation(
        "temperature_not_linear",
        "Multiplying cos and sin by μ (YaRN's attention_factor, μ = 0.1·ln s + 1, section 3.4) "
        "multiplies every logit by μ (it multiplies it by μ², so not where μ ≠ 1 and the logit is "
        "not 0; the point takes μ = 1.1, s = e)",
        sp.Eq(pair.lhs, by_mu, evaluate=False),
        (
            (K1, sp.Integer(1)),
            (K2, sp.Integer(0)),
            (M, sp.Integer(0)),
            (MU, sp.Rational(11, 10)),
            (N, sp.Integer(0)),
            (Q1, sp.Integer(1)),
            (Q2, sp.Integer(0)),
            (THETA, sp.Integer(1)),
        ),
    )


# ── YaRN's paper against its code, at one setting ────────────────────────────────


def _unevaluated_ratio(top: sp.Expr, bottom: sp.Expr) -> sp.Expr:
    return sp.Mul(top, sp.Pow(bottom, -1, evaluate=False), evaluate=False)


def correction_dim(turns: int, d: int, base: int, length: int) -> sp.Expr:
    """The reference code's find_correction_dim: d·ln(L/(2π·turns)) / (2·ln b), exactly."""
    return _unevaluated_ratio(
        d * sp.log(sp.Integer(length) / (2 * sp.pi * turns)), 2 * sp.log(sp.Integer(base))
    )


def ramp_ends(d: int, base: int, length: int, fast: int, slow: int) -> tuple[sp.Expr, sp.Expr]:
    """low = max(⌊c_fast⌋, 0) and high = min(⌈c_slow⌉, d − 1): find_correction_range, unevaluated."""
    low = sp.Max(sp.floor(correction_dim(fast, d, base, length), evaluate=False), 0, evaluate=False)
    high = sp.Min(
        sp.ceiling(correction_dim(slow, d, base, length), evaluate=False), d - 1, evaluate=False
    )
    return low, high


def code_ramp(i: int, d: int, base: int, length: int, fast: int, slow: int) -> sp.Expr:
    """clamp((i − low)/(high − low), 0, 1): linear_ramp_factor at pair i, unevaluated."""
    low, high = ramp_ends(d, base, length, fast, slow)
    linear = _unevaluated_ratio(sp.Add(i, -low, evaluate=False), sp.Add(high, -low, evaluate=False))
    return sp.Min(sp.Max(linear, 0, evaluate=False), 1, evaluate=False)


def exact_theta(i: int, d: int, base: int) -> sp.Expr:
    """θ_i = base^(−2i/d) kept as written (so the printers can name it θ_i)."""
    return sp.Pow(sp.Integer(base), sp.Rational(-2 * i, d), evaluate=False)


def code_map(theta: sp.Expr, s: int, ramp: sp.Expr) -> sp.Expr:
    """θ/s·ramp + θ·(1 − ramp), kept as written."""
    return sp.Add(
        sp.Mul(theta, sp.Rational(1, s), ramp, evaluate=False),
        sp.Mul(theta, sp.Add(1, -ramp, evaluate=False), evaluate=False),
        evaluate=False,
    )


def code_value(i: int, d: int, base: int, s: int, length: int, fast: int, slow: int) -> sp.Expr:
    """θ′_i = θ_i/s·ramp_i + θ_i·(1 − ramp_i): _compute_yarn_parameters, exactly."""
    return code_map(exact_theta(i, d, base), s, code_ramp(i, d, base, length, fast, slow))


def code_display(c: dict, fast: int, slow: int) -> tuple[tuple[sp.Basic, sp.Basic], ...]:
    """Print the ramp's ends as low and high, and θ_i, by name (the title defines them)."""
    i, d, base, length = c["i"], c["d"], c["base"], c["length"]
    low, high = ramp_ends(d, base, length, fast, slow)
    return (
        (low, sp.Symbol("low")),
        (high, sp.Symbol("high")),
        (exact_theta(i, d, base), sp.Symbol(f"theta_{i}")),
    )


def turns(i: int, d: int, base: int, length: int) -> sp.Expr:
    """ρ_i = L/λ_i = L·θ_i/(2π)."""
    return sp.Integer(length) * sp.Integer(base) ** sp.Rational(-2 * i, d) / (2 * sp.pi)


def paper_value(i: int, d: int, base: int, s: int, length: int, alpha: int, beta: int) -> sp.Expr:
    """The paper's θ′_i in its middle piece: γ = (ρ_i − α)/(β − α)."""
    theta = sp.Integer(base) ** sp.Rational(-2 * i, d)
    gamma = (turns(i, d, base, length) - alpha) / sp.Integer(beta - alpha)
    return yarn_map(theta, gamma, sp.Integer(s))


YARN = {"i": 38, "d": 128, "base": 10000, "s": 16, "length": 4096}
LLAMA3 = {"i": 33, "d": 128, "base": 500000, "s": 8, "length": 8192}


def yarn_code_derivation() -> Derivation:
    c = YARN
    theta = exact_theta(c["i"], c["d"], c["base"])
    return Derivation(
        "yarn_code_pair_38",
        "YaRN code at b = 10⁴, d = 128, L = 4096, s = 16, β_fast = 32, β_slow = 1, pair 38: "
        "with c_n = d·ln(L/(2πn))/(2·ln b) the index where ρ_i = n, the ramp runs from pair 20 "
        "(c_32 = 20.94… rounded down) to pair 46 (c_1 = 45.03… rounded up), so pair 38 is "
        "18/26 along it and θ′_38 = (73/208)·θ_38",
        (
            Step(code_value(c["i"], c["d"], c["base"], c["s"], c["length"], 32, 1)),
            Step(
                code_map(theta, c["s"], sp.Rational(9, 13)),
                by=INTEGER_PARTS,
                note="floor, ceiling and the clamps, each decided by a certified ball",
            ),
            Step(sp.Mul(sp.Rational(73, 208), theta, evaluate=False), by=ALGEBRA),
        ),
        display=code_display(c, 32, 1),
    )


def yarn_facts(code: Derivation) -> tuple[NonNegative | Refutation, ...]:
    c = YARN
    rho = turns(c["i"], c["d"], c["base"], c["length"])
    code_38 = code.rhs
    paper_38 = paper_value(c["i"], c["d"], c["base"], c["s"], c["length"], 1, 32)
    return (
        interval_fact(
            "yarn_pair_38_in_paper_ramp",
            "YaRN paper at pair 38: ρ_38 = 4096·θ_38/(2π) lies in [1, 32] (it is 2.749…), so "
            "θ′_38 = (1 − γ)θ_38/16 + γθ_38 with γ = (ρ_38 − 1)/31",
            rho,
            sp.Integer(1),
            sp.Integer(32),
        ),
        enclosure_fact(
            "yarn_code_value",
            "Certified: the code's θ′_38 = (73/208)·10⁴^(−19/32) lies in {interval}",
            code_38,
            5,
        ),
        enclosure_fact(
            "yarn_paper_value", "Certified: the paper's θ′_38 lies in {interval}", paper_38, 5
        ),
        Refutation(
            "yarn_paper_is_not_code",
            "YaRN's paper and its reference code give the same θ′ (at pair 38: code/paper = 1)",
            sp.Eq(_unevaluated_ratio(code_38, paper_38), 1, evaluate=False),
        ),
    )


# ── Llama 3 ───────────────────────────────────────────────────────────────────────────────


def _yarn_map_as_written(theta: sp.Expr, gamma: sp.Expr) -> sp.Expr:
    """(1 − γ)·θ/s + γ·θ at a numeric γ, kept as written."""
    return sp.Add(
        sp.Mul(sp.Add(1, -gamma, evaluate=False), theta / S, evaluate=False),
        sp.Mul(gamma, theta, evaluate=False),
        evaluate=False,
    )


def llama3_derivations() -> tuple[Derivation, ...]:
    theta = FREQ
    wavelength = sp.Mul(2, sp.pi, sp.Pow(theta, -1, evaluate=False), evaluate=False)
    turns_i = _unevaluated_ratio(L, wavelength)
    smooth = _unevaluated_ratio(sp.Add(turns_i, -ALPHA, evaluate=False), BETA - ALPHA)
    llama = sp.Add(
        sp.Mul(sp.Add(1, -smooth, evaluate=False), theta / S, evaluate=False),
        sp.Mul(smooth, theta, evaluate=False),
        evaluate=False,
    )
    gamma = (L * theta / (2 * sp.pi) - ALPHA) / (BETA - ALPHA)
    return (
        Derivation(
            "llama3_middle_is_yarn_paper",
            "Llama 3 between the cut-offs: smooth = (L/λ_i − low)/(high − low) with λ_i = 2π/θ_i, "
            "θ′_i = (1 − smooth)θ_i/s + smooth·θ_i; with α = low, β = high that is YaRN's "
            "γ(ρ_i), ρ_i = L·θ_i/(2π)",
            (
                Step(llama),
                Step(yarn_map(theta, gamma, S), by=ALGEBRA, note="L/(2π/θ_i) = Lθ_i/(2π)"),
            ),
        ),
        Derivation(
            "llama3_high_frequencies",
            "Llama 3 keeps θ_i where λ_i < L/high, i.e. ρ_i > β: YaRN's γ = 1 gives θ_i too",
            (Step(_yarn_map_as_written(theta, sp.Integer(1))), Step(theta, by=ALGEBRA)),
        ),
        Derivation(
            "llama3_low_frequencies",
            "Llama 3 takes θ_i/s where λ_i > L/low, i.e. ρ_i < α: YaRN's γ = 0 gives θ_i/s too",
            (Step(_yarn_map_as_written(theta, sp.Integer(0))), Step(theta / S, by=ALGEBRA)),
        ),
    )


def llama3_facts() -> tuple[Derivation | NonNegative | Refutation, ...]:
    c = LLAMA3
    theta = exact_theta(c["i"], c["d"], c["base"])
    code = Derivation(
        "hf_yarn_pair_33",
        "transformers' yarn at b = 5·10⁵, d = 128, L = 8192, s = 8, β_fast = high = 4, "
        "β_slow = low = 1, pair 33: the ramp runs from pair 28 (c_4 = 28.22… rounded down) to "
        "pair 35 (c_1 = 34.98… rounded up), so pair 33 is 5/7 along it and θ′_33 = (3/8)·θ_33",
        (
            Step(code_value(c["i"], c["d"], c["base"], c["s"], c["length"], 4, 1)),
            Step(
                code_map(theta, c["s"], sp.Rational(5, 7)),
                by=INTEGER_PARTS,
                note="floor, ceiling and the clamps, each decided by a certified ball",
            ),
            Step(sp.Mul(sp.Rational(3, 8), theta, evaluate=False), by=ALGEBRA),
        ),
        display=code_display(c, 4, 1),
    )
    llama = paper_value(c["i"], c["d"], c["base"], c["s"], c["length"], 1, 4)
    yarn = code.rhs
    rho = turns(c["i"], c["d"], c["base"], c["length"])
    return (
        interval_fact(
            "llama3_pair_33_in_ramp",
            "Llama 3 at pair 33 (low 1, high 4): ρ_33 = 8192·θ_33/(2π) lies in [1, 4] (it is "
            "1.502…), so θ′_33 = (1 − γ)θ_33/8 + γθ_33 with γ = (ρ_33 − 1)/3",
            rho,
            sp.Integer(1),
            sp.Integer(4),
        ),
        code,
        Refutation(
            "llama3_is_not_hf_yarn",
            "Llama 3 equals transformers' yarn with β_fast = high, β_slow = low (at pair 33: "
            "yarn/llama3 = 1)",
            sp.Eq(_unevaluated_ratio(yarn, llama), 1, evaluate=False),
        ),
    )


def build(d_model: int = 8) -> Theorem:
    """The scaling theorem; d_model sets the head width of the temperature statement."""
    d = d_model
    yarn_code = yarn_code_derivation()
    temperature = temperature_derivation()
    return Theorem(
        name=NAME,
        title="RoPE scaling methods as maps on the frequencies, and where the code parts from the papers",
        statement=STATEMENT,
        formulas=(sp.Eq(sp.Symbol("theta'_i") / THETA_I, S ** (-2 * I / (D - 2)), evaluate=False),),
        parts=(
            linear_derivation(),
            ntk_ratio_derivation(),
            ntk_first_derivation(),
            ntk_last_derivation(),
            ntk_step_derivation(),
            *ntk_inequalities(),
            ntk_not_linear(),
            dynamic_at_original(),
            dynamic_base_fact(),
            vllm_refuted(),
            *yarn_bounds(),
            *ramp_continuity(),
            yarn_falls(),
            temperature,
            temperature_head(d, temperature),
            temperature_refuted(temperature),
            yarn_code,
            *yarn_facts(yarn_code),
            *llama3_derivations(),
            *llama3_facts(),
        ),
        twin="numeric.checks.rope_scaling.rope_scaling_table",
        # The default run checks positions below 8192; tests/numeric/test_rope_twins_at_full_length.py
        # runs each twin at 131072 (slow).
        twin_kwargs={"max_position": 8192, "samples": 256},
        remarks=(
            "Sources, as transcribed in rope-formulas.md and numeric.rope (transformers' "
            "modeling_rope_utils.py read from its code): linear, Chen et al. 2023 (arXiv "
            "2306.15595); NTK-aware b′ = b·s^(d/(d−2)), YaRN paper (arXiv 2309.00071) section 3.1; "
            "the ramp γ(ρ), section 3.2; the temperature √(1/t) = 0.1·ln s + 1, section 3.4; dynamic NTK, "
            "transformers' _compute_dynamic_ntk_parameters; Llama 3, Meta's apply_scaling as "
            "quoted in llama.cpp PR #8676; vLLM's constant base, vllm #41236. The papers' own "
            "text could not be consulted here (no network): the statements proved are the "
            "formulas as transcribed.",
            "Hypotheses are carried by parameters: s ≥ 1 is s = e^(g_s) (g_s ≥ 0) or s = 1 + σ "
            "(σ ≥ 0), b ≥ 1 is b = e^(g_b), d ≥ 4 is d = 2d_h + 2, and a ramp value in [0, 1] is "
            "cos²φ (every value in [0, 1] is one). With them, SymPy's assumptions see each "
            "witness is ≥ 0.",
            "Continuity of dynamic NTK in l is dynamic_at_original_length and "
            "dynamic_base_at_least_1 put together by composition (a real power of a positive "
            "continuous function is continuous); that last step is not checked by the engine. "
            "Likewise yarn_falls_with_i takes ramp weights that do not rise with i: the paper's "
            "γ(ρ_i) (γ rises with ρ, and ρ_i = L·θ_i/(2π) falls with i) and the code's "
            "1 − ramp_i (a clamped line rising in i) are such weights by their definitions.",
            "The refuted claim 'NTK-aware is θ_i/s for every i' fails at i = 0; at the last pair "
            "the two agree (ntk_last_pair).",
            "LongRoPE's θ′_i = θ_i/λ_i with a searched vector λ (arXiv 2402.13753) is a definition "
            "with no stated property to prove; the numeric twin checks transformers' computation of "
            "it and of its attention factor.",
        ),
    )


if __name__ == "__main__":
    from proofs.cli.main import run_theorem_module

    raise SystemExit(run_theorem_module(NAME))
