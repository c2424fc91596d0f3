"""Build the RoPE caches of issue 31 (round 2, the audit's points 3 and 8) with transformers'
own code, and their truth: ``tests/data/real_rope/round2_*.safetensors`` (keys ``cos``,
``sin``, ``positions``), a ``.config.json`` beside each, and ``real_rope/truth_round2.json``.

- ``round2_llama_linear_nonround``: ``LlamaRotaryEmbedding(LlamaConfig(...))`` with linear
  scaling by 4^(64/62) = 4.1803 (a factor that is not round: issue 31, point 3).
- ``round2_gptj_freqs_in_cat``: GPT-J's cache (``GPTJRotaryEmbedding`` and the
  ``repeat_interleave`` lines of its ``apply_rotary_pos_emb``) whose first half is then
  duplicated as ``cat(half, half)`` for a rotate_half consumer: each pair (i, i + d/2) shares a
  frequency, but the frequencies run θ0, θ0, θ1, θ1, ... (the interleaved layout's order,
  llama.cpp #2376; issue 31, point 8). The last step is the only line not the library's.

- ``round2_llama_yarn_bf16``, ``round2_llama3_1_bf16``: the round-1 YaRN and Llama 3.1 modules
  run on a bfloat16 x (cos and sin in bfloat16; issue 31, point 5).

- ``round2_rotary_embedding_torch_partial``: rotary-embedding-torch's partial rotary (32 of 64
  components), probed through its apply_rotary_emb: pass-through columns (point 4).

- ``round2_gpt_oss_yarn``: gpt-oss's YaRN with truncate false (per-layer stretch goal).

- ``round2_llama4_layer0``, ``round2_llama4_layer3`` and ``round2_llama4.config.json``: Llama
  4's per-layer RoPE (``no_rope_layers``, built by ``Llama4Config``): the cache layer 0's
  attention applies (RoPE) and layer 3's (a NoPE layer: the identity).

Reproduce (a venv outside the repository; the tests never import torch or transformers)::

    python3 -m venv /work/venvs/rope31
    /work/venvs/rope31/bin/pip install torch==2.13.0 numpy safetensors transformers \
        rotary-embedding-torch
    /work/venvs/rope31/bin/python tests/data/make_real_rope_round2.py

It reuses make_real_rope.py's helpers (the positions 0, 5, ..., 4095, ``write``, ``where``).
Deterministic: a second run rewrites every artifact byte for byte.
"""

from __future__ import annotations

import importlib.metadata
import json
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import make_real_rope as base

ENTRIES: list[dict] = []
FACTOR = 4.0 ** (64 / 62)


def add(name: str, **truth) -> None:
    base.ENTRIES.clear()
    base.add(name, **truth)
    ENTRIES.append(base.ENTRIES.pop())


def build() -> None:
    from transformers.models.gptj import modeling_gptj as gptj_mod
    from transformers.models.llama import modeling_llama as llama_mod

    cfg = base.llama({"rope_type": "linear", "rope_theta": 10000.0, "factor": FACTOR})
    m = llama_mod.LlamaRotaryEmbedding(cfg)
    c, s = base.run(m)
    base.write("round2_llama_linear_nonround", c, s, base.POS, cfg)
    add(
        "round2_llama_linear_nonround",
        source=base.where(base.rope_utils._compute_linear_scaling_rope_parameters)
        + "; "
        + base.where(llama_mod.LlamaRotaryEmbedding.forward),
        rotary_dim=64,
        head_dim=64,
        base=10000.0,
        scaling={"type": "linear", "factor": FACTOR},
        inv_freq=base.f64(m.inv_freq),
        notes="linear scaling by 4^(64/62), not a round factor",
    )

    from transformers import GPTJConfig

    jcfg = GPTJConfig(
        n_embd=256, n_head=4, n_layer=1, rotary_dim=64, n_positions=4096, vocab_size=128
    )
    jm = gptj_mod.GPTJRotaryEmbedding(jcfg)
    with torch.no_grad():
        sin, cos = jm(torch.zeros(1), base.POS[None])
        sin_r = torch.repeat_interleave(sin[:, :, None, :], 2, 3)[0, :, 0]
        cos_r = torch.repeat_interleave(cos[:, :, None, :], 2, 3)[0, :, 0]
    # The mix-up: GPT-J's per-component layout, its first half duplicated for rotate_half.
    cos_b = torch.cat((cos_r[:, :32], cos_r[:, :32]), dim=-1)
    sin_b = torch.cat((sin_r[:, :32], sin_r[:, :32]), dim=-1)
    base.write("round2_gptj_freqs_in_cat", cos_b, sin_b, base.POS, jcfg)
    add(
        "round2_gptj_freqs_in_cat",
        source=base.where(gptj_mod.create_sinusoidal_positions)
        + "; "
        + base.where(gptj_mod.GPTJRotaryEmbedding.forward)
        + "; "
        + base.where(gptj_mod.apply_rotary_pos_emb, "sin = repeat_interleave(sin, 2, 3)"),
        rotary_dim=64,
        head_dim=64,
        base=10000.0,
        bug="interleaved_frequencies_with_rotate_half",
        # The intent (cat(freqs, freqs) for rotate_half: pair i at θ_i) above; as built, pair i
        # turns at θ_{i//2}, the repeat_interleave order.
        as_built={"scaling": {"type": "custom", "frequency_order": "repeat_interleave"}},
        notes="columns j and j + 32 equal (cat layout), frequencies θ_{j//2} for j < 32: the"
        " repeat_interleave order where cat(freqs, freqs) wants θ_j; only 16 of the 32"
        " frequencies are used",
    )


