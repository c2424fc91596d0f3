"""Build the round-2 sinusoidal tables (issue 31, points 11 to 14) with the libraries' own code.

What it builds: ``tests/data/real_tables/<name>.npy`` for four more tables and
``tests/data/real_tables/truth_round2.json``, their truth read from the libraries' source (each
entry's ``source`` names the file, function and lines, found by inspect). The fields mean what
they mean in ``truth.json`` (tests/data/README.md), plus ``constant_added`` (PatchTST) and
``positions`` / ``frequencies_per_unit`` (timm's pixel grid, whose positions are not whole
numbers and whose frequencies follow no named schedule).

Reproduce (its own virtual environment; the tests read only the committed files)::

    python3 -m venv /work/venvs/table31
    /work/venvs/table31/bin/pip install \
        /opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl
    echo 'torch==2.13.0+cpu' > /tmp/torch-constraint.txt
    /work/venvs/table31/bin/pip install -c /tmp/torch-constraint.txt numpy==2.4.6 \
        safetensors==0.8.0 transformers==5.24.0 timm==1.0.31 speechbrain==1.1.2
    /work/venvs/table31/bin/pip install --no-deps nemo_toolkit==3.0.0
    /work/venvs/table31/bin/pip uninstall -y torchvision torchaudio  # CUDA-linked, see README
    /work/venvs/table31/bin/python tests/data/make_real_tables_round2.py

timm's ``pos_embed_sincos`` is imported with its package ``__init__`` skipped; NeMo's
``FixedPositionalEncoding`` and speechbrain's ``RelPosEncXL`` are executed from the installed
files' text, as
``make_real_tables.py`` does and for the same reasons (README). The run is deterministic.
"""

from __future__ import annotations

import ast
import importlib
import importlib.metadata
import inspect
import json
import math
import sys
import types
from pathlib import Path

import numpy as np
import torch

HERE = Path(__file__).resolve().parent
OUT = HERE / "real_tables"
SITE = Path(torch.__file__).resolve().parent.parent
VERSIONS = {
    name: importlib.metadata.version(name)
    for name in ("torch", "numpy", "transformers", "timm", "speechbrain", "nemo-toolkit")
}
torch.manual_seed(0)
ENTRIES: list[dict] = []


def where(obj, lines: str = "") -> str:
    """``path/in/site-packages::qualname, lines a-b`` for a function or class, read by inspect."""
    obj = inspect.unwrap(obj)
    src, start = inspect.getsourcelines(obj)
    path = Path(inspect.getsourcefile(obj)).resolve().relative_to(SITE)
    text = f"{path}::{obj.__qualname__}, lines {start}-{start + len(src) - 1}"
    return text + (f"; {lines}" if lines else "")


def load_namespace(package: str, *modules: str) -> list[types.ModuleType]:
    """Import submodules without running the package ``__init__`` (make_real_tables.py)."""
    parts = package.split(".")
    for i in range(1, len(parts) + 1):
        name = ".".join(parts[:i])
        if name not in sys.modules:
            mod = types.ModuleType(name)
            mod.__path__ = [str(SITE / name.replace(".", "/"))]
            sys.modules[name] = mod
    return [importlib.import_module(m) for m in modules]


def exec_class(relpath: str, name: str):
    """A class executed exactly as written in an installed file, and where it is."""
    text = (SITE / relpath).read_text()
    ns: dict = {"math": math, "torch": torch, "nn": torch.nn, "np": np}
    for node in ast.parse(text).body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            exec(compile(ast.get_source_segment(text, node), str(SITE / relpath), "exec"), ns)
            return ns[name], f"{relpath}::{name}, lines {node.lineno}-{node.end_lineno}"
    raise LookupError(name)


def add(name: str, arr: torch.Tensor, **truth) -> None:
    a = arr.detach().cpu().numpy()
    np.save(OUT / name, a)
    ENTRIES.append(
        {
            "file": name,
            "key": None,
            "shape": list(a.shape),
            "stored_dtype": str(a.dtype),
            "scale": 1,
            "position_of_row_0": 0,
            "position_step": 1,
            "zero_rows": [],
            "packed_restarts": None,
            **truth,
        }
    )


def build_nemo() -> None:
    """NeMo's FixedPositionalEncoding: the paper's table divided by sqrt(d) (point 11)."""
    cls, lines = exec_class(
        "nemo/collections/asr/modules/transformer/transformer_modules.py",
        "FixedPositionalEncoding",
    )
    pe = cls(64, max_sequence_length=512)
    add(
        "nemo_fixed_posenc.npy",
        pe.pos_enc,
        library="nemo-toolkit",
        version=VERSIONS["nemo-toolkit"],
        source=lines
        + "; _build_pos_enc: div_term = exp(-(log 10000/d)·arange(0, d, 2)); pos_enc[:, 0::2]"
        " = sin, pos_enc[:, 1::2] = cos; pos_enc.div_(sqrt(d))",
        computed_in="float32",
        layout="interleaved",
        schedule="paper",
        base=10000,
        scale=64**-0.5,
        notes="FixedPositionalEncoding(64, max_sequence_length=512).pos_enc; the class text"
        " executed from the installed file (its module imports nemo.collections.common, which"
        " pulls lightning)",
    )


