"""Build RoPE cos/sin caches with transformers' own rotary modules, and their truth.

What it builds: ``tests/data/real_rope/<name>.safetensors`` (keys ``cos``, ``sin``,
``positions``), ``<name>.config.json`` beside each (the model config as transformers writes it,
``to_json_string(use_diff=True)``), q/k projection weights in Meta's and HF's layouts, and
``tests/data/real_rope/truth.json``. Every cache is what the rotary module's ``forward(x,
position_ids)`` returns for the saved positions (0, 5, 10, ..., 4095 unless said otherwise);
seeded bugs are produced by the same code with another setting, or, where a bug cannot be
produced that way, by a copy of the computation changed as the entry's notes say.

Reproduce (venvs outside the repository; the tests never import torch or transformers)::

    python3 -m venv /work/venvs/reallibs
    /work/venvs/reallibs/bin/pip install \
        /opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl
    echo 'torch==2.13.0+cpu' > /tmp/torch-constraint.txt
    /work/venvs/reallibs/bin/pip install -c /tmp/torch-constraint.txt numpy==2.4.6 \
        safetensors==0.8.0 transformers==5.24.0
    # and the venv make_real_rope_convert.py names (transformers 4.47.1, for the convert script)
    /work/venvs/reallibs/bin/python tests/data/make_real_rope.py

Deterministic: a second run rewrites every artifact byte for byte. The weight conversion runs in
``TF4_PYTHON`` (default ``/work/venvs/tf4/bin/python``).
"""

from __future__ import annotations

import importlib.metadata
import inspect
import json
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import torch
import transformers
from safetensors.torch import save_file
from transformers import modeling_rope_utils as rope_utils

HERE = Path(__file__).resolve().parent
OUT = HERE / "real_rope"
SITE = Path(torch.__file__).resolve().parent.parent
V = transformers.__version__
POS = torch.arange(0, 4096, 5)  # 0, 5, ..., 4095: odd multiples of 5 above 2048 are not fp16
ENTRIES: list[dict] = []

torch.manual_seed(0)


def where(obj, lines: str = "") -> str:
    obj = inspect.unwrap(obj)  # a decorated forward: read the function itself
    src, start = inspect.getsourcelines(obj)
    path = Path(inspect.getsourcefile(obj)).resolve().relative_to(SITE)
    name = getattr(obj, "__qualname__", getattr(obj, "__name__", "?"))
    text = f"{path}::{name}, lines {start}-{start + len(src) - 1}"
    return text + (f"; {lines}" if lines else "")


FWD = None  # set in main: LlamaRotaryEmbedding.forward's source


def f64(t: torch.Tensor) -> list[float]:
    return [float(x) for x in t.detach().double().cpu()]


def write(name: str, cos, sin, positions, config=None) -> None:
    tensors = {
        "cos": cos.detach().contiguous(),
        "sin": sin.detach().contiguous(),
        "positions": torch.as_tensor(positions).to(torch.int64).contiguous(),
    }
    save_file(tensors, str(OUT / f"{name}.safetensors"))
    if config is not None:
        (OUT / f"{name}.config.json").write_text(config.to_json_string(use_diff=True))


def add(name: str, **truth) -> None:
    base = {
        "file": f"{name}.safetensors",
        "config_file": f"{name}.config.json",
        "library": "transformers",
        "version": V,
        "source": None,
        "convention": "rotate_half",
        "cache_layout": "cat(freqs,freqs)",
        "rotary_dim": None,
        "head_dim": None,
        "base": None,
        "scaling": {"type": "none"},
        "attention_factor": 1.0,
        "position_offset": 0,
        "computed_in": "float32",
        "stored_dtype": "float32",
        "inv_freq": None,
        "bug": None,
        "as_built": None,
        "notes": None,
    }
    base.update(truth)
    ENTRIES.append(base)


def run(module, positions=POS, x_dtype=torch.float32, **kw):
    x = torch.zeros(1, dtype=x_dtype)
    with torch.no_grad():
        cos, sin = module(x, positions[None], **kw)
    return cos[0], sin[0]


def llama(rope_parameters: dict, head_dim=64, max_pos=2048, **extra):
    from transformers import LlamaConfig

    return LlamaConfig(
        hidden_size=head_dim * 4,
        num_attention_heads=4,
        num_key_value_heads=2,
        head_dim=head_dim,
        max_position_embeddings=max_pos,
        num_hidden_layers=1,
        intermediate_size=64,
        vocab_size=128,
        rope_parameters=rope_parameters,
        **extra,
    )


