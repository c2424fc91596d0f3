"""Dynamic NTK scaling: the base grows with the sequence length l past L.

b(l) = b·(s·l/L − (s − 1))^(d/(d−2)) with l = max(seq_len, L) and L = max_position_embeddings:
transformers' _compute_dynamic_ntk_parameters, recomputed by dynamic_rope_update whenever a
longer sequence arrives. At l <= L the base is b.

Keys: factor, required, a number in [1, 1e18]; max_position_embeddings (top level), required,
an integer in [1, 2**53]; the sequence length an integer in [0, 2**53]; the rotary width at
least 4 (the exponent d/(d−2)).
Recognised only with its configuration: the cache fixes a base, which is the configuration's
at the cache's length (or, for vllm #41236, at another length).

>>> dynamic_ntk_base(10000.0, 1e17, 128, None, 4096)
10000.0
"""

from __future__ import annotations

import math

import mpmath
import numpy as np

from numeric.rope import exact
from numeric.rope import properties as twin
from numeric.rope.method import CacheFit, Scaling, ScalingMethod
from numeric.rope.parameters import BASE, FACTOR, LENGTH, MAX_LENGTH, SEQ_LEN, Reading, rotary_dim
from numeric.rope.scaling import check_arithmetic, geometric


def dynamic_ntk_base(
    base: float,
    factor: float,
    dim: int,
    seq_len: int | None,
    max_position_embeddings: int,
    *,
    arithmetic: str = "float64",
) -> float:
    """b·(s·l/L − (s − 1))^(d/(d−2)) with l = max(seq_len, L), L = max_position_embeddings.
    seq_len None means L (the base is then b).

    base in (1, 1e100], factor in [1, 1e18], dim even in [4, 2**16], seq_len and L integers in
    [0, 2**53] and [1, 2**53]. "float64" evaluates 1 + s·(l − L)/L, the same number without
    the cancellation of s − (s − 1) when s is large (at l = L it is exactly 1, so the base is
    b). "float32" follows the path a forward pass takes once l > L: seq_len is then a tensor
    (dynamic_rope_update passes torch.max(position_ids) + 1), so every step is a float32
    tensor operation, in transformers' order; at l <= L nothing is recomputed and the base is b.
    """
    dtype = check_arithmetic(arithmetic)
    dim = rotary_dim(dim)
    base, factor = BASE.check(base, "base"), FACTOR.check(factor, "factor")
    original = int(LENGTH.check(max_position_embeddings, "max_position_embeddings"))
    if seq_len is not None:
        SEQ_LEN.check(seq_len, "seq_len")
    if dim == 2:
        raise ValueError("dim must be at least 4 for the dynamic NTK base: d/(d−2) needs d > 2")
    length = original if seq_len is None else max(int(seq_len), original)
    if length == original:
        return base
    exponent = dim / (dim - 2)
    if dtype == np.float64:
        return base * (1 + factor * ((length - original) / original)) ** exponent
    f32 = np.float32
    grown = (f32(factor) * f32(length)) / f32(original) - f32(factor - 1)
    with np.errstate(over="ignore"):
        powered = f32(np.float64(grown) ** exponent)
        result = float(f32(base) * powered)
    if not math.isfinite(result):
        raise ValueError(
            f"the dynamic NTK base overflows float32 at factor {factor:g}, seq_len {length}, "
            f"max_position_embeddings {original}: factor × seq_len / max_position_embeddings "
            "must stay within float32"
        )
    return result


def dynamic_ntk_frequencies(
    dim: int,
    base: float,
    factor: float,
    seq_len: int | None,
    max_position_embeddings: int,
    *,
    arithmetic: str = "float64",
) -> np.ndarray:
    """default frequencies with the base dynamic_ntk_base(...) at sequence length seq_len."""
    grown = dynamic_ntk_base(
        base, factor, dim, seq_len, max_position_embeddings, arithmetic=arithmetic
    )
    return geometric(dim, grown, check_arithmetic(arithmetic))


def vllm_41236_dynamic_base(base: float, factor: float, dim: int) -> float:
    """The constant base vLLM's DynamicNTKScalingRotaryEmbedding computed before PR #41277
    (issue vllm #41236): the dynamic formula with l = s·L substituted, b·(s² − s + 1)^(d/(d−2)),
    whatever the sequence length. Kept to show the bug, not to use."""
    dim = rotary_dim(dim)
    if dim == 2:
        raise ValueError("dim must be at least 4: d/(d−2) needs d > 2")
    factor = FACTOR.check(factor, "factor")
    return BASE.check(base, "base") * (factor * factor - (factor - 1)) ** (dim / (dim - 2))


def exact_base(b: float, s: float, d: int, seq_len: int, length: int) -> mpmath.mpf:
    """b·(s·l/L − (s − 1))^(d/(d−2)) with l = max(seq_len, L), in mpmath."""
    with mpmath.workdps(exact.DPS + 10):
        l = max(seq_len, length)
        return +(
            mpmath.mpf(b)
            * (mpmath.mpf(s) * l / length - (mpmath.mpf(s) - 1)) ** (mpmath.mpf(d) / (d - 2))
        )


