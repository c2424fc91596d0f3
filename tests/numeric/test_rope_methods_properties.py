"""Every RoPE scaling method, drawn across and beyond its parameters' ranges (hypothesis).

For each method of the registry, a configuration whose keys are drawn from plausible values
and from hostile ones (0, negatives, subnormals, 1e-320, 1e308, inf, nan, huge integers, bools,
strings, lists, objects) is read by rope_config and, when accepted, turned into frequencies at a
drawn sequence length in both arithmetics, with the exact reference at the first and last
pair. The outcome is a value (finite frequencies and attention factor) or a ValueError or
TypeError, never another exception and never a NumPy warning (issue 34, items 8 and 14). The
public helpers of each method's file are drawn the same way. The fast suite draws a few dozen
examples per method; the slow-marked variant draws many.
"""

from __future__ import annotations

import math
import warnings

import mpmath
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from numeric.rope import rope_config, rope_frequencies
from numeric.rope.methods import dynamic, linear, llama3, longrope, ntk, scaling_methods, yarn
from numeric.rope.scaling import default_frequencies

HOSTILE = st.sampled_from(
    [
        0,
        -1,
        -0.0,
        1,
        0.5,
        1e-320,
        5e-324,
        2.0**-1074,
        1e308,
        -1e308,
        math.inf,
        -math.inf,
        math.nan,
        2**64,
        2**1000,
        10**400,
        True,
        False,
        None,
        "8",
        "",
        [1.0],
        [],
        {},
        {"a": 1},
        np.float32(3e38),
        np.float32(16.0),
        np.float64(np.nan),
        np.int64(-5),
        np.int64(2**62),
        np.bool_(True),
    ]
)
NUMBER = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(2**80), max_value=2**80),
    st.floats(min_value=1.0, max_value=1e20),
)
WILD = st.one_of(HOSTILE, NUMBER)
PLAUSIBLE = {
    "factor": st.floats(min_value=1.0, max_value=64.0),
    "beta_fast": st.floats(min_value=0.5, max_value=64.0),
    "beta_slow": st.floats(min_value=0.1, max_value=4.0),
    "mscale": st.floats(min_value=0.0, max_value=2.0),
    "mscale_all_dim": st.floats(min_value=0.0, max_value=2.0),
    "attention_factor": st.floats(min_value=0.1, max_value=4.0),
    "low_freq_factor": st.floats(min_value=0.5, max_value=2.0),
    "high_freq_factor": st.floats(min_value=2.0, max_value=8.0),
    "original_max_position_embeddings": st.integers(min_value=1, max_value=2**20),
    "truncate": st.booleans(),
}
METHODS = [m for m in scaling_methods() if m.rope_type is not None]


def _value(key: str) -> st.SearchStrategy:
    return st.one_of(PLAUSIBLE.get(key, NUMBER), WILD)


@st.composite
def configs(draw, method) -> dict:
    head_dim = draw(st.one_of(st.sampled_from([2, 4, 8, 16, 64, 128]), WILD))
    pairs = head_dim // 2 if isinstance(head_dim, int) and 2 <= head_dim <= 256 else 4
    rope: dict = {"rope_type": method.rope_type}
    for key in method.keys:
        if key in ("short_factor", "long_factor"):
            entry = st.one_of(st.floats(min_value=0.5, max_value=64.0), WILD)
            size = st.one_of(st.just(pairs), st.integers(min_value=0, max_value=2 * pairs + 2))
            rope[key] = draw(
                st.one_of(
                    size.flatmap(lambda n, e=entry: st.lists(e, min_size=n, max_size=n)), WILD
                )
            )
        elif key != "max_position_embeddings" and draw(st.booleans()):
            rope[key] = draw(_value(key))
    config = {"head_dim": head_dim, "rope_scaling": rope}
    for key, strategy in (
        ("max_position_embeddings", st.integers(min_value=1, max_value=2**20)),
        ("rope_theta", st.floats(min_value=2.0, max_value=1e7)),
        ("partial_rotary_factor", st.sampled_from([0.25, 0.5, 1.0])),
    ):
        if draw(st.booleans()):
            config[key] = draw(st.one_of(strategy, WILD))
    return config