def build_llama() -> None:
    from transformers.models.llama import modeling_llama as llama_mod

    Emb = llama_mod.LlamaRotaryEmbedding
    fwd = where(
        Emb.forward,
        "freqs = position_ids.float() * inv_freq.float(); emb = cat(freqs,"
        " freqs); cos = emb.cos() * attention_scaling; cast to x.dtype",
    )
    default_src = where(Emb.compute_default_rope_parameters) + "; " + fwd

    # default
    cfg = llama({"rope_type": "default", "rope_theta": 10000.0})
    m = Emb(cfg)
    c, s = run(m)
    write("llama_default", c, s, POS, cfg)
    add(
        "llama_default",
        source=default_src,
        rotary_dim=64,
        head_dim=64,
        base=10000.0,
        inv_freq=f64(m.inv_freq),
        notes="LlamaRotaryEmbedding(LlamaConfig(head_dim=64,"
        " rope_theta=10000)); positions 0, 5, ..., 4095",
    )

    # linear
    cfg = llama({"rope_type": "linear", "rope_theta": 10000.0, "factor": 4.0})
    m = Emb(cfg)
    c, s = run(m)
    write("llama_linear", c, s, POS, cfg)
    add(
        "llama_linear",
        source=where(rope_utils._compute_linear_scaling_rope_parameters) + "; " + fwd,
        rotary_dim=64,
        head_dim=64,
        base=10000.0,
        scaling={"type": "linear", "factor": 4.0},
        inv_freq=f64(m.inv_freq),
        notes="inv_freq /= factor",
    )

    # dynamic NTK at seq_len 4096 > max_position_embeddings 2048
    dyn = {"rope_type": "dynamic", "rope_theta": 10000.0, "factor": 4.0}
    cfg = llama(dyn)
    m = Emb(cfg)
    c, s = run(m)
    seq_len = int(POS.max()) + 1
    dyn_src = (
        where(
            rope_utils._compute_dynamic_ntk_parameters,
            "base = base * ((factor * seq_len / max_position_embeddings) - (factor - 1))"
            " ** (dim / (dim - 2)); seq_len is a tensor here, so this base is computed in"
            " float32",
        )
        + "; "
        + where(
            rope_utils.dynamic_rope_update,
            "seq_len = max(position_ids) + 1; recomputed when seq_len > max_seq_len_cached",
        )
        + "; "
        + fwd
    )
    b_dyn = 10000.0 * (4.0 * seq_len / 2048 - 3.0) ** (64 / 62)
    write("llama_dynamic", c, s, POS, cfg)
    add(
        "llama_dynamic",
        source=dyn_src,
        rotary_dim=64,
        head_dim=64,
        base=10000.0,
        scaling={
            "type": "dynamic",
            "factor": 4.0,
            "original_max_position_embeddings": 2048,
            "seq_len": seq_len,
            "dynamic_base_float64": b_dyn,
        },
        inv_freq=f64(m.inv_freq),
        notes=f"forward on positions up to {seq_len - 1}: dynamic_rope_update sees seq_len"
        f" {seq_len} > 2048 and recomputes inv_freq with base {b_dyn:.6f} (float64 value; the"
        " library computes it in float32)",
    )

    # BUG dynamic_constant_base: base fixed at seq_len = factor * L whatever the length.
    m = Emb(cfg)
    const_len = 4 * 2048
    inv, _ = rope_utils._compute_dynamic_ntk_parameters(cfg, seq_len=const_len)
    m.inv_freq = inv
    with torch.no_grad():
        c, s = Emb.forward.__wrapped__(m, torch.zeros(1), POS[None])
    write("llama_dynamic_bug_constant_base", c[0], s[0], POS, cfg)
    add(
        "llama_dynamic_bug_constant_base",
        source=dyn_src,
        rotary_dim=64,
        head_dim=64,
        base=10000.0,
        scaling={
            "type": "dynamic",
            "factor": 4.0,
            "original_max_position_embeddings": 2048,
            "seq_len": seq_len,
            "dynamic_base_float64": b_dyn,
        },
        inv_freq=f64(inv),
        bug="dynamic_constant_base",
        as_built={"scaling": {"seq_len": const_len}},
        notes=f"real _compute_dynamic_ntk_parameters(config, seq_len={const_len}) (= factor *"
        " max_position_embeddings, a length-independent base, as the engine in vllm #41236), then"
        " the undecorated forward (LlamaRotaryEmbedding.forward.__wrapped__, skipping"
        f" dynamic_rope_update) on positions up to {seq_len - 1}; the correct cache uses"
        f" seq_len {seq_len}. inv_freq here is the constant one used",
    )

    # yarn
    yarn = {
        "rope_type": "yarn",
        "rope_theta": 10000.0,
        "factor": 4.0,
        "original_max_position_embeddings": 2048,
        "beta_fast": 32.0,
        "beta_slow": 1.0,
    }
    cfg = llama(yarn, max_pos=8192)
    m = Emb(cfg)
    att = m.attention_scaling
    c, s = run(m)
    ysc = {
        "type": "yarn",
        "factor": 4.0,
        "beta_fast": 32.0,
        "beta_slow": 1.0,
        "original_max_position_embeddings": 2048,
        "truncate": True,
    }
    ysrc = (
        where(
            rope_utils._compute_yarn_parameters,
            "attention_factor = get_mscale(factor) = 0.1 ln s +"
            " 1; low/high = floor/ceil of find_correction_dim; ramp over pair index",
        )
        + "; "
        + fwd
    )
    write("llama_yarn", c, s, POS, cfg)
    add(
        "llama_yarn",
        source=ysrc,
        rotary_dim=64,
        head_dim=64,
        base=10000.0,
        scaling=ysc,
        attention_factor=att,
        inv_freq=f64(m.inv_freq),
        notes=f"attention_factor {att!r} multiplies cos and sin",
    )
    for bug, applied, how in (
        ("yarn_factor_dropped", 1.0, "module.attention_scaling set to 1.0 before forward"),
        (
            "yarn_factor_twice",
            att * att,
            "module.attention_scaling set to its square before"
            " forward (the factor applied once more)",
        ),
    ):
        mb = Emb(cfg)
        mb.attention_scaling = applied
        c, s = run(mb)
        name = f"llama_yarn_bug_{bug.split('_', 1)[1]}"
        write(name, c, s, POS, cfg)
        add(
            name,
            source=ysrc,
            rotary_dim=64,
            head_dim=64,
            base=10000.0,
            scaling=ysc,
            attention_factor=att,
            inv_freq=f64(mb.inv_freq),
            bug=bug,
            as_built={"attention_factor": applied},
            notes=f"the real module with one attribute changed: {how}; cos and sin carry"
            f" {applied!r} instead of {att!r}",
        )

    # longrope (Llama class; short factors apply while seq_len <= original)
    lr_short = [round(1.0 + 0.02 * i, 6) for i in range(32)]
    lr_long = [round(1.0 + 0.5 * i + 0.01 * i * i, 6) for i in range(32)]
    lcfg = {
        "rope_type": "longrope",
        "rope_theta": 10000.0,
        "short_factor": lr_short,
        "long_factor": lr_long,
        "original_max_position_embeddings": 2048,
    }
    cfg = llama(lcfg, max_pos=8192)
    m = Emb(cfg)
    c, s = run(m)
    lsrc = (
        where(
            rope_utils._compute_longrope_parameters,
            "inv_freq = 1/(ext_factors * base**(arange(0,"
            " dim, 2)/dim)); attention_factor = sqrt(1 + ln(factor)/ln(original)) with"
            " factor = max_position_embeddings / original",
        )
        + "; "
        + where(
            rope_utils.dynamic_rope_update,
            "longrope_frequency_update: long factors when"
            " max(position_ids) + 1 > original_max_position_embeddings",
        )
        + "; "
        + fwd
    )
    af = math.sqrt(1 + math.log(8192 / 2048) / math.log(2048))
    write("llama_longrope_long", c, s, POS, cfg)
    add(
        "llama_longrope_long",
        source=lsrc,
        rotary_dim=64,
        head_dim=64,
        base=10000.0,
        scaling={
            "type": "longrope",
            "factor": 4.0,
            "original_max_position_embeddings": 2048,
            "short_factor": lr_short,
            "long_factor": lr_long,
            "factors_used": "long_factor",
            "seq_len": 4096,
        },
        attention_factor=m.attention_scaling,
        inv_freq=f64(m.inv_freq),
        notes=f"synthetic factor lists; max position 4095 + 1 > 2048 selects long_factor;"
        f" attention factor sqrt(1 + ln 4 / ln 2048) = {af!r}",
    )

    # llama3 (Llama 3.1 values), head_dim 128
    l3 = {
        "rope_type": "llama3",
        "rope_theta": 500000.0,
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
    }
    cfg = llama(l3, head_dim=128, max_pos=131072)
    m = Emb(cfg)
    c, s = run(m)
    l3sc = {
        "type": "llama3",
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
    }
    write("llama3_1", c, s, POS, cfg)
    add(
        "llama3_1",
        source=where(rope_utils._compute_llama3_parameters) + "; " + fwd,
        rotary_dim=128,
        head_dim=128,
        base=500000.0,
        scaling=l3sc,
        inv_freq=f64(m.inv_freq),
        notes="Llama 3.1 rope parameters, head_dim 128",
    )
    cfg0 = llama({"rope_type": "default", "rope_theta": 500000.0}, head_dim=128, max_pos=131072)
    m0 = Emb(cfg0)
    c, s = run(m0)
    write("llama3_1_bug_scaling_dropped", c, s, POS, cfg)
    add(
        "llama3_1_bug_scaling_dropped",
        source=default_src,
        rotary_dim=128,
        head_dim=128,
        base=500000.0,
        scaling=l3sc,
        inv_freq=f64(m0.inv_freq),
        bug="llama3_scaling_dropped",
        as_built={"scaling": {"type": "none"}},
        notes="cache from the real default rope (rope_type 'default', same theta) while the"
        " config beside it is the llama3 one: the Llama-3.1 frequency scaling is dropped",
    )

    # precision bugs on the default Llama
    cfg = llama({"rope_type": "default", "rope_theta": 10000.0})
    m = Emb(cfg)
    c, s = run(m, x_dtype=torch.float16)
    write("llama_bug_fp16_cache", c, s, POS, cfg)
    add(
        "llama_bug_fp16_cache",
        source=default_src,
        rotary_dim=64,
        head_dim=64,
        base=10000.0,
        inv_freq=f64(m.inv_freq),
        bug="fp16_cache",
        stored_dtype="float16",
        notes="real forward with x in float16: the angles and cos/sin are computed in float32"
        " and the cache is returned cast to float16 (cos.to(dtype=x.dtype))",
    )
    mb = Emb(cfg).to(torch.bfloat16)
    c, s = run(mb)
    write("llama_bug_bf16_inv_freq", c, s, POS, cfg)
    add(
        "llama_bug_bf16_inv_freq",
        source=default_src + "; nn.Module.to rounds the inv_freq buffer",
        rotary_dim=64,
        head_dim=64,
        base=10000.0,
        inv_freq=f64(Emb(cfg).inv_freq),
        bug="bf16_inv_freq",
        as_built={"inv_freq_rounded_to": "bfloat16"},
        notes="LlamaRotaryEmbedding(config).to(torch.bfloat16): the inv_freq buffer is rounded"
        " to bfloat16; forward upcasts it to float32 and computes in float32 with x float32;"
        " the inv_freq field is the unrounded one",
    )
    m = Emb(cfg)
    c, s = run(m, positions=POS.to(torch.float16))
    write("llama_bug_fp16_positions", c, s, POS, cfg)
    add(
        "llama_bug_fp16_positions",
        source=default_src,
        rotary_dim=64,
        head_dim=64,
        base=10000.0,
        inv_freq=f64(m.inv_freq),
        bug="fp16_positions",
        as_built={"positions_rounded_to": "float16"},
        notes="real forward given position_ids as a float16 tensor (positions cast to fp16"
        " before the product): 2055 becomes 2056, 4095 becomes 4096; 'positions' holds the"
        " intended integers",
    )
    # computed in fp16 end to end: not producible by the module (forward forces float32).
    with torch.no_grad():
        inv16 = m.inv_freq.to(torch.float16)
        # modified copy of LlamaRotaryEmbedding.forward: .float() replaced by .half()
        freqs = POS[None, :, None].half() * inv16
        emb = torch.cat((freqs, freqs), dim=-1)
        c, s = emb.cos() * m.attention_scaling, emb.sin() * m.attention_scaling
    write("llama_bug_fp16_computed", c[0], s[0], POS, cfg)
    add(
        "llama_bug_fp16_computed",
        source=default_src,
        rotary_dim=64,
        head_dim=64,
        base=10000.0,
        inv_freq=f64(m.inv_freq),
        bug="fp16_cache",
        computed_in="float16",
        stored_dtype="float16",
        as_built={"inv_freq_rounded_to": "float16", "positions_rounded_to": "float16"},
        notes="MODIFIED COPY of LlamaRotaryEmbedding.forward with .float() replaced by .half()"
        " (positions, inv_freq, product, cos and sin all in float16), as older or hand-written"
        " rotary code run under .half() does; the real forward cannot produce this",
    )


