"""Each RoPE scaling method's stated properties, numerically: the twin of rope_scaling.

Every method is computed by numeric.rope.scaling as transformers computes it (float64, and
float32 where the row says so) over a grid of settings: d ∈ {64, 128}, b ∈ {10⁴, 5·10⁵},
s ∈ {2, 4, 8, 16, 40}, L ∈ {2048, 4096, 8192}. A row "holds" when the measured deviation from
the claim is within its rounding bound (u = 2⁻⁵³ in float64, 2⁻²⁴ in float32), and is
"refuted" when it exceeds a million times that bound. Relative deviations are measured
against the exact statement; monotonicity as max_i (θ′_{i+1}/θ′_i − 1), which must be < 0.
Paper-against-code values come with their mpmath values (numeric.rope.claims).
"""

from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np

from numeric.checks.rope_layouts import sample_pairs
from numeric.result_table import Table
from numeric.rope import exact
from numeric.rope.apply import apply_rope
from numeric.rope.claims import rope_claims
from numeric.rope.methods import dynamic, linear, llama3, longrope, ntk, yarn
from numeric.rope.papers import yarn_paper_frequencies, yarn_paper_ramp
from numeric.rope.scaling import default_frequencies

_U = 2.0**-53
_U32 = 2.0**-24
DIMS = (64, 128)
BASES = (10000.0, 500000.0)
FACTORS = (2.0, 4.0, 8.0, 16.0, 40.0)
LENGTHS = (2048, 4096, 8192)


def _grid():
    return itertools.product(DIMS, BASES, FACTORS, LENGTHS)


def _cases() -> int:
    return len(DIMS) * len(BASES) * len(FACTORS) * len(LENGTHS)


def _row(method, claim, cases, measured, bound, expected="holds"):
    return [method, claim, cases, float(measured), float(bound), expected]


def _falling(values: np.ndarray) -> float:
    """max_i (v_{i+1}/v_i − 1): negative when v falls strictly with i."""
    return float(np.max(values[1:] / values[:-1] - 1))


def _linear_rows(max_position: int) -> list[list]:
    theta = default_frequencies(128, 10000.0)
    worst = bound = 0.0
    for s in FACTORS:
        scaled = linear.linear_frequencies(128, 10000.0, s)
        for a in range(0, max_position, 8192):
            m = np.arange(a, min(a + 8192, max_position), dtype=np.float64)[:, None]
            by_frequency, by_position = m * scaled, (m / s) * theta
            gap = max(
                float(np.abs(np.cos(by_frequency) - np.cos(by_position)).max()),
                float(np.abs(np.sin(by_frequency) - np.sin(by_position)).max()),
            )
            worst = max(worst, gap)
            bound = max(bound, 6 * _U * float(by_position.max()) + 4 * _U)
    return [
        _row(
            "linear",
            "R(m·θ/s) = R((m/s)·θ): cos, sin",
            f"s ∈ {FACTORS}, every m < {max_position}, d = 128",
            worst,
            bound,
        )
    ]