def build_bf16() -> None:
    """transformers' YaRN and Llama 3.1 caches for a bfloat16 model (cos and sin in the
    activations' dtype), from the round-1 configs: compared cos alone with their float32
    round-1 caches (issue 31, point 5)."""
    from transformers import LlamaConfig
    from transformers.models.llama import modeling_llama as llama_mod

    for name, rotary in (("llama_yarn", 64), ("llama3_1", 128)):
        cfg = LlamaConfig.from_json_file(str(base.OUT / f"{name}.config.json"))
        m = llama_mod.LlamaRotaryEmbedding(cfg)
        c, s = base.run(m, x_dtype=torch.bfloat16)
        base.write(f"round2_{name}_bf16", c, s, base.POS, cfg)
        round1 = next(
            e
            for e in json.loads((base.OUT / "truth.json").read_text())["entries"]
            if e["file"] == f"{name}.safetensors"
        )
        add(
            f"round2_{name}_bf16",
            **{k: round1[k] for k in ("rotary_dim", "head_dim", "base", "scaling")},
            source=round1["source"],
            attention_factor=round1["attention_factor"],
            stored_dtype="bfloat16",
            inv_freq=base.f64(m.inv_freq),
            notes=f"{name}'s module run on a bfloat16 x: cos and sin returned in bfloat16; "
            f"all {rotary} components rotate",
        )


def build_passthrough() -> None:
    """rotary-embedding-torch's partial rotary (RotaryEmbedding(dim=32) on heads of 64): the
    cache its apply_rotary_emb applies to a whole head, read off by probing it with the 64
    unit vectors e_k (cos[p, k] = out(e_k)[p, k]; sin from the partner component, whose
    rotate_half sign is − for even k): components 32..63 pass through (cos 1, sin 0)."""
    from rotary_embedding_torch import rotary_embedding_torch as ret

    rot = ret.RotaryEmbedding(dim=32)
    with torch.no_grad():
        freqs = rot(base.POS.to(torch.float32))
        out = ret.apply_rotary_emb(freqs, torch.eye(64)[:, None, :].expand(64, len(base.POS), 64))
    k = torch.arange(64)
    cos = out[k, :, k].T.contiguous()
    sign = torch.where(k % 2 == 1, 1.0, -1.0)
    sin = (out[k ^ 1, :, k].T * sign).contiguous()
    base.write("round2_rotary_embedding_torch_partial", cos, sin, base.POS)
    add(
        "round2_rotary_embedding_torch_partial",
        config_file=None,
        library="rotary-embedding-torch",
        version=importlib.metadata.version("rotary-embedding-torch"),
        source=base.where(ret.RotaryEmbedding.forward)
        + "; "
        + base.where(ret.apply_rotary_emb, "t_right passes through")
        + "; "
        + base.where(ret.rotate_half),
        convention="interleaved",
        cache_layout="repeat_interleave",
        rotary_dim=32,
        head_dim=64,
        base=10000.0,
        inv_freq=base.f64(rot.freqs),
        notes="probed with the unit vectors: the whole head's cos/sin, components 32..63 "
        "passed through by apply_rotary_emb (cos 1, sin 0)",
    )