def build_neox_gptj() -> None:
    from transformers import GPTJConfig, GPTNeoXConfig
    from transformers.models.gpt_neox import modeling_gpt_neox as neox_mod
    from transformers.models.gptj import modeling_gptj as gptj_mod

    cfg = GPTNeoXConfig(
        hidden_size=256,
        num_attention_heads=4,
        num_hidden_layers=1,
        intermediate_size=64,
        vocab_size=128,
        max_position_embeddings=2048,
        rotary_pct=0.25,
        rotary_emb_base=10000,
    )
    m = neox_mod.GPTNeoXRotaryEmbedding(cfg)
    c, s = run(m)
    write("gpt_neox_partial", c, s, POS, cfg)
    add(
        "gpt_neox_partial",
        source=where(
            neox_mod.GPTNeoXRotaryEmbedding.compute_default_rope_parameters,
            "dim = int(head_dim * partial_rotary_factor)",
        )
        + "; "
        + where(neox_mod.GPTNeoXRotaryEmbedding.forward),
        rotary_dim=int(64 * cfg.rope_parameters.get("partial_rotary_factor", 1.0)),
        head_dim=64,
        base=10000.0,
        inv_freq=f64(m.inv_freq),
        notes="GPTNeoXConfig(hidden_size=256, heads=4, rotary_pct=0.25): the cache has"
        " rotary_dim = 16 columns; components 16..63 of each head are not rotated;"
        f" config rope_parameters = {cfg.rope_parameters}",
    )

    jcfg = GPTJConfig(
        n_embd=256, n_head=4, n_layer=1, rotary_dim=64, n_positions=4096, vocab_size=128
    )
    jm = gptj_mod.GPTJRotaryEmbedding(jcfg)
    with torch.no_grad():
        sin, cos = jm(torch.zeros(1), POS[None])
        # the two lines of GPTJ's apply_rotary_pos_emb that lay the cache out per component
        sin_r = torch.repeat_interleave(sin[:, :, None, :], 2, 3)[:, :, 0]
        cos_r = torch.repeat_interleave(cos[:, :, None, :], 2, 3)[:, :, 0]
    jsrc = (
        where(gptj_mod.create_sinusoidal_positions)
        + "; "
        + where(gptj_mod.GPTJRotaryEmbedding.forward)
        + "; "
        + where(
            gptj_mod.apply_rotary_pos_emb,
            "sin = repeat_interleave(sin[:, :, None, :], 2,"
            " 3); (tensor * cos) + (rotate_every_two(tensor) * sin)",
        )
        + "; "
        + where(gptj_mod.rotate_every_two)
    )
    inv = 1.0 / (10000 ** (torch.arange(0, 64, 2, dtype=torch.int64) / 64))
    write("gptj_interleaved", cos_r[0], sin_r[0], POS, jcfg)
    add(
        "gptj_interleaved",
        source=jsrc,
        convention="interleaved",
        cache_layout="repeat_interleave",
        rotary_dim=64,
        head_dim=64,
        base=10000.0,
        inv_freq=f64(inv),
        notes="GPTJRotaryEmbedding(config)(x, positions) gives the [sin | cos]"
        " halves of create_sinusoidal_positions; cos/sin here are those after apply_rotary_pos_emb's"
        " repeat_interleave (columns 2i and 2i+1 share frequency i), which pairs with"
        " rotate_every_two",
    )
    write("gptj_bug_rotate_half", cos_r[0], sin_r[0], POS, jcfg)
    add(
        "gptj_bug_rotate_half",
        source=jsrc,
        convention="rotate_half",
        cache_layout="cat(freqs,freqs)",
        rotary_dim=64,
        head_dim=64,
        base=10000.0,
        inv_freq=f64(inv),
        bug="interleaved_frequencies_with_rotate_half",
        as_built={"cache_layout": "repeat_interleave"},
        notes="the GPT-J interleaved cache (same values as gptj_interleaved) labelled for a"
        " rotate_half consumer, which needs cat(freqs, freqs)",
    )