def _ntk_rows() -> list[list]:
    first = last = formula = outside = falling = exactly = 0.0
    falling = -math.inf
    for d, b, s, _ in _grid():
        theta = default_frequencies(d, b)
        new = ntk.ntk_aware_frequencies(d, b, s)
        ratio = new / theta
        i = np.arange(d // 2)
        first = max(first, abs(new[0] - theta[0]))
        last = max(last, abs(new[-1] / (theta[-1] / s) - 1))
        formula = max(formula, float(np.max(np.abs(ratio / s ** (-2 * i / (d - 2)) - 1))))
        outside = max(outside, float(np.max(np.maximum(1 / s - ratio, ratio - 1) * s)))
        falling = max(falling, _falling(ratio))
        exactly = max(exactly, float(np.max(np.abs(new / (theta / s) - 1))))
    cases = f"{_cases()} settings"
    return [
        _row("NTK-aware", "θ′_0 = θ_0", cases, first, 0.0),
        _row("NTK-aware", "θ′_{d/2−1} = θ_{d/2−1}/s (relative)", cases, last, 64 * _U),
        _row("NTK-aware", "θ′_i/θ_i = s^(−2i/(d−2)) (relative)", cases, formula, 64 * _U),
        _row("NTK-aware", "1/s <= θ′_i/θ_i <= 1 (excess, relative)", cases, outside, 64 * _U),
        _row("NTK-aware", "θ′_i/θ_i falls with i: max (next/this − 1)", cases, falling, 0.0),
        _row("NTK-aware", "θ′_i = θ_i/s for all i (relative)", cases, exactly, 64 * _U, "refuted"),
    ]


def _dynamic_rows() -> list[list]:
    at_l = at_l32 = 0.0
    steps = 0.0
    vllm = math.inf
    for d, b, s, length in _grid():
        at_l = max(at_l, abs(dynamic.dynamic_ntk_base(b, s, d, length, length) / b - 1))
        at_l32 = max(
            at_l32,
            abs(dynamic.dynamic_ntk_base(b, s, d, length, length, arithmetic="float32") / b - 1),
        )
        e = d / (d - 2)
        ls = np.arange(length, 8 * length)
        bases = np.array([dynamic.dynamic_ntk_base(b, s, d, int(l), length) for l in ls[::97]])
        grown = s * (ls[::97] + 1) / length - (s - 1)
        # Mean value theorem: a step of 1 in l moves the base by at most b·e·(s/L)·g(l+1)^(e−1).
        slope = b * e * (s / length) * grown ** (e - 1)
        nxt = np.array([dynamic.dynamic_ntk_base(b, s, d, int(l) + 1, length) for l in ls[::97]])
        steps = max(steps, float(np.max(np.abs(nxt - bases) / slope)))
        vllm = min(vllm, dynamic.vllm_41236_dynamic_base(b, s, d) / b - 1)
    near = 0.0
    d, b, s, length = 128, 10000.0, 8.0, 4096
    with mpmath.workdps(exact.DPS):
        e = mpmath.mpf(d) / (d - 2)
        for k in range(3, 13):
            eps = mpmath.mpf(10) ** -k
            value = dynamic.exact_base(b, s, d, length * (1 + eps), length)
            # Mean value theorem: (B(L(1+ε)) − b)/(b·ε) <= e·s·(1 + s·ε)^(e−1), tending to e·s.
            near = max(near, float((value - b) / b / eps / (e * s * (1 + s * eps) ** (e - 1))))
    cases = f"{_cases()} settings"
    return [
        _row("dynamic NTK", "base at l = L equals b (relative), float64", cases, at_l, 0.0),
        _row("dynamic NTK", "same, float32 forward path", cases, at_l32, 0.0),
        _row(
            "dynamic NTK",
            "steps in l within the derivative bound (ratio)",
            f"{cases}, l in [L, 8L)",
            steps,
            1 + 1e-9,
        ),
        _row(
            "dynamic NTK",
            "(base(L(1+ε)) − b)/(b·ε) within its limit (ratio), mpmath",
            "ε = 1e-3 … 1e-12, d 128, s 8",
            near,
            1.0,
        ),
        _row(
            "dynamic NTK",
            "vLLM #41236's constant b·(s²−s+1)^(d/(d−2)) = base at l = L (min relative gap)",
            cases,
            vllm,
            64 * _U,
            "refuted",
        ),
    ]


def _yarn_rows(samples: int, max_position: int) -> list[list]:
    rows = []
    for arithmetic, u in (("float64", _U), ("float32", _U32)):
        within = falling = -math.inf
        steps = 0.0
        for (d, b, s, length), (fast, slow) in itertools.product(
            _grid(), ((32.0, 1.0), (4.0, 1.0))
        ):
            theta = default_frequencies(d, b, arithmetic=arithmetic).astype(np.float64)
            new = yarn.yarn_frequencies(
                d, b, s, length, beta_fast=fast, beta_slow=slow, arithmetic=arithmetic
            ).astype(np.float64)
            within = max(within, float(np.max(np.maximum(theta / s - new, new - theta) / theta)))
            falling = max(falling, _falling(new))
            low, high = yarn.yarn_correction_range(fast, slow, d, b, length, truncate=True)
            ramp = yarn.yarn_ramp(low, high, d // 2, arithmetic=arithmetic).astype(np.float64)
            steps = max(
                steps, float(np.max(np.abs(np.diff(ramp)))) * (high - low if high > low else 1)
            )
            # Each ramp value is within u of its real value, so a step is within 3u of 1/(high − low).
            step_bound = 1 + 3 * u * max(DIMS)
        cases = f"{2 * _cases()} settings (β 32/1 and 4/1), {arithmetic}"
        rows += [
            _row("YaRN (code)", "θ_i/s <= θ′_i <= θ_i (excess, relative)", cases, within, 4 * u),
            _row("YaRN (code)", "θ′_i falls with i: max (next/this − 1)", cases, falling, 0.0),
            _row(
                "YaRN (code)",
                "ramp steps between pairs ≤ 1/(high − low): no jump at the ends (ratio)",
                cases,
                steps,
                step_bound,
            ),
        ]
    jump = 0.0
    falling = -math.inf
    for d, b, s, length in _grid():
        new = yarn_paper_frequencies(d, b, s, length)
        falling = max(falling, _falling(new))
        for edge in (1.0, 32.0):
            for eps in (1e-3, 1e-6, 1e-9):
                below, above = yarn_paper_ramp(np.array([edge - eps, edge + eps]), 1.0, 32.0)
                jump = max(jump, abs(above - below) / (2 * eps / 31))
    cases = f"{_cases()} settings"
    rows += [
        _row(
            "YaRN (paper)",
            "γ continuous at r = α, β: |γ(r+ε) − γ(r−ε)| / (2ε/(β−α))",
            "ε = 1e-3, 1e-6, 1e-9",
            jump,
            1 + 1e-6,
        ),
        _row("YaRN (paper)", "θ′_i falls with i: max (next/this − 1)", cases, falling, 0.0),
    ]
    # cos and sin scaled by the attention factor m scale every logit by m².
    rng = np.random.default_rng(1)
    freqs = yarn.yarn_frequencies(128, 10000.0, 16.0, 4096)
    m = yarn.yarn_attention_factor(16.0)
    q, k = rng.standard_normal((samples, 128)), rng.standard_normal((samples, 128))
    at_m, at_n = sample_pairs(samples, max_position, rng)
    plain = np.einsum("nd,nd->n", apply_rope(q, at_m, freqs), apply_rope(k, at_n, freqs))
    scaled = np.einsum(
        "nd,nd->n",
        apply_rope(q, at_m, freqs, attention_factor=m),
        apply_rope(k, at_n, freqs, attention_factor=m),
    )
    norms = np.linalg.norm(q, axis=1) * np.linalg.norm(k, axis=1)
    cases = f"{samples} (m, n) below {max_position}, s = 16, factor {m:.6f}"
    rows += [
        _row(
            "YaRN",
            "cos, sin × m ⇒ logits × m²: |scaled − m²·plain| / (m²‖q‖‖k‖)",
            cases,
            np.max(np.abs(scaled - m * m * plain) / (m * m * norms)),
            2 * (48 + 128) * _U,
        ),
        _row(
            "YaRN",
            "logits × m: |scaled − m·plain| / (m²‖q‖‖k‖)",
            cases,
            np.max(np.abs(scaled - m * plain) / (m * m * norms)),
            2 * (48 + 128) * _U,
            "refuted",
        ),
    ]
    claims = {c.name: c for c in rope_claims()}
    code, paper = claims["yarn_code_pair_38"], claims["yarn_paper_pair_38"]
    rows.append(
        _row(
            "YaRN",
            "paper §3.2 = code at pair 38: code/paper − 1",
            f"b 1e4, d 128, L 4096, s 16: code {code.float64:.5g} (mpmath {float(code.exact):.10g}), paper {paper.float64:.5g} (mpmath {float(paper.exact):.10g})",
            code.float64 / paper.float64 - 1,
            16 * _U,
            "refuted",
        )
    )
    return rows


def _llama3_rows() -> list[list]:
    same = bound = 0.0
    for d, b, s, length in _grid():
        for low, high in ((1.0, 4.0), (1.0, 2.0), (2.0, 8.0)):
            llama = llama3.llama3_frequencies(d, b, s, low, high, length)
            paper = yarn_paper_frequencies(d, b, s, length, alpha=low, beta=high)
            gap = float(np.max(np.abs(llama / paper - 1)))
            # smooth = (L/λ − low)/(high − low) is within ~4u·high/(high − low) of its value,
            # and θ′/θ = 1/s + smooth·(1 − 1/s) >= 1/s turns that into up to s times as much.
            tolerance = 8 * _U * (1 + s * (1 + high / (high - low)))
            if gap / tolerance >= same / max(bound, 1e-300):
                same, bound = gap, tolerance
    claims = {c.name: c for c in rope_claims()}
    apart = claims["hf_yarn_over_llama3_pair_33"]
    exactly = claims["llama3_vs_yarn_paper"]
    return [
        _row(
            "Llama 3",
            "= YaRN paper with α = low, β = high, no temperature (relative)",
            f"{3 * _cases()} settings (low, high) ∈ (1, 4), (1, 2), (2, 8); worst against its bound; mpmath at b 5e5, d 128, L 8192, s 8: {float(exactly.exact):.3g}",
            same,
            bound,
        ),
        _row(
            "Llama 3",
            "= transformers' yarn with β_fast = high, β_slow = low, at pair 33: yarn/llama3 − 1",
            f"b 5e5, d 128, L 8192, s 8 (mpmath {float(apart.exact):.10g})",
            apart.float64,
            16 * _U,
            "refuted",
        ),
    ]


def _longrope_rows() -> list[list]:
    rng = np.random.default_rng(2)
    worst = factor_gap = 0.0
    for d, b, s, length in _grid():
        rescale = 1 + 40 * rng.random(d // 2)
        theta = default_frequencies(d, b)
        worst = max(
            worst,
            float(
                np.max(np.abs(longrope.longrope_frequencies(d, b, rescale) / (theta / rescale) - 1))
            ),
        )
        stated = math.sqrt(1 + math.log(s) / math.log(length))
        factor_gap = max(
            factor_gap, abs(longrope.longrope_attention_factor(s, length) / stated - 1)
        )
    return [
        _row(
            "LongRoPE",
            "θ′_i = θ_i/λ_i (relative)",
            f"{_cases()} settings, random λ in [1, 41)",
            worst,
            8 * _U,
        ),
        _row(
            "LongRoPE",
            "attention factor = √(1 + ln s / ln L) (relative)",
            f"{_cases()} settings",
            factor_gap,
            4 * _U,
        ),
    ]


def rope_scaling_table(*, samples: int = 1024, max_position: int = 131072) -> Table:
    """One row per stated property of each scaling method; see the module docstring.

    samples: (m, n) pairs for the attention-factor rows; max_position: positions below it.
    """
    if not isinstance(samples, int) or samples < 4:
        raise ValueError(f"samples must be an integer of at least 4, got {samples!r}")
    if not isinstance(max_position, int) or not 4 <= max_position <= 2**31:
        raise ValueError(f"max_position must be an integer in [4, 2**31], got {max_position!r}")
    rows = (
        _linear_rows(max_position)
        + _ntk_rows()
        + _dynamic_rows()
        + _yarn_rows(samples, max_position)
        + _llama3_rows()
        + _longrope_rows()
    )
    checked = []
    for method, claim, cases, measured, bound, expected in rows:
        ok = measured <= bound if expected == "holds" else measured > 1e6 * bound
        checked.append((method, claim, cases, measured, bound, expected, ok))
    return Table(
        title="RoPE scaling methods, their stated properties",
        headline="each scaling method has the properties its source states",
        columns=("method", "claim", "cases", "measured", "bound", "expected", "as expected"),
        rows=tuple(checked),
        formats=("", "", "", ".6g", ".6g", "", ""),
        note=(
            "holds: measured within its rounding bound; refuted: measured above a million times "
            "it; monotone rows report max (next/this − 1), which must not exceed 0"
        ),
        passed=all(r[-1] for r in checked),
    )