def build_gpt_oss() -> None:
    """gpt-oss's YaRN: GptOssRotaryEmbedding(GptOssConfig(...)) with the config class's own
    rope_parameters (factor 32, truncate false: the correction range's ends stay unrounded);
    one column per frequency, consumed as (i, i + d/2) halves by _apply_rotary_emb."""
    from transformers import GptOssConfig
    from transformers.models.gpt_oss import modeling_gpt_oss as oss

    cfg = GptOssConfig(
        hidden_size=256,
        num_attention_heads=4,
        num_key_value_heads=2,
        head_dim=64,
        num_hidden_layers=2,
        intermediate_size=64,
        vocab_size=128,
        num_local_experts=2,
        max_position_embeddings=131072,
    )
    m = oss.GptOssRotaryEmbedding(cfg)
    c, s = base.run(m)
    base.write("round2_gpt_oss_yarn", c, s, base.POS, cfg)
    params = dict(cfg.rope_parameters)
    add(
        "round2_gpt_oss_yarn",
        source=base.where(base.rope_utils._compute_yarn_parameters, "truncate")
        + "; "
        + base.where(oss.GptOssRotaryEmbedding.forward)
        + "; "
        + base.where(oss._apply_rotary_emb),
        cache_layout="freqs",
        rotary_dim=64,
        head_dim=64,
        base=float(params["rope_theta"]),
        scaling={
            "type": "yarn",
            **{k: params[k] for k in ("factor", "beta_fast", "beta_slow", "truncate")},
            "original_max_position_embeddings": params["original_max_position_embeddings"],
        },
        attention_factor=float(m.attention_scaling),
        inv_freq=base.f64(m.inv_freq),
        notes="GptOssConfig's default rope_parameters; cos/sin one column per frequency",
    )


LLAMA4_POS = torch.arange(0, 4096, 32)  # 128 rows: a cache of a few KB


def build_llama4() -> None:
    """Llama 4's NoPE layers, per layer: Llama4Config(text_config=...) with the config class's
    own no_rope_layers (no_rope_layer_interval 4: layers 3 and 7 of 8 are NoPE), saved whole.
    Each layer's cache is what its Llama4TextAttention applies: the rotary module's freqs_cis
    (cos = real, sin = imag, one column per pair, paired (2i, 2i + 1) by view_as_complex)
    where the attention's own use_rope is 1, the identity (cos 1, sin 0) where it is 0, since
    forward then never calls apply_rotary_emb."""
    from transformers import Llama4Config
    from transformers.models.llama4 import modeling_llama4 as l4

    cfg = Llama4Config(
        text_config={
            "hidden_size": 128,
            "num_attention_heads": 4,
            "num_key_value_heads": 2,
            "head_dim": 32,
            "num_hidden_layers": 8,
            "intermediate_size": 64,
            "intermediate_size_mlp": 64,
            "num_local_experts": 2,
            "vocab_size": 128,
            "max_position_embeddings": 8192,
        }
    )
    text = cfg.text_config
    (base.OUT / "round2_llama4.config.json").write_text(cfg.to_json_string(use_diff=False))
    rotary = l4.Llama4TextRotaryEmbedding(text)
    with torch.no_grad():
        freqs_cis = rotary(torch.zeros(1), LLAMA4_POS[None])[0]
    for layer in (0, 3):
        use_rope = bool(l4.Llama4TextAttention(text, layer).use_rope)
        if use_rope:
            cos, sin = freqs_cis.real, freqs_cis.imag
        else:
            cos, sin = torch.ones_like(freqs_cis.real), torch.zeros_like(freqs_cis.imag)
        name = f"round2_llama4_layer{layer}"
        base.write(name, cos, sin, LLAMA4_POS)
        add(
            name,
            config_file="round2_llama4.config.json",
            source=base.where(l4.Llama4TextRotaryEmbedding.forward)
            + "; "
            + base.where(l4.Llama4TextAttention.__init__, "self.use_rope = no_rope_layers[idx]")
            + "; "
            + base.where(l4.Llama4TextAttention.forward, "if self.use_rope: apply_rotary_emb")
            + "; "
            + base.where(l4.apply_rotary_emb, "view_as_complex: pairs (2i, 2i + 1)"),
            convention="interleaved",
            cache_layout="freqs",
            rotary_dim=32 if use_rope else 0,
            head_dim=32,
            base=float(text.rope_parameters["rope_theta"]),
            scaling={"type": "none" if use_rope else "identity"},
            inv_freq=base.f64(rotary.inv_freq) if use_rope else None,
            layer=layer,
            use_rope=use_rope,
            no_rope_layers=list(text.no_rope_layers),
            notes=f"layer {layer} of Llama4TextConfig's 8 (no_rope_layers "
            f"{list(text.no_rope_layers)}: 1 = RoPE, 0 = NoPE): "
            + ("the rotary module's freqs_cis" if use_rope else "a NoPE layer: the identity"),
        )


def main() -> None:
    base.OUT.mkdir(parents=True, exist_ok=True)
    build()
    build_bf16()
    build_passthrough()
    build_gpt_oss()
    build_llama4()
    doc = {
        "description": "Round-2 caches (make_real_rope_round2.py); fields as in truth.json.",
        "versions": {
            "transformers": base.V,
            "torch": torch.__version__,
            "rotary-embedding-torch": importlib.metadata.version("rotary-embedding-torch"),
        },
        "entries": sorted(ENTRIES, key=lambda e: e["file"]),
    }
    (base.OUT / "truth_round2.json").write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