def build_others() -> None:
    from transformers import (
        DeepseekV2Config,
        DeepseekV3Config,
        Gemma3TextConfig,
        Phi3Config,
        Qwen2Config,
    )
    from transformers.models.deepseek_v2 import modeling_deepseek_v2 as ds2_mod
    from transformers.models.deepseek_v3 import modeling_deepseek_v3 as ds3_mod
    from transformers.models.gemma3 import modeling_gemma3 as gemma3_mod
    from transformers.models.phi3 import modeling_phi3 as phi3_mod
    from transformers.models.qwen2 import modeling_qwen2 as qwen2_mod

    # Phi-3 LongRoPE: original 4096, max 131072, head_dim 96
    short = [round(1.0 + 0.01 * i, 6) for i in range(48)]
    long_ = [round(1.0 + 0.8 * i + 0.02 * i * i, 6) for i in range(48)]
    pcfg = Phi3Config(
        hidden_size=384,
        num_attention_heads=4,
        num_key_value_heads=4,
        num_hidden_layers=1,
        intermediate_size=64,
        vocab_size=128,
        max_position_embeddings=131072,
        original_max_position_embeddings=4096,
        rope_parameters={
            "rope_type": "longrope",
            "rope_theta": 10000.0,
            "short_factor": short,
            "long_factor": long_,
        },
        pad_token_id=0,
        bos_token_id=1,
        eos_token_id=2,
    )
    af = math.sqrt(1 + math.log(131072 / 4096) / math.log(4096))
    psrc = (
        where(rope_utils._compute_longrope_parameters)
        + "; "
        + where(phi3_mod.Phi3RotaryEmbedding.forward)
        + "; "
        + where(rope_utils.dynamic_rope_update, "longrope_frequency_update")
    )
    for tag, pos, used in (
        ("short", POS, "short_factor"),
        ("long", torch.arange(0, 8192, 8), "long_factor"),
    ):
        m = phi3_mod.Phi3RotaryEmbedding(pcfg)
        c, s = run(m, positions=pos)
        write(f"phi3_longrope_{tag}", c, s, pos, pcfg)
        add(
            f"phi3_longrope_{tag}",
            source=psrc,
            rotary_dim=96,
            head_dim=96,
            base=10000.0,
            scaling={
                "type": "longrope",
                "factor": 32.0,
                "original_max_position_embeddings": 4096,
                "short_factor": short,
                "long_factor": long_,
                "factors_used": used,
                "seq_len": int(pos.max()) + 1,
            },
            attention_factor=m.attention_scaling,
            inv_freq=f64(m.inv_freq),
            notes=f"Phi3RotaryEmbedding; synthetic factor lists (48 each); max position"
            f" {int(pos.max())} selects {used}; attention factor sqrt(1 + ln 32 / ln 4096) ="
            f" {af!r}",
        )

    # Qwen2 with YaRN (Qwen2.5 long-context recipe), head_dim 128
    qcfg = Qwen2Config(
        hidden_size=512,
        num_attention_heads=4,
        num_key_value_heads=2,
        num_hidden_layers=1,
        intermediate_size=64,
        vocab_size=128,
        max_position_embeddings=131072,
        rope_parameters={
            "rope_type": "yarn",
            "rope_theta": 1000000.0,
            "factor": 4.0,
            "original_max_position_embeddings": 32768,
        },
    )
    m = qwen2_mod.Qwen2RotaryEmbedding(qcfg)
    c, s = run(m)
    write("qwen2_yarn", c, s, POS, qcfg)
    add(
        "qwen2_yarn",
        source=where(rope_utils._compute_yarn_parameters)
        + "; "
        + where(qwen2_mod.Qwen2RotaryEmbedding.forward),
        rotary_dim=128,
        head_dim=128,
        base=1000000.0,
        scaling={
            "type": "yarn",
            "factor": 4.0,
            "original_max_position_embeddings": 32768,
            "beta_fast": 32,
            "beta_slow": 1,
            "truncate": True,
        },
        attention_factor=m.attention_scaling,
        inv_freq=f64(m.inv_freq),
        notes="beta_fast/beta_slow unset in the config: the code's defaults 32 and 1",
    )

    # DeepSeek-V3: YaRN with mscale == mscale_all_dim (attention factor 1), rope_interleave
    y3 = {
        "rope_type": "yarn",
        "rope_theta": 10000.0,
        "factor": 40.0,
        "beta_fast": 32.0,
        "beta_slow": 1.0,
        "mscale": 1.0,
        "mscale_all_dim": 1.0,
        "original_max_position_embeddings": 4096,
    }
    dcfg = DeepseekV3Config(
        hidden_size=256,
        num_attention_heads=4,
        num_key_value_heads=4,
        num_hidden_layers=1,
        intermediate_size=64,
        moe_intermediate_size=32,
        vocab_size=128,
        q_lora_rank=64,
        kv_lora_rank=32,
        qk_rope_head_dim=64,
        qk_nope_head_dim=32,
        v_head_dim=32,
        n_routed_experts=4,
        num_experts_per_tok=2,
        n_group=1,
        topk_group=1,
        first_k_dense_replace=1,
        max_position_embeddings=163840,
        rope_parameters=y3,
    )
    m = ds3_mod.DeepseekV3RotaryEmbedding(dcfg)
    c, s = run(m)
    dsrc = (
        where(
            rope_utils._compute_yarn_parameters,
            "attention_factor = get_mscale(factor, mscale) /"
            " get_mscale(factor, mscale_all_dim) when both are set",
        )
        + "; "
        + where(ds3_mod.DeepseekV3RotaryEmbedding.forward)
        + "; "
        + where(
            ds3_mod.apply_rotary_pos_emb_interleave,
            "takes cos[..., :d/2] and rotates pairs (2i, 2i+1)",
        )
    )
    ysc = {
        "type": "yarn",
        "factor": 40.0,
        "beta_fast": 32.0,
        "beta_slow": 1.0,
        "mscale": 1.0,
        "mscale_all_dim": 1.0,
        "original_max_position_embeddings": 4096,
        "truncate": True,
    }
    write("deepseek_v3_yarn", c, s, POS, dcfg)
    add(
        "deepseek_v3_yarn",
        source=dsrc,
        convention="interleaved",
        rotary_dim=64,
        head_dim=64,
        base=10000.0,
        scaling=ysc,
        attention_factor=m.attention_scaling,
        inv_freq=f64(m.inv_freq),
        notes="DeepSeek-V3 rope parameters; mscale == mscale_all_dim, so cos/sin carry factor"
        " 1.0 and the softmax scale carries (0.1 * mscale_all_dim * ln 40 + 1)^2 instead"
        f" (DeepseekV3Attention); rope_interleave={dcfg.rope_interleave}: the cache is"
        " cat(freqs, freqs) but apply_rotary_pos_emb_interleave pairs components (2i, 2i+1)",
    )
    y3b = dict(y3, mscale=1.0, mscale_all_dim=0.707)
    dcfg2 = DeepseekV3Config(**{**dcfg.to_diff_dict(), "rope_parameters": y3b})
    m = ds3_mod.DeepseekV3RotaryEmbedding(dcfg2)
    c, s = run(m)
    write("deepseek_v3_yarn_mscale_differs", c, s, POS, dcfg2)
    add(
        "deepseek_v3_yarn_mscale_differs",
        source=dsrc,
        convention="interleaved",
        rotary_dim=64,
        head_dim=64,
        base=10000.0,
        scaling=dict(ysc, mscale=1.0, mscale_all_dim=0.707),
        attention_factor=m.attention_scaling,
        inv_freq=f64(m.inv_freq),
        notes="a config variant with mscale 1.0 and mscale_all_dim 0.707, so the factor"
        " g(40, 1)/g(40, 0.707) multiplies cos and sin",
    )

    # DeepSeek-V2: complex freqs_cis (torch.polar); cos = real part, sin = imaginary part
    y2 = {
        "rope_type": "yarn",
        "rope_theta": 10000.0,
        "factor": 40.0,
        "beta_fast": 32.0,
        "beta_slow": 1.0,
        "mscale": 0.707,
        "mscale_all_dim": 0.707,
        "original_max_position_embeddings": 4096,
    }
    d2cfg = DeepseekV2Config(
        hidden_size=256,
        num_attention_heads=4,
        num_key_value_heads=4,
        num_hidden_layers=1,
        intermediate_size=64,
        moe_intermediate_size=32,
        vocab_size=128,
        q_lora_rank=None,
        kv_lora_rank=32,
        qk_rope_head_dim=64,
        qk_nope_head_dim=32,
        v_head_dim=32,
        n_routed_experts=4,
        num_experts_per_tok=2,
        first_k_dense_replace=1,
        max_position_embeddings=163840,
        rope_parameters=y2,
    )
    m = ds2_mod.DeepseekV2RotaryEmbedding(d2cfg)
    with torch.no_grad():
        fc = m(torch.zeros(1), POS[None])[0]
    write("deepseek_v2_yarn_complex", fc.real, fc.imag, POS, d2cfg)
    add(
        "deepseek_v2_yarn_complex",
        source=where(rope_utils._compute_yarn_parameters)
        + "; "
        + where(
            ds2_mod.DeepseekV2RotaryEmbedding.forward,
            "freqs_cis = polar(1, freqs) * attention_scaling",
        )
        + "; "
        + where(ds2_mod.apply_rotary_emb, "view_as_complex on pairs (2i, 2i+1)"),
        convention="interleaved",
        cache_layout="freqs",
        rotary_dim=64,
        head_dim=64,
        base=10000.0,
        scaling={
            "type": "yarn",
            "factor": 40.0,
            "beta_fast": 32.0,
            "beta_slow": 1.0,
            "mscale": 0.707,
            "mscale_all_dim": 0.707,
            "original_max_position_embeddings": 4096,
            "truncate": True,
        },
        attention_factor=m.attention_scaling,
        inv_freq=f64(m.inv_freq),
        notes="DeepSeek-V2(-Lite) rope parameters; the module returns complex freqs_cis of"
        " d/2 columns; cos = freqs_cis.real, sin = freqs_cis.imag",
    )

    # Gemma 3: sliding layers local base 10000, full layers base 1e6 with linear factor 8
    gcfg = Gemma3TextConfig(
        hidden_size=256,
        num_attention_heads=4,
        num_key_value_heads=1,
        head_dim=64,
        num_hidden_layers=6,
        intermediate_size=64,
        vocab_size=128,
        max_position_embeddings=131072,
        rope_parameters={
            "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
            "full_attention": {"rope_type": "linear", "rope_theta": 1000000.0, "factor": 8.0},
        },
    )
    m = gemma3_mod.Gemma3RotaryEmbedding(gcfg)
    gsrc = (
        where(gemma3_mod.Gemma3RotaryEmbedding.__init__)
        + "; "
        + where(gemma3_mod.Gemma3RotaryEmbedding.forward)
    )
    for lt, tag, base, sc in (
        ("sliding_attention", "local", 10000.0, {"type": "none"}),
        ("full_attention", "global", 1000000.0, {"type": "linear", "factor": 8.0}),
    ):
        c, s = run(m, layer_type=lt)
        write(f"gemma3_{tag}", c, s, POS, gcfg)
        add(
            f"gemma3_{tag}",
            source=gsrc,
            rotary_dim=64,
            head_dim=64,
            base=base,
            scaling=sc,
            inv_freq=f64(getattr(m, f"{lt}_inv_freq")),
            notes=f"Gemma3RotaryEmbedding(config)(x, positions, layer_type='{lt}') (Gemma 3 4B+"
            " values: local base 10000, global base 1e6 with linear factor 8)",
        )