def build_patchtst() -> None:
    """transformers' PatchTST 'sincos' encoding: the paper's table, mean removed, divided by
    10·std (point 12)."""
    from transformers import PatchTSTConfig
    from transformers.models.patchtst import modeling_patchtst as m

    config = PatchTSTConfig(d_model=64, positional_encoding_type="sincos")
    table = m.PatchTSTPositionalEncoding._init_pe(config, 100).detach()
    # The constant and scale the library applied, recomputed from its own steps in float64
    # from the table it made before them (its float32 mean and std are what it used).
    raw = torch.zeros(100, 64)
    position = torch.arange(0, 100).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, 64, 2) * -(math.log(10000.0) / 64))
    raw[:, 0::2], raw[:, 1::2] = torch.sin(position * div_term), torch.cos(position * div_term)
    mean = float(raw.mean())
    std = float((raw - raw.mean()).std())
    add(
        "patchtst_sincos.npy",
        table,
        library="transformers",
        version=VERSIONS["transformers"],
        source=where(
            m.PatchTSTPositionalEncoding._init_pe,
            "position_enc = position_enc - position_enc.mean(); position_enc = position_enc /"
            " (position_enc.std() * 10)",
        ),
        computed_in="float32",
        layout="interleaved",
        schedule="paper",
        base=10000,
        scale=1 / (10 * std),
        constant_added=-mean / (10 * std),
        notes="PatchTSTPositionalEncoding._init_pe(PatchTSTConfig(d_model=64,"
        " positional_encoding_type='sincos'), num_patches=100): the paper's table minus its"
        f" mean ({mean:.9g}), divided by 10·std ({std:.9g}); every value = scale·PE + constant",
    )


def build_timm() -> None:
    """timm's build_fourier_pos_embed on a 1-D pixel grid (point 13)."""
    (pe,) = load_namespace("timm.layers", "timm.layers.pos_embed_sincos")
    n, bands, max_res = 128, 16, 128
    sin, cos = pe.build_fourier_pos_embed([n], num_bands=bands, max_res=max_res)
    table = torch.cat([sin.reshape(n, bands), cos.reshape(n, bands)], dim=-1)
    per_unit = pe.pixel_freq_bands(bands, float(max_res), linear_bands=False).double()
    positions = torch.linspace(-1.0, 1.0, steps=n, dtype=torch.float32).double()
    add(
        "timm_fourier_pixel_1d.npy",
        table,
        library="timm",
        version=VERSIONS["timm"],
        source=where(
            pe.build_fourier_pos_embed,
            "grid_type 'pixel': linspace(-1, 1, s); pos = grid * bands; pos.sin(), pos.cos()",
        )
        + "; "
        + where(pe.pixel_freq_bands, "bands = 2**linspace(0, log2(max_freq) - 1, n) * pi"),
        computed_in="float32",
        layout="concatenated",
        schedule="custom",
        base=None,
        position_of_row_0=-1.0,
        position_step=2 / (n - 1),
        positions=[float(p) for p in positions],
        frequencies_per_unit=[float(w) for w in per_unit],
        frequencies_per_row=[float(w) * 2 / (n - 1) for w in per_unit],
        notes=f"torch.cat(build_fourier_pos_embed([{n}], num_bands={bands},"
        f" max_res={max_res}), -1): [sin | cos] of pixel positions linspace(-1, 1, {n}) times"
        f" pi·2^linspace(0, log2({max_res}) - 1, {bands}); the fastest pair turns"
        f" {float(per_unit[-1]) * 2 / (n - 1):.4f} rad a row (more than pi), the others less",
    )


def build_speechbrain() -> None:
    """speechbrain's RelPosEncXL at 1999 rows: relative positions 999 … −999, mirrored (14)."""
    cls, lines = exec_class("speechbrain/nnet/attention.py", "RelPosEncXL")
    length = 1000
    add(
        "speechbrain_relposxl_1999.npy",
        cls(64).make_pe(length)[0],
        library="speechbrain",
        version=VERSIONS["speechbrain"],
        source=lines + "; pe_future[:, 0::2] = sinusoids  # same for past and future",
        computed_in="float32",
        layout="interleaved",
        schedule="paper",
        base=10000,
        position_of_row_0=length - 1,
        position_step=-1,
        position_transform="abs",
        notes=f"RelPosEncXL(64).make_pe({length})[0]: {2 * length - 1} rows for relative"
        f" positions {length - 1} … −{length - 1}; row r encodes |{length - 1} − r|, so only"
        f" {length} rows are distinct (class text executed from the installed file)",
    )


def main() -> None:
    build_nemo()
    build_patchtst()
    build_timm()
    build_speechbrain()
    truth = {
        "about": "Round-2 tables (issue 31); fields as in truth.json, see"
        " make_real_tables_round2.py",
        "versions": VERSIONS,
        "entries": ENTRIES,
    }
    (OUT / "truth_round2.json").write_text(json.dumps(truth, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
