"""numeric.audit_rope on the caches transformers' own code built (tests/data/real_rope).

Each cache is audited with the config beside it, and every field is checked against the truth
read from the library's source (truth.json), with `as_built` overriding the intent for a
seeded bug: convention, rotary width, head dim, base, scaling type and parameters, attention
factor, offset, precision. Every seeded bug must be named with its class and fail the audit,
and every correct cache must pass. The caches alone (no config) are checked for what a cache
can fix by itself.

Two honest limits are asserted as such rather than hidden:
- the float16-stored cache whose angles were computed in float32 (truth: bug "fp16_cache") is
  rounded once to float16, which transformers returns for every float16 model; the audit names
  it (class fp16_stored) without failing it; the gpt-neox #1003 fault (angles computed in
  16 bits, llama_bug_fp16_computed) fails;
- computed_in is None ("cannot tell") where the arithmetic's error hides below a 16-bit
  rounding, and float64 where inv_freq rounded to bfloat16 makes every float32 product exact.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from numeric import audit_rope

safetensors = pytest.importorskip("safetensors.numpy")

DATA = Path(__file__).parent.parent / "data" / "real_rope"
TRUTH = json.loads((DATA / "truth.json").read_text())
CACHES = {e["file"].removesuffix(".safetensors"): e for e in TRUTH["entries"] if "config_file" in e}
# The consumer's pairing when it is not what the cache's layout and config say: the seeded
# GPT-J cache is labelled for a rotate_half consumer.
CONSUMER = {"gptj_bug_rotate_half": "rotate_half"}
NOT_A_FAULT = {"llama_bug_fp16_cache"}


def built(entry: dict) -> dict:
    """The truth of what the file holds: the entry with as_built applied."""
    out = dict(entry)
    for key, value in (entry.get("as_built") or {}).items():
        if isinstance(value, dict) and "type" not in value:
            out[key] = {**out.get(key, {}), **value}
        else:
            out[key] = value
    return out


def load(name: str) -> dict:
    return safetensors.load_file(str(DATA / f"{name}.safetensors"))


@pytest.fixture(scope="module")
def audits() -> dict:
    found = {}
    for name, entry in CACHES.items():
        arrays = load(name)
        found[name] = audit_rope(
            arrays["cos"],
            arrays["sin"],
            positions=arrays["positions"],
            config=DATA / entry["config_file"],
            convention=CONSUMER.get(name),
        )
    return found


def close(a: float, b: float, rel: float = 1e-6) -> bool:
    return math.isclose(a, b, rel_tol=rel, abs_tol=1e-12)


@pytest.mark.parametrize("name", sorted(CACHES))
def test_identification(audits, name):
    truth, result = built(CACHES[name]), audits[name]
    assert result.convention == truth["convention"]
    assert result.rotary_dim == truth["rotary_dim"]
    assert result.head_dim == truth["head_dim"]
    assert result.base == truth["base"]
    assert result.position_offset == truth["position_offset"]
    assert close(result.attention_factor, truth["attention_factor"])


@pytest.mark.parametrize("name", sorted(CACHES))
def test_scaling_type_and_parameters(audits, name):
    want, got = built(CACHES[name])["scaling"], audits[name].scaling
    assert got["type"] == want["type"]
    for key in ("factor", "beta_fast", "beta_slow", "low_freq_factor", "high_freq_factor"):
        if key in want:
            assert close(got[key], want[key]), key
    if want["type"] != "dynamic" and "original_max_position_embeddings" in want:
        assert got["original_max_position_embeddings"] == want["original_max_position_embeddings"]
    if want["type"] == "dynamic":
        assert got["seq_len"] == want["seq_len"]
        assert got["original_max_position_embeddings"] == want["original_max_position_embeddings"]
    if want["type"] == "longrope":
        assert got["factors_used"] == want["factors_used"]
        assert np.allclose(got["rescale"], want[want["factors_used"]])
    for key in ("mscale", "mscale_all_dim"):
        if key in want:
            assert close(got[key], want[key]), key


@pytest.mark.parametrize("name", sorted(CACHES))
def test_precision(audits, name):
    truth, p = built(CACHES[name]), audits[name].precision
    assert p["stored"] == truth["stored_dtype"]
    assert p["inv_freq_rounded_to"] == truth.get("inv_freq_rounded_to")
    assert p["positions_rounded_to"] == truth.get("positions_rounded_to")
    if truth["stored_dtype"] == "float16" and truth["computed_in"] == "float32":
        assert p["grade"] == "rounded once" and p["computed_in"] is None
    elif truth.get("inv_freq_rounded_to") == "bfloat16":
        assert p["computed_in"] in ("float32", "float64")
    else:
        assert p["computed_in"] == truth["computed_in"]


@pytest.mark.parametrize("name", sorted(CACHES))
def test_frequencies_match_the_library(audits, name):
    """The library's float32 inv_freq is within the fit's bound plus two of its ulps: float32
    code rounds p·θ, which can put every angle on the grid of a nearby θ (θ = fl32(0.1) at
    positions 0, 5, 10, ...: every fl32(p·θ) is exactly 0.5k, so the cache turns by exactly 0.1)."""
    truth, result = built(CACHES[name]), audits[name]
    library = np.asarray(truth["inv_freq"])
    if truth.get("inv_freq_rounded_to"):
        return  # the truth lists inv_freq before the rounding the audit found
    off = np.abs(np.asarray(result.frequencies) - library)
    assert np.all(off <= np.asarray(result.frequency_bounds) + 2.0**-23 * library)


@pytest.mark.parametrize("name", sorted(CACHES))
def test_every_seeded_bug_is_named_and_fails(audits, name):
    truth, result = CACHES[name], audits[name]
    bug = truth["bug"]
    if bug is None:
        assert result.sound, result.findings
        assert result.faults == ()
    elif name in NOT_A_FAULT:
        assert result.sound
        assert "fp16_stored" in result.bugs
        assert any("stored in float16" in f for f in result.findings)
    else:
        assert not result.sound
        assert bug in result.bugs, (bug, result.bugs)
        assert bug in [f["bug"] for f in result.faults]


def test_the_bug_sentences_cite_the_public_threads(audits):
    cited = {
        "llama_bug_fp16_computed": "gpt-neox #1003",
        "llama_bug_bf16_inv_freq": "transformers #29496",
        "llama_bug_fp16_positions": "Megatron-LM #535",
        "llama_dynamic_bug_constant_base": "vllm #41236",
        "llama_yarn_bug_factor_dropped": "vllm #48623",
        "llama_yarn_bug_factor_twice": "sglang #33558",
        "llama3_1_bug_scaling_dropped": "29K tokens",
    }
    for name, thread in cited.items():
        assert any(thread in f["text"] for f in audits[name].faults), name


def test_the_layer_type_of_a_nested_config_is_found_by_fitting(audits):
    assert audits["gemma3_local"].config["layer_type"] == "sliding_attention"
    assert audits["gemma3_global"].config["layer_type"] == "full_attention"


@pytest.mark.parametrize(
    "name",
    [
        "llama_default",
        "llama_linear",
        "llama_yarn",
        "qwen2_yarn",
        "llama3_1",
        "gemma3_global",
        "gpt_neox_partial",
        "gptj_interleaved",
        "deepseek_v2_yarn_complex",
        "llama_bug_bf16_inv_freq",
        "llama_bug_fp16_positions",
    ],
)
def test_the_cache_alone_fixes_its_method(name):
    """Without a config: the layout's convention, the base, the method, its factor, and the
    precision faults; what a cache cannot fix (yarn's β apart from L, llama3's L apart from
    low_freq_factor) is listed as assumed."""
    truth, arrays = built(CACHES[name]), load(name)
    result = audit_rope(arrays["cos"], arrays["sin"], positions=arrays["positions"])
    assert result.base == truth["base"]
    assert result.rotary_dim == truth["rotary_dim"]
    want = truth["scaling"]
    assert result.scaling["type"] == want["type"]
    if "factor" in want:
        assert close(result.scaling["factor"], want["factor"])
    if want["type"] == "yarn":
        assert (
            result.scaling["original_max_position_embeddings"]
            == want["original_max_position_embeddings"]
        )
        assert set(result.assumed) == {"beta_fast", "beta_slow", "original_max_position_embeddings"}
    assert result.precision["inv_freq_rounded_to"] == truth.get("inv_freq_rounded_to")
    assert result.precision["positions_rounded_to"] == truth.get("positions_rounded_to")


def test_dynamic_ntk_without_a_config_is_an_ntk_aware_base():
    """The dynamic base at l is b·(s·l/L − (s − 1))^(d/(d−2)): NTK-aware with factor 5 at
    l = 4096, and factor 13 = s² − s + 1 for the constant base of vllm #41236."""
    for name, factor in (("llama_dynamic", 5.0), ("llama_dynamic_bug_constant_base", 13.0)):
        arrays = load(name)
        result = audit_rope(arrays["cos"], arrays["sin"], positions=arrays["positions"])
        assert result.scaling["type"] == "ntk"
        assert result.base == 10000.0 and result.scaling["factor"] == factor


def test_yarn_with_m_one_is_undecided_without_the_config():
    """DeepSeek-V3 carries m = 1 in cos/sin by design (mscale = mscale_all_dim), which the cache
    alone cannot tell from the factor dropped: undecided (not sound, not a fault), and the
    outcome names the config as what would decide it (issue 31, point 6)."""
    arrays = load("deepseek_v3_yarn")
    result = audit_rope(arrays["cos"], arrays["sin"], positions=arrays["positions"])
    assert not result.sound
    assert result.outcome == "undecided" and not result.faults
    assert result.attention["verdict"] == "undecided"
    assert any("give the config" in f for f in result.findings)
    assert result.decided_by == ("the model's config.json (--config)",)
    with_config = audit_rope(
        arrays["cos"],
        arrays["sin"],
        positions=arrays["positions"],
        config=DATA / "deepseek_v3_yarn.config.json",
    )
    assert with_config.outcome == "sound" and with_config.decided_by == ()