def _property_rows(at: twin.Sampling) -> list[list]:
    """This method's rows of the rope_scaling twin (numeric.rope.properties)."""
    at_l = at_l32 = 0.0
    steps = 0.0
    vllm = math.inf
    for d, b, s, length in twin.grid():
        at_l = max(at_l, abs(dynamic_ntk_base(b, s, d, length, length) / b - 1))
        at_l32 = max(
            at_l32,
            abs(dynamic_ntk_base(b, s, d, length, length, arithmetic="float32") / b - 1),
        )
        e = d / (d - 2)
        ls = np.arange(length, 8 * length)
        bases = np.array([dynamic_ntk_base(b, s, d, int(l), length) for l in ls[::97]])
        grown = s * (ls[::97] + 1) / length - (s - 1)
        # Mean value theorem: a step of 1 in l moves the base by at most b·e·(s/L)·g(l+1)^(e−1).
        slope = b * e * (s / length) * grown ** (e - 1)
        nxt = np.array([dynamic_ntk_base(b, s, d, int(l) + 1, length) for l in ls[::97]])
        steps = max(steps, float(np.max(np.abs(nxt - bases) / slope)))
        vllm = min(vllm, vllm_41236_dynamic_base(b, s, d) / b - 1)
    near = 0.0
    d, b, s, length = 128, 10000.0, 8.0, 4096
    with mpmath.workdps(exact.DPS):
        e = mpmath.mpf(d) / (d - 2)
        for k in range(3, 13):
            eps = mpmath.mpf(10) ** -k
            value = exact_base(b, s, d, length * (1 + eps), length)
            # Mean value theorem: (B(L(1+ε)) − b)/(b·ε) <= e·s·(1 + s·ε)^(e−1), tending to e·s.
            near = max(near, float((value - b) / b / eps / (e * s * (1 + s * eps) ** (e - 1))))
    cases = f"{twin.cases()} settings"
    return [
        twin.row("dynamic NTK", "base at l = L equals b (relative), float64", cases, at_l, 0.0),
        twin.row("dynamic NTK", "same, float32 forward path", cases, at_l32, 0.0),
        twin.row(
            "dynamic NTK",
            "steps in l within the derivative bound (ratio)",
            f"{cases}, l in [L, 8L)",
            steps,
            1 + 1e-9,
        ),
        twin.row(
            "dynamic NTK",
            "(base(L(1+ε)) − b)/(b·ε) within its limit (ratio), mpmath",
            "ε = 1e-3 … 1e-12, d 128, s 8",
            near,
            1.0,
        ),
        twin.row(
            "dynamic NTK",
            "vLLM #41236's constant b·(s²−s+1)^(d/(d−2)) = base at l = L (min relative gap)",
            cases,
            vllm,
            64 * twin.U,
            "refuted",
        ),
    ]


class Dynamic(ScalingMethod):
    name = rope_type = "dynamic"
    label = "dynamic NTK"
    short = "dynamic NTK"
    order = 2
    bugs = ("dynamic_constant_base",)
    keys = ("factor", "max_position_embeddings")

    def read(self, reading: Reading) -> dict[str, object]:
        factor = reading.required("factor", FACTOR, self.name)
        if reading.rotary_dim < 4:
            raise ValueError(
                f"dynamic scaling needs a rotary width of at least 4 (its exponent d/(d−2) "
                f"needs d > 2), got {reading.rotary_dim}"
            )
        if reading.max_position_embeddings is None:
            raise ValueError(f"dynamic scaling needs max_position_embeddings: {LENGTH}")
        return {"factor": factor}

    def frequencies(self, config, seq_len: int | None, arithmetic: str) -> np.ndarray:
        return dynamic_ntk_frequencies(
            config.rotary_dim,
            config.base,
            config.factor,
            seq_len,
            config.max_position_embeddings,
            arithmetic=arithmetic,
        )

    def exact(self, config, i: int, seq_len: int | None = None) -> mpmath.mpf:
        L = config.max_position_embeddings
        grown = exact_base(config.base, config.factor, config.rotary_dim, seq_len or L, L)
        return exact.theta(i, config.rotary_dim, grown)

    def from_config(self, config, seq_len: int, fit: CacheFit) -> list[Scaling]:
        """The base at the cache's length, and at the length the cache's own base gives."""
        d, b, s, L = config.rotary_dim, config.base, config.factor, config.max_position_embeddings
        length = seq_len
        grown = fit.fitted
        if grown is not None and d > 2:
            estimate = L * ((grown / b) ** ((d - 2) / d) + s - 1) / s
            if math.isfinite(estimate) and L < estimate <= MAX_LENGTH:
                length = round(estimate)
        found = []
        for l in dict.fromkeys((min(seq_len, MAX_LENGTH), length)):
            params = {
                "factor": s,
                "original_max_position_embeddings": L,
                "seq_len": max(l, L),
                "base": dynamic_ntk_base(b, s, d, l, L),
            }
            model = dynamic_ntk_frequencies(d, b, s, l, L)
            found.append(Scaling(self.name, b, params, model, source="config"))
        return found

    def config_finding(
        self, found: Scaling, config, pair: int, ratio: float, seq_len: int, where: str
    ) -> tuple[str, str] | None:
        if found.type != self.name:
            return None
        built = found.parameters["seq_len"]
        wanted = max(seq_len, config.max_position_embeddings or 0)
        constant = config.factor * (config.max_position_embeddings or 0)
        why = (
            f" (= factor × max_position_embeddings = {constant:g}, the constant base of "
            "vllm #41236)"
            if built == constant
            else ""
        )
        return (
            "dynamic_constant_base",
            f"the dynamic NTK base was computed for length {built}{why}, but the cache's "
            f"positions end at {seq_len - 1} (length {seq_len}), where the base is "
            f"{config.base:g}·(s·l/L − (s − 1))^(d/(d−2)) at l = {wanted}: the base does not "
            f"follow the sequence length; {where}",
        )

    def figure_curves(self, dim, base, factor, original) -> list[tuple[str, np.ndarray]]:
        length = int(factor * original)
        curve = dynamic_ntk_frequencies(dim, base, factor, length, original)
        return [(f"dynamic NTK at $l = sL$ = {length}", curve)]

    def property_rows(self, at: twin.Sampling) -> list[list]:
        return _property_rows(at)


METHOD = Dynamic()
