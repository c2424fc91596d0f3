"""fairseq's sinusoidal tables, for make_real_tables.py (run in the fairseq venv, not alone).

Usage: ``/work/venvs/fairseq311/bin/python tests/data/make_real_tables_fairseq.py OUTDIR``
writes the fairseq artifacts into OUTDIR and prints their truth entries as JSON on stdout;
make_real_tables.py runs it and merges the entries. The venv is made as its docstring says
(fairseq==0.12.2 with pip<24.1, torch from the local CPU wheel). The tests never import fairseq.

fairseq 0.12.2 installs on Python 3.11 but ``import fairseq`` fails there: its package
``__init__`` builds dataclass configs whose mutable defaults Python 3.11 rejects
(``ValueError: mutable default <class 'fairseq.dataclass.configs.CommonConfig'> for field common
is not allowed``). The module we need, ``fairseq.modules.sinusoidal_positional_embedding``, and
``fairseq.utils`` import cleanly, so they are imported from the installed files with the
package ``__init__`` files skipped; their code runs unchanged.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import inspect
import json
import sys
import types
from pathlib import Path

import numpy as np
import torch

SITE = Path(torch.__file__).resolve().parent.parent


def load(package: str, module: str):
    parts = package.split(".")
    for i in range(1, len(parts) + 1):
        name = ".".join(parts[:i])
        mod = types.ModuleType(name)
        mod.__path__ = [str(SITE / name.replace(".", "/"))]
        sys.modules[name] = mod
    return importlib.import_module(module)


def where(obj, lines: str = "") -> str:
    obj = inspect.unwrap(obj)  # a decorated forward: read the function itself
    src, start = inspect.getsourcelines(obj)
    path = Path(inspect.getsourcefile(obj)).resolve().relative_to(SITE)
    text = f"{path}::{obj.__qualname__}, lines {start}-{start + len(src) - 1}"
    return text + (f"; {lines}" if lines else "")


def main() -> None:
    out = Path(sys.argv[1])
    torch.manual_seed(0)
    spe = load("fairseq.modules", "fairseq.modules.sinusoidal_positional_embedding")
    fs_utils = sys.modules["fairseq.utils"]
    version = importlib.metadata.version("fairseq")
    entries = []
    common = dict(
        library="fairseq",
        version=version,
        layout="concatenated",
        schedule="tensor2tensor",
        base=10000,
        notes=None,
    )
    src = where(
        spe.SinusoidalPositionalEmbedding.get_embedding,
        "emb = exp(arange(half_dim, float) * -(log(10000)/(half_dim-1))); cat([sin, cos]);"
        " emb[padding_idx] = 0",
    )
    with torch.no_grad():
        m = spe.SinusoidalPositionalEmbedding(64, padding_idx=1, init_size=1026)
        np.save(out / "fairseq_table.npy", m.weights.numpy())
        entries.append(
            dict(
                common,
                source=src,
                file="fairseq_table.npy",
                shape=list(m.weights.shape),
                stored_dtype="float32",
                computed_in="float32",
                zero_rows=[1],
                padding="row 1 (padding_idx) zero; utils.make_positions numbers real tokens from"
                " padding_idx + 1 = 2",
                notes="SinusoidalPositionalEmbedding(64, padding_idx=1, init_size=1026).weights",
            )
        )
        # right padding, module in half precision (fairseq --fp16): forward casts the
        # float32 table to the dtype of its _float_tensor buffer.
        mh = spe.SinusoidalPositionalEmbedding(64, padding_idx=1, init_size=1026).half()
        n_tok, n_pad = 400, 24
        ids = torch.full((1, n_tok + n_pad), 1, dtype=torch.long)
        ids[0, :n_tok] = 7
        y = mh(ids)[0]
        assert y.dtype == torch.float16
        np.save(out / "fairseq_right_padded_fp16.npy", y.numpy())
        entries.append(
            dict(
                common,
                source=where(
                    spe.SinusoidalPositionalEmbedding.forward,
                    "self.weights = self.weights.to(self._float_tensor); positions ="
                    " utils.make_positions(input, padding_idx)",
                )
                + "; "
                + where(fs_utils.make_positions),
                file="fairseq_right_padded_fp16.npy",
                shape=list(y.shape),
                stored_dtype="float16",
                computed_in="float32",
                position_of_row_0=2,
                zero_rows=list(range(n_tok, n_tok + n_pad)),
                padding=f"right padding: {n_tok} tokens then {n_pad} pads (id 1) reading the zero"
                " row; token k reads angle k + 2",
                notes="SinusoidalPositionalEmbedding(64, 1, 1026).half()(input_ids)[0]: the table"
                " is computed in float32 and cast to float16 in forward",
            )
        )
    print(json.dumps(entries))


if __name__ == "__main__":
    main()
