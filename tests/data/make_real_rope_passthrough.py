"""Build partial-rotary caches as whole heads, pass-through columns included (cos 1, sin 0), with
four more libraries' own code, and their truth: ``tests/data/real_rope/passthrough_*.safetensors``
(keys ``cos``, ``sin``, ``positions``) and ``real_rope/truth_passthrough.json`` (issue 31,
point 4: the head dim read from the pass-through columns, without a config).

Each library rotates the first 8 components of a 16-component head (4 pairs, base 10000) and
leaves the other 8 alone. The cache is read off the library's own rotation by probing it with
the 16 unit vectors e_k at positions 0..63: cos[p, k] is component k of the image of e_k, and
sin[p, k] is ±(component k of the image of e_j), j the component k pairs with (the first of a
pair gets −M[k, j], the second M[k, j]; a component that pairs with none has sin 0). So the
pairing and the layout come from the library, not from this script:

- x-transformers: ``RotaryEmbedding(8).forward`` and ``apply_rotary_pos_emb``, which rotates
  the first ``freqs.shape[-1]`` components and concatenates the rest unchanged;
- litgpt: ``build_rope_cache(64, n_elem=8)`` and ``apply_rope`` on ``q[..., :rope_n_elem]``,
  then ``torch.cat((q_roped, q[..., rope_n_elem:]))`` as ``CausalSelfAttention.forward`` does
  (that one line re-run here, cited);
- keras-hub (torch backend): ``RotaryEmbedding()`` on ``query[..., :rotary_dim]``, then
  ``ops.concatenate((query_rot, query_pass))`` as ``GPTNeoXAttention.call`` does (that line
  re-run here, cited);
- mlx (CPU): ``nn.RoPE(8)`` and ``nn.RoPE(8, traditional=True)``, which leave the components
  past ``dims`` unchanged themselves.

equinox is left out: its ``RotaryPositionalEmbedding`` requires ``embedding_size ==
x.shape[-1]`` (no partial rotary), so its pass-through columns would be this script's, not the
library's.

Reproduce (a venv outside the repository; the tests never import these libraries)::

    python3 -m venv /work/venvs/audit31
    /work/venvs/audit31/bin/pip install torch==2.13.0 numpy safetensors x-transformers litgpt \
        keras-hub "mlx[cpu]"
    KERAS_BACKEND=torch /work/venvs/audit31/bin/python tests/data/make_real_rope_passthrough.py

Deterministic: a second run rewrites every artifact byte for byte.
"""

from __future__ import annotations

import importlib.metadata
import inspect
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("KERAS_BACKEND", "torch")

import numpy as np
import torch
from safetensors.numpy import save_file

OUT = Path(__file__).resolve().parent / "real_rope"
HEAD, ROTARY, BASE = 16, 8, 10000.0
POS = np.arange(64)
ENTRIES: list[dict] = []


def where(obj, lines: str = "") -> str:
    """file::name, lines a-b of obj's source, relative to site-packages."""
    src, start = inspect.getsourcelines(inspect.unwrap(obj))
    path = Path(inspect.getsourcefile(obj)).resolve()
    parts = path.parts
    rel = Path(*parts[parts.index("site-packages") + 1 :])
    name = getattr(obj, "__qualname__", getattr(obj, "__name__", "?"))
    text = f"{rel}::{name}, lines {start}-{start + len(src) - 1}"
    return text + (f"; {lines}" if lines else "")


