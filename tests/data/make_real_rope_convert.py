"""Llama q/k weights in Meta's and Hugging Face's layouts, for make_real_rope.py (not alone).

Usage: ``/work/venvs/tf4/bin/python tests/data/make_real_rope_convert.py OUTDIR`` writes
``llama_qk_*.safetensors`` into OUTDIR and prints their truth entries as JSON on stdout.

transformers 5.x wheels (and 4.48 and later) no longer ship
``transformers/models/llama/convert_llama_weights_to_hf.py``; 4.47.1 is the last wheel that does,
so this runs in its own venv::

    python3 -m venv /work/venvs/tf4
    /work/venvs/tf4/bin/pip install \
        /opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl
    /work/venvs/tf4/bin/pip install -c /tmp/torch-constraint.txt transformers==4.47.1

The HF layout is what the real ``write_model`` writes for a tiny Meta checkpoint made here
(seeded random weights, consolidated.00.pth + params.json). In that script ``permute`` is a
function nested in ``write_model``; the WRONG conversion (K permuted with n_heads instead of
n_kv_heads) calls that same nested function, taken from ``write_model``'s code object, with the
wrong argument. The tests never import torch or transformers.
"""

from __future__ import annotations

import inspect
import json
import sys
import tempfile
import types
from contextlib import redirect_stdout
from pathlib import Path

import torch
import transformers
from safetensors.torch import load_file, save_file
from transformers.models.llama import convert_llama_weights_to_hf as conv_mod

SITE = Path(torch.__file__).resolve().parent.parent


def nested_permute() -> types.FunctionType:
    code = next(
        c
        for c in conv_mod.write_model.__code__.co_consts
        if isinstance(c, types.CodeType) and c.co_name == "permute"
    )
    return types.FunctionType(code, conv_mod.__dict__, "permute")


def source_lines() -> str:
    src, start = inspect.getsourcelines(conv_mod.write_model)
    rel = Path(inspect.getsourcefile(conv_mod.write_model)).resolve().relative_to(SITE)
    lp = next(i for i, s in enumerate(src) if "def permute(w, n_heads" in s) + start
    lq = next(i for i, s in enumerate(src) if 'self_attn.q_proj.weight": permute(' in s) + start
    lk = next(i for i, s in enumerate(src) if 'self_attn.k_proj.weight": permute(' in s) + start
    return (
        f"{rel}::write_model, lines {start}-{start + len(src) - 1}; permute defined at line {lp}"
        f" (w.view(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(1, 2).reshape(dim1, dim2));"
        f" q_proj = permute(wq, n_heads=n_heads) at line {lq}; k_proj = permute(wk,"
        f" n_heads=num_key_value_heads, dim1=key_value_dim) at line {lk}"
    )


def convert(n_heads: int, n_kv: int, head_dim: int, seed: int) -> dict[str, torch.Tensor]:
    dim = n_heads * head_dim
    kv_dim = n_kv * head_dim
    g = torch.Generator().manual_seed(seed)
    inter = conv_mod.compute_intermediate_size(dim)
    vocab = 32

    def r(*shape):
        # bfloat16-exact values: write_model loads the checkpoint in bfloat16 (line 417)
        return torch.randn(*shape, generator=g).to(torch.bfloat16).float()

    meta = {
        "tok_embeddings.weight": r(vocab, dim),
        "norm.weight": torch.ones(dim),
        "output.weight": r(vocab, dim),
        "layers.0.attention.wq.weight": r(dim, dim),
        "layers.0.attention.wk.weight": r(kv_dim, dim),
        "layers.0.attention.wv.weight": r(kv_dim, dim),
        "layers.0.attention.wo.weight": r(dim, dim),
        "layers.0.feed_forward.w1.weight": r(inter, dim),
        "layers.0.feed_forward.w2.weight": r(dim, inter),
        "layers.0.feed_forward.w3.weight": r(inter, dim),
        "layers.0.attention_norm.weight": torch.ones(dim),
        "layers.0.ffn_norm.weight": torch.ones(dim),
    }
    params = {"dim": dim, "n_layers": 1, "n_heads": n_heads, "n_kv_heads": n_kv, "norm_eps": 1e-5}
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "meta", Path(tmp) / "hf"
        src.mkdir()
        torch.save(meta, src / "consolidated.00.pth")
        (src / "params.json").write_text(json.dumps(params))
        with redirect_stdout(sys.stderr):
            conv_mod.write_model(
                model_path=str(dst),
                input_base_path=str(src),
                safe_serialization=True,
                llama_version="2",
                vocab_size=vocab,
                num_shards=1,
            )
        hf = {}
        for f in sorted(dst.glob("*.safetensors")):
            hf.update(load_file(str(f)))
    wq, wk = meta["layers.0.attention.wq.weight"], meta["layers.0.attention.wk.weight"]
    permute = nested_permute()
    out = {
        "wq_meta": wq,
        "wk_meta": wk,
        "wq_hf": hf["model.layers.0.self_attn.q_proj.weight"].float(),
        "wk_hf": hf["model.layers.0.self_attn.k_proj.weight"].float(),
        "wk_hf_wrong": permute(wk, n_heads, kv_dim, dim),
    }
    assert torch.equal(out["wq_hf"], permute(wq, n_heads, dim, dim))
    assert torch.equal(out["wk_hf"], permute(wk, n_kv, kv_dim, dim))
    return out


def main() -> None:
    outdir = Path(sys.argv[1])
    entries = []
    for n_heads, n_kv, head_dim, seed in ((4, 2, 4, 1), (8, 2, 16, 2)):
        w = convert(n_heads, n_kv, head_dim, seed)
        name = f"llama_qk_h{n_heads}_kv{n_kv}_d{head_dim}.safetensors"
        save_file({k: v.clone().contiguous() for k, v in w.items()}, str(outdir / name))
        entries.append(
            {
                "kind": "weights",
                "file": name,
                "library": "transformers",
                "version": transformers.__version__,
                "source": source_lines(),
                "n_heads": n_heads,
                "n_kv_heads": n_kv,
                "head_dim": head_dim,
                "hidden_size": n_heads * head_dim,
                "keys": {
                    "wq_meta": "Meta layers.0.attention.wq.weight (interleaved pairs)",
                    "wk_meta": "Meta layers.0.attention.wk.weight",
                    "wq_hf": "HF q_proj.weight written by write_model (rotate_half order)",
                    "wk_hf": "HF k_proj.weight written by write_model (permuted with n_kv_heads)",
                    "wk_hf_wrong": "K permuted with n_heads instead of n_kv_heads (the nested"
                    " permute called with the wrong argument)",
                },
                "convention": {"meta": "interleaved", "hf": "rotate_half"},
                "bug": "wrong_permutation_n_heads (key wk_hf_wrong only)",
                "notes": "seeded N(0,1) weights rounded to bfloat16 (write_model reloads the model in"
                " bfloat16, so these survive exactly), stored as float32; one layer; llama_version 2",
            }
        )
    print(json.dumps(entries))


if __name__ == "__main__":
    main()