def build_weights() -> None:
    py = os.environ.get("TF4_PYTHON", "/work/venvs/tf4/bin/python")
    if not Path(py).exists():
        raise SystemExit(f"transformers 4.47.1 venv python not found: {py} (set TF4_PYTHON)")
    res = subprocess.run(
        [py, str(HERE / "make_real_rope_convert.py"), str(OUT)],
        check=True,
        capture_output=True,
        text=True,
    )
    ENTRIES.extend(json.loads(res.stdout))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.iterdir():
        old.unlink()
    build_llama()
    build_neox_gptj()
    build_others()
    build_weights()
    ENTRIES.sort(key=lambda e: e["file"])
    doc = {
        "description": textwrap.dedent(
            """\
            RoPE caches from transformers' rotary modules (make_real_rope.py). Each .safetensors
            holds cos, sin (rows = the int64 'positions', columns as cache_layout says:
            'cat(freqs,freqs)' column j and j + rotary_dim/2 share frequency j; 'repeat_interleave'
            columns 2i and 2i+1 share frequency i; 'freqs' one column per frequency). cos =
            attention_factor * cos(position * inv_freq). 'convention' is how the model pairs the
            components of q and k. For a seeded bug, the fields describe the correct intent
            (what the config beside it asks for) and 'as_built' lists the fields that describe
            what the file really holds. inv_freq: the float64 list the library returned (for a
            bug, the one it used, except bf16_inv_freq which lists it before rounding)."""
        ),
        "versions": {
            "transformers": V,
            "torch": torch.__version__,
            "safetensors": importlib.metadata.version("safetensors"),
            "transformers (weight conversion)": "4.47.1",
        },
        "entries": ENTRIES,
    }
    (OUT / "truth.json").write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