def read_off(images: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(cos, sin) per position and component from images[k, p, :], the rotation of e_k at
    position p: cos on the diagonal, sin from the component each one pairs with."""
    m = np.transpose(images, (1, 2, 0)).astype(np.float64)  # m[p] = the map at position p
    cos = np.einsum("pkk->pk", m)
    off = np.abs(m).max(axis=0)
    np.fill_diagonal(off, 0.0)
    sin = np.zeros_like(cos)
    for k in range(m.shape[1]):
        j = int(np.argmax(off[k]))
        if off[k, j] > 0:
            sin[:, k] = (-1.0 if k < j else 1.0) * m[:, k, j]
    # C order: safetensors writes the buffer as it lies (the diagonal is a strided view)
    return np.ascontiguousarray(cos, np.float32), np.ascontiguousarray(sin, np.float32)


def unit_vectors() -> np.ndarray:
    """e_k at every position: shape (HEAD, len(POS), HEAD)."""
    return np.repeat(np.eye(HEAD, dtype=np.float32)[:, None, :], len(POS), axis=1)


def add(name: str, library: str, source: str, convention: str, inv_freq, notes: str) -> None:
    images = ENTRIES_IMAGES.pop(name)
    cos, sin = read_off(images)
    save_file(
        {"cos": cos, "sin": sin, "positions": POS.astype(np.int64)},
        str(OUT / f"{name}.safetensors"),
    )
    ENTRIES.append(
        {
            "file": f"{name}.safetensors",
            "config_file": None,
            "library": library,
            "version": importlib.metadata.version(library),
            "source": source,
            "convention": convention,
            "cache_layout": "cat(freqs,freqs)"
            if convention == "rotate_half"
            else "repeat_interleave",
            "rotary_dim": ROTARY,
            "head_dim": HEAD,
            "base": BASE,
            "scaling": {"type": "none"},
            "attention_factor": 1.0,
            "position_offset": 0,
            "computed_in": "float32",
            "stored_dtype": "float32",
            "inv_freq": None if inv_freq is None else [float(x) for x in inv_freq],
            "bug": None,
            "as_built": None,
            "notes": notes,
        }
    )


ENTRIES_IMAGES: dict[str, np.ndarray] = {}


def x_transformers() -> None:
    from x_transformers import x_transformers as xt

    rot = xt.RotaryEmbedding(ROTARY)
    with torch.no_grad():
        freqs, scale = rot(torch.from_numpy(POS))
        out = xt.apply_rotary_pos_emb(torch.from_numpy(unit_vectors()), freqs, scale)
    ENTRIES_IMAGES["passthrough_x_transformers"] = out.numpy()
    add(
        "passthrough_x_transformers",
        "x-transformers",
        where(xt.RotaryEmbedding.forward)
        + "; "
        + where(xt.apply_rotary_pos_emb, "t, t_unrotated = t[..., :rot_dim], t[..., rot_dim:]")
        + "; "
        + where(xt.rotate_half, "pairs (2i, 2i + 1)"),
        "interleaved",
        rot.inv_freq,
        "RotaryEmbedding(8) applied to 16 components: 8 rotate (pairs (2i, 2i + 1), freqs "
        "stacked per pair), 8 pass through",
    )


def litgpt() -> None:
    from litgpt import model

    cos, sin = model.build_rope_cache(len(POS), n_elem=ROTARY, base=int(BASE))
    q = torch.from_numpy(unit_vectors())
    with torch.no_grad():
        q_roped = model.apply_rope(q[..., :ROTARY], cos[None], sin[None])
        out = torch.cat((q_roped, q[..., ROTARY:]), dim=-1)  # CausalSelfAttention.forward
    ENTRIES_IMAGES["passthrough_litgpt"] = out.numpy()
    add(
        "passthrough_litgpt",
        "litgpt",
        where(model.build_rope_cache)
        + "; "
        + where(model.apply_rope)
        + "; "
        + where(
            model.CausalSelfAttention.forward,
            "q = torch.cat((q_roped, q[..., rope_n_elem:]), dim=-1)",
        ),
        "rotate_half",
        None,
        "build_rope_cache(64, n_elem=8) and apply_rope on the first rope_n_elem components, "
        "the rest concatenated unchanged as CausalSelfAttention.forward does",
    )


def keras_hub() -> None:
    import keras
    from keras_hub.src.layers.modeling.rotary_embedding import RotaryEmbedding
    from keras_hub.src.models.gpt_neo_x.gpt_neo_x_attention import GPTNeoXAttention

    layer = RotaryEmbedding(max_wavelength=int(BASE))
    query = torch.from_numpy(unit_vectors())
    with torch.no_grad():
        query_rot = layer(query[..., :ROTARY])
        out = keras.ops.concatenate((query_rot, query[..., ROTARY:]), axis=-1)
        inv = layer._get_inverse_freq(ROTARY)
    ENTRIES_IMAGES["passthrough_keras_hub"] = keras.ops.convert_to_numpy(out)
    add(
        "passthrough_keras_hub",
        "keras-hub",
        where(RotaryEmbedding.call)
        + "; "
        + where(RotaryEmbedding._apply_rotary_pos_emb)
        + "; "
        + where(GPTNeoXAttention.call, "query = ops.concatenate((query_rot, query_pass))"),
        "rotate_half",
        keras.ops.convert_to_numpy(inv),
        "RotaryEmbedding() on query[..., :rotary_dim] (KERAS_BACKEND=torch), the rest "
        "concatenated unchanged as GPTNeoXAttention.call does",
    )


def mlx() -> None:
    import mlx.core as mx
    import mlx.nn as nn

    for traditional, convention in ((False, "rotate_half"), (True, "interleaved")):
        rope = nn.RoPE(ROTARY, traditional=traditional, base=BASE)
        name = f"passthrough_mlx{'_traditional' if traditional else ''}"
        ENTRIES_IMAGES[name] = np.array(rope(mx.array(unit_vectors())))
        add(
            name,
            "mlx",
            where(nn.RoPE, "mx.fast.rope(x, self.dims, ...): components past dims unchanged"),
            convention,
            None,
            f"nn.RoPE(8, traditional={traditional}) on 16 components (CPU): the library "
            "leaves components past dims unchanged",
        )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for build in (x_transformers, litgpt, keras_hub, mlx):
        build()
    doc = {
        "description": "Partial rotary as whole heads (make_real_rope_passthrough.py); fields "
        "as in truth.json; the head's components past rotary_dim pass through (cos 1, sin 0).",
        "versions": {
            name: importlib.metadata.version(name)
            for name in ("torch", "x-transformers", "litgpt", "keras", "keras-hub", "mlx")
        },
        "entries": sorted(ENTRIES, key=lambda e: e["file"]),
    }
    (OUT / "truth_passthrough.json").write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
