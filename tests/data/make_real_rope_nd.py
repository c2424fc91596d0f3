"""Build RoPE caches beyond one dimension with the libraries' own code, and their truth.

What it builds: ``tests/data/real_rope_nd/<name>.safetensors`` (keys ``cos``, ``sin``,
``positions``: the row index) and ``tests/data/real_rope_nd/truth.json``, whose fields were read
from each library's source (``source`` names file, function and lines):
- torchtune's ``VisionRotaryPositionalEmbeddings`` (2-D axial, one column per pair, CLS row);
- timm's ``build_rotary_pos_embed`` (EVA-style grid RoPE, interleaved and rotate_half layouts);
- transformers' ``Qwen2VLRotaryEmbedding`` (M-RoPE, chunked sections) and
  ``Qwen3VLTextRotaryEmbedding`` (interleaved sections), at the positions
  ``Qwen2VLModel.get_vision_position_ids`` gives text tokens followed by an image;
- rotary-embedding-torch's ``RotaryEmbedding(use_xpos=True)``: the query side's cos·scale and
  sin·scale, as ``apply_rotary_emb`` multiplies them.

Reproduce (a venv outside the repository; the tests never import these libraries)::

    python3 -m venv /work/venvs/nd31
    /work/venvs/nd31/bin/pip install torch==2.13.0      # the local CPU wheel
    /work/venvs/nd31/bin/pip install numpy safetensors torchtune==0.6.1 timm==1.0.31 \\
        transformers==5.25.0 rotary-embedding-torch==0.9.1 torchao
    /work/venvs/nd31/bin/python tests/data/make_real_rope_nd.py

timm's ``pos_embed_sincos`` and torchtune's ``position_embeddings`` are loaded from their
installed files without the package ``__init__`` (timm's imports torchvision, see README.md;
torchtune's imports torchao's NF4 tensor, which the torchao wheel beside torch 2.13 lacks). Deterministic: a second run rewrites every file byte for byte.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import inspect
import json
import sys
import types
from pathlib import Path

import torch
from safetensors.torch import save_file

HERE = Path(__file__).resolve().parent
OUT = HERE / "real_rope_nd"
SITE = Path(torch.__file__).resolve().parent.parent
ENTRIES: list[dict] = []


def where(obj) -> str:
    obj = inspect.unwrap(obj)
    src, start = inspect.getsourcelines(obj)
    path = Path(inspect.getsourcefile(obj)).resolve().relative_to(SITE)
    return f"{path}::{obj.__qualname__}, lines {start}-{start + len(src) - 1}"


def write(name: str, cos: torch.Tensor, sin: torch.Tensor, **truth) -> None:
    tensors = {
        "cos": cos.detach().float().contiguous(),
        "sin": sin.detach().float().contiguous(),
        "positions": torch.arange(cos.shape[0], dtype=torch.int64),
    }
    save_file(tensors, str(OUT / f"{name}.safetensors"))
    ENTRIES.append({"name": name, "file": f"{name}.safetensors", "shape": list(cos.shape), **truth})


def load_namespace(package: str, module: str):
    """A submodule of an installed package imported without running the package's __init__
    (as make_real_tables.load_namespace does): its real file, its relative imports resolved."""
    parts = package.split(".")
    for i in range(1, len(parts) + 1):
        name = ".".join(parts[:i])
        if name not in sys.modules:
            namespace = types.ModuleType(name)
            namespace.__path__ = [str(SITE / name.replace(".", "/"))]
            sys.modules[name] = namespace
    return importlib.import_module(module)


def build_torchtune() -> None:
    # torchtune.modules' __init__ imports torchao's NF4 tensor, missing from the torchao wheel
    # that installs beside torch 2.13; the module itself imports torch only.
    module = load_namespace("torchtune.modules", "torchtune.modules.position_embeddings")
    VisionRotaryPositionalEmbeddings = module.VisionRotaryPositionalEmbeddings

    grid, dim = 8, 32  # dim: torchtune's `dim`, half the head width (one cache column per pair)
    rope = VisionRotaryPositionalEmbeddings(
        patch_size=14, tile_size=14 * grid, max_num_tiles=1, dim=dim
    )
    cache = rope.cache  # (patches + 1, dim, 2): cos, sin of each pair
    write(
        "torchtune_vision_rope",
        cache[..., 0],
        cache[..., 1],
        library=f"torchtune {importlib.metadata.version('torchtune')}",
        source=where(VisionRotaryPositionalEmbeddings.build_rope_cache),
        kind="axial",
        grid=[grid, grid],
        layout="freqs",
        head_dim=2 * dim,
        x_columns=list(range(dim // 2)),
        y_columns=list(range(dim // 2, dim)),
        x_positions="patch_idx % grid + 1",
        y_positions="patch_idx // grid + 1",
        origin={"x": 1, "y": 1},
        axis_frequencies=[10000.0 ** (-2 * i / dim) for i in range(dim // 2)],
        identity_rows=[grid * grid],
        notes="append_cls_token=True: the last row is the CLS token's, angle 0 (cos 1, sin 0)",
    )


def build_timm() -> None:
    # timm/__init__ imports torchvision (see README.md).
    sincos = load_namespace("timm.layers", "timm.layers.pos_embed_sincos")
    shape, dim = [6, 8], 64
    for name, half in (("timm_grid_rope", False), ("timm_grid_rope_half", True)):
        sin, cos = sincos.build_rotary_pos_embed(
            feat_shape=shape, dim=dim, in_pixels=False, temperature=10000.0, rotate_half=half
        )
        bands = dim // 4
        pairs = dim // 2
        axis0 = (
            list(range(bands)) if half else [c for i in range(bands) for c in (2 * i, 2 * i + 1)]
        )
        axis1 = (
            list(range(bands, pairs))
            if half
            else [c for i in range(bands, pairs) for c in (2 * i, 2 * i + 1)]
        )
        write(
            name,
            cos,
            sin,
            library=f"timm {importlib.metadata.version('timm')}",
            source=where(sincos.build_rotary_pos_embed)
            + "; "
            + where(sincos.build_fourier_pos_embed),
            kind="axial",
            grid=shape,
            layout="cat(freqs,freqs)" if half else "repeat_interleave",
            head_dim=dim,
            # grid_indexing 'ij': the first num_bands frequencies go with axis 0 (rows, y).
            x_columns=axis1 if not half else axis1 + [c + pairs for c in axis1],
            y_columns=axis0 if not half else axis0 + [c + pairs for c in axis0],
            x_positions="column index (in_pixels=False: arange(W))",
            y_positions="row index (arange(H))",
            origin={"x": 0, "y": 0},
            axis_frequencies=[
                float(f) for f in sincos.freq_bands(bands, temperature=10000.0, step=1)
            ],
            identity_rows=[],
            notes="num_bands = dim // 4 per axis; freq_bands(num_bands, temperature, step=1)",
        )


def build_qwen() -> None:
    from transformers import Qwen2VLTextConfig, Qwen3VLTextConfig
    from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLModel, Qwen2VLRotaryEmbedding
    from transformers.models.qwen3_vl.modeling_qwen3_vl import Qwen3VLTextRotaryEmbedding

    text, grid = 4, (1, 6, 8)
    image = Qwen2VLModel.get_vision_position_ids(None, text, torch.tensor(grid))
    words = torch.arange(text).expand(3, -1)
    position_ids = torch.cat([words, image], dim=1)[:, None, :]  # (3, batch 1, tokens)
    x = torch.zeros(1, dtype=torch.float32)
    for name, config_class, rotary, sections, layout in (
        ("qwen2vl_mrope", Qwen2VLTextConfig, Qwen2VLRotaryEmbedding, [16, 24, 24], "chunked"),
        (
            "qwen3vl_mrope",
            Qwen3VLTextConfig,
            Qwen3VLTextRotaryEmbedding,
            [24, 20, 20],
            "interleaved",
        ),
    ):
        config = config_class(
            hidden_size=1024,
            num_attention_heads=8,
            head_dim=128,
            rope_parameters={"rope_type": "default", "rope_theta": 1e6, "mrope_section": sections},
        )
        module = rotary(config)
        cos, sin = module(x, position_ids)
        write(
            name,
            cos[0],
            sin[0],
            library=f"transformers {importlib.metadata.version('transformers')}",
            source=where(rotary.forward) + "; " + where(rotary.recomposition_frequencies),
            kind="mrope",
            layout="cat(freqs,freqs)",
            head_dim=128,
            base=1e6,
            mrope_section=sections,
            section_layout=layout,
            text_tokens=text,
            image_grid=list(grid),
            origin={"h": text, "w": text},
            positions_source=where(Qwen2VLModel.get_vision_position_ids),
            notes="rows 0-3 text (t = h = w = row), then a 6 x 8 image at t = 4, h = 4 + row, w = 4 + column",
        )


def build_xpos() -> None:
    from rotary_embedding_torch import RotaryEmbedding

    dim, length = 64, 1024
    rope = RotaryEmbedding(dim=dim, use_xpos=True)
    seq = torch.arange(length, dtype=torch.float32)
    freqs = rope.forward(seq, seq_len=length)
    scale = rope.get_scale(seq, seq_len=length)
    write(
        "rotary_embedding_torch_xpos",
        freqs.cos() * scale,
        freqs.sin() * scale,
        library=f"rotary-embedding-torch {importlib.metadata.version('rotary-embedding-torch')}",
        source=where(RotaryEmbedding.get_scale)
        + "; "
        + where(RotaryEmbedding.rotate_queries_and_keys),
        kind="xpos",
        layout="repeat_interleave",
        head_dim=dim,
        base=10000.0,
        xpos_scale_base=512,
        zeta=[(2 * i + 0.4 * dim) / (1.4 * dim) for i in range(dim // 2)],
        center=length // 2,
        notes="the query side: cos·scale, sin·scale with scale = ζ^((t − L//2)/512); keys get 1/scale",
    )


def main() -> None:
    OUT.mkdir(exist_ok=True)
    torch.manual_seed(0)
    # transformers first: it asks importlib for timm's spec, which the namespace stand-in lacks.
    build_qwen()
    build_xpos()
    build_torchtune()
    build_timm()
    versions = {"torch": torch.__version__}
    (OUT / "truth.json").write_text(
        json.dumps({"versions": versions, "entries": ENTRIES}, indent=1) + "\n"
    )


if __name__ == "__main__":
    main()