def _finite(values) -> bool:
    return bool(np.all(np.isfinite(np.asarray(values, dtype=np.float64))))


def _outcome_is_a_value_or_a_refusal(config: dict, seq_len: object) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        try:
            c = rope_config(config)
        except (ValueError, TypeError):
            return
        for arithmetic in ("float32", "float64"):
            try:
                found = rope_frequencies(c, seq_len=seq_len, arithmetic=arithmetic)  # type: ignore[arg-type]
            except (ValueError, TypeError):
                continue
            assert found.inv_freq.shape == (c.pairs,)
            assert _finite(found.inv_freq), (config, seq_len, arithmetic)
            assert math.isfinite(found.attention_factor)
        if c.method.name != "ntk":
            with mpmath.workdps(15):
                for i in (0, c.pairs - 1):
                    try:
                        value = c.method.exact(c, i, seq_len if isinstance(seq_len, int) else None)
                    except (ValueError, TypeError):
                        continue
                    assert mpmath.isfinite(value)


SEQ_LEN = st.one_of(st.none(), st.integers(min_value=0, max_value=2**22), WILD)


def _run(method, examples: int) -> None:
    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(configs(method), SEQ_LEN)
    def check(config, seq_len):
        _outcome_is_a_value_or_a_refusal(config, seq_len)

    check()


HELPERS = [
    ("default_frequencies", lambda a: default_frequencies(a[0], a[1])),
    ("linear_frequencies", lambda a: linear.linear_frequencies(a[0], a[1], a[2])),
    ("ntk_aware_base", lambda a: ntk.ntk_aware_base(a[1], a[2], a[0])),
    ("dynamic_ntk_base", lambda a: dynamic.dynamic_ntk_base(a[1], a[2], a[0], a[3], a[4])),
    (
        "dynamic_ntk_frequencies32",
        lambda a: dynamic.dynamic_ntk_frequencies(
            a[0], a[1], a[2], a[3], a[4], arithmetic="float32"
        ),
    ),
    ("yarn_correction_dim", lambda a: yarn.yarn_correction_dim(a[2], a[0], a[1], a[4])),
    (
        "yarn_frequencies",
        lambda a: yarn.yarn_frequencies(a[0], a[1], a[2], a[4], beta_fast=a[3], beta_slow=a[5]),
    ),
    (
        "yarn_attention_factor",
        lambda a: yarn.yarn_attention_factor(a[2], mscale=a[3], mscale_all_dim=a[5]),
    ),
    ("yarn_ramp", lambda a: yarn.yarn_ramp(a[2], a[3], a[0])),
    ("llama3_frequencies", lambda a: llama3.llama3_frequencies(a[0], a[1], a[2], a[3], a[5], a[4])),
    ("longrope_frequencies", lambda a: longrope.longrope_frequencies(a[0], a[1], [a[2]] * 4)),
    ("longrope_attention_factor", lambda a: longrope.longrope_attention_factor(a[2], a[4], a[3])),
]
ARGUMENT = st.one_of(st.sampled_from([8, 128, 1e4, 4.0, 32.0, 1.0, 4096]), WILD)


def _run_helper(call, examples: int) -> None:
    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.tuples(*[ARGUMENT] * 6))
    def check(arguments):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                value = call(arguments)
            except (ValueError, TypeError):
                return
            assert _finite(value), arguments

    check()


@pytest.mark.parametrize("method", METHODS, ids=lambda m: m.name)
def test_each_method_gives_a_value_or_a_refusal(method):
    _run(method, 40)


@pytest.mark.parametrize(("name", "call"), HELPERS, ids=[h[0] for h in HELPERS])
def test_each_helper_gives_a_value_or_a_refusal(name, call):
    _run_helper(call, 25)


@pytest.mark.slow
@pytest.mark.parametrize("method", METHODS, ids=lambda m: m.name)
def test_each_method_gives_a_value_or_a_refusal_many(method):
    _run(method, 1000)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "call"), HELPERS, ids=[h[0] for h in HELPERS])
def test_each_helper_gives_a_value_or_a_refusal_many(name, call):
    _run_helper(call, 1000)
