"""Build sinusoidal positional tables with real libraries' own code, and their truth.

What it builds: ``tests/data/real_tables/*.npy|.safetensors|.csv`` and
``tests/data/real_tables/truth.json``: positional tables produced by the code of transformers,
diffusers, keras-hub, timm, speechbrain, x-transformers, NeMo and fairseq, called as users call it
(modules built from config classes, never from a model hub), plus variants users really produce
with that same code (half precision, packed sequences, left padding). Each truth entry is read
from the library's source and names the file, function and lines it was read from.

Reproduce (a virtual environment outside the repository; the tests never import these
libraries, they read only the committed artifacts and truth.json)::

    python3 -m venv /work/venvs/reallibs
    /work/venvs/reallibs/bin/pip install \
        /opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl
    echo 'torch==2.13.0+cpu' > /tmp/torch-constraint.txt
    /work/venvs/reallibs/bin/pip install -c /tmp/torch-constraint.txt numpy==2.4.6 \
        safetensors==0.8.0 transformers==5.24.0 diffusers==0.42.1 timm==1.0.31 \
        x-transformers==2.31.10 keras==3.15.1 keras-hub==0.32.0 speechbrain==1.1.2
    /work/venvs/reallibs/bin/pip install --no-deps nemo_toolkit==3.0.0
    /work/venvs/reallibs/bin/pip uninstall -y torchvision torchaudio  # CUDA-linked, see README
    # fairseq 0.12.2 needs pip<24.1 (omegaconf 2.0.x metadata) and its own venv:
    python3 -m venv /work/venvs/fairseq311
    /work/venvs/fairseq311/bin/pip install 'pip<24.1'
    /work/venvs/fairseq311/bin/pip install \
        /opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl
    /work/venvs/fairseq311/bin/pip install -c /tmp/torch-constraint.txt fairseq==0.12.2
    /work/venvs/fairseq311/bin/pip uninstall -y torchaudio

    KERAS_BACKEND=torch /work/venvs/reallibs/bin/python tests/data/make_real_tables.py

The run is deterministic: running it again rewrites every artifact byte for byte. The fairseq
part runs ``make_real_tables_fairseq.py`` in the fairseq venv (path from ``FAIRSEQ_PYTHON``,
default ``/work/venvs/fairseq311/bin/python``). ``--large DIR`` writes the one table too big to
commit (100000 x 1536) into DIR instead.
"""

from __future__ import annotations

import ast
import importlib.metadata
import inspect
import json
import math
import os
import subprocess
import sys
import textwrap
import types
from pathlib import Path

os.environ.setdefault("KERAS_BACKEND", "torch")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np
import torch
from safetensors.torch import save_file

HERE = Path(__file__).resolve().parent
OUT = HERE / "real_tables"
SITE = Path(torch.__file__).resolve().parent.parent

torch.manual_seed(0)
torch.set_default_dtype(torch.float32)

VERSIONS = {
    name: importlib.metadata.version(name)
    for name in (
        "torch",
        "numpy",
        "safetensors",
        "transformers",
        "diffusers",
        "timm",
        "x-transformers",
        "keras",
        "keras-hub",
        "speechbrain",
        "nemo-toolkit",
    )
}


def where(obj, lines: str = "") -> str:
    """``path/in/site-packages::qualname, lines a-b`` for a function or class, read by inspect."""
    obj = inspect.unwrap(obj)  # a decorated forward: read the function itself
    src, start = inspect.getsourcelines(obj)
    path = Path(inspect.getsourcefile(obj)).resolve().relative_to(SITE)
    text = f"{path}::{obj.__qualname__}, lines {start}-{start + len(src) - 1}"
    return text + (f"; {lines}" if lines else "")


def load_namespace(package: str, *modules: str) -> list[types.ModuleType]:
    """Import submodules of an installed package without running the package's ``__init__``.

    timm's and speechbrain's package ``__init__`` import torchvision / torchaudio, whose PyPI
    wheels are linked against CUDA torch and fail to load beside the CPU torch wheel. The
    submodules we need do not use them, so their real files are imported as they are.
    """
    parts = package.split(".")
    for i in range(1, len(parts) + 1):
        name = ".".join(parts[:i])
        if name not in sys.modules:
            mod = types.ModuleType(name)
            mod.__path__ = [str(SITE / name.replace(".", "/"))]
            sys.modules[name] = mod
    import importlib

    return [importlib.import_module(m) for m in modules]


def exec_classes(relpath: str, names: list[str]) -> tuple[dict, dict]:
    """Execute class definitions exactly as written in an installed file; return them and lines.

    Used for speechbrain, whose modules import torchaudio (see ``load_namespace``) through
    ``speechbrain.dataio``: the class text is taken from the installed file unchanged.
    """
    path = SITE / relpath
    text = path.read_text()
    tree = ast.parse(text)
    ns: dict = {"math": math, "torch": torch, "nn": torch.nn, "np": np}
    found, lines = {}, {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name in names:
            code = ast.get_source_segment(text, node)
            exec(compile(code, str(path), "exec"), ns)
            found[node.name] = ns[node.name]
            lines[node.name] = f"{relpath}::{node.name}, lines {node.lineno}-{node.end_lineno}"
    return found, lines


ENTRIES: list[dict] = []


def entry(**kw) -> dict:
    base = {
        "library": None,
        "version": None,
        "source": None,
        "file": None,
        "key": None,
        "shape": None,
        "stored_dtype": None,
        "computed_in": None,
        "layout": None,
        "schedule": None,
        "base": None,
        "scale": 1,
        "position_of_row_0": 0,
        "position_step": 1,
        "zero_rows": [],
        "packed_restarts": None,
        "padding": None,
        "notes": None,
    }
    base.update(kw)
    return base


def save(name: str, arr, fmt: str = "npy", key: str | None = None, csv_fmt: str | None = None):
    """Write ``arr`` (torch or numpy) as the file ``name``; return (file, key, shape, dtype)."""
    path = OUT / name
    if fmt == "safetensors":
        t = arr if isinstance(arr, torch.Tensor) else torch.from_numpy(np.ascontiguousarray(arr))
        save_file({key: t.contiguous()}, str(path))
        return name, key, list(t.shape), str(t.dtype).replace("torch.", "")
    a = arr.detach().cpu().numpy() if isinstance(arr, torch.Tensor) else np.asarray(arr)
    if fmt == "csv":
        np.savetxt(path, a, fmt=csv_fmt, delimiter=",")
        return name, None, list(a.shape), f"{a.dtype} as text {csv_fmt}"
    np.save(path, a)
    return name, None, list(a.shape), str(a.dtype)


def add(name, arr, fmt="npy", key=None, csv_fmt=None, **truth):
    file, key, shape, dtype = save(name, arr, fmt, key, csv_fmt)
    ENTRIES.append(entry(file=file, key=key, shape=shape, stored_dtype=dtype, **truth))


# --------------------------------------------------------------------------- transformers


def build_transformers() -> None:
    import transformers
    from transformers import (
        FSMTConfig,
        FSMTModel,
        M2M100Config,
        M2M100Model,
        MarianConfig,
        MarianModel,
        Speech2TextConfig,
        Speech2TextModel,
        WhisperConfig,
        WhisperModel,
        XGLMConfig,
        XGLMModel,
    )
    from transformers.models.ctrl import modeling_ctrl
    from transformers.models.fsmt import modeling_fsmt
    from transformers.models.gptj import modeling_gptj
    from transformers.models.m2m_100 import modeling_m2m_100
    from transformers.models.marian import modeling_marian
    from transformers.models.musicgen import modeling_musicgen
    from transformers.models.pegasus_x import modeling_pegasus_x
    from transformers.models.speech_to_text import modeling_speech_to_text
    from transformers.models.wav2vec2_conformer import modeling_wav2vec2_conformer as w2vc
    from transformers.models.whisper import modeling_whisper
    from transformers.models.xglm import modeling_xglm

    v = transformers.__version__
    lib = dict(library="transformers", version=v)
    tiny = dict(
        encoder_layers=1,
        decoder_layers=1,
        encoder_attention_heads=2,
        decoder_attention_heads=2,
        encoder_ffn_dim=32,
        decoder_ffn_dim=32,
    )

    # Marian: position_enc in float64 NumPy, then torch.FloatTensor.
    marian = MarianModel(
        MarianConfig(
            d_model=64,
            max_position_embeddings=512,
            vocab_size=100,
            pad_token_id=99,
            decoder_start_token_id=99,
            **tiny,
        )
    )
    w = marian.encoder.embed_positions.weight.detach()
    src = where(
        modeling_marian.MarianSinusoidalPositionalEmbedding.create_weight,
        "angles pos / 10000**(2*(j//2)/dim) in float64 NumPy; out[:, :dim//2] = sin(even j),"
        " out[:, dim//2:] = cos(odd j), cast by torch.FloatTensor; copied in"
        " MarianPreTrainedModel._init_weights",
    )
    common = dict(
        **lib,
        source=src,
        computed_in="float64",
        layout="concatenated",
        schedule="paper",
        base=10000,
        padding="none: row r is position r",
    )
    add(
        "marian_encoder_pos.npy",
        w,
        **common,
        notes="MarianModel(MarianConfig(d_model=64, max_position_embeddings=512)).encoder."
        "embed_positions.weight",
    )
    add(
        "marian_encoder_pos_9g.csv",
        w[:128, :],
        fmt="csv",
        csv_fmt="%.9g",
        **common,
        notes="first 128 rows of marian_encoder_pos.npy written by np.savetxt(fmt='%.9g',"
        " delimiter=',')",
    )
    add(
        "marian_encoder_pos.safetensors",
        w,
        fmt="safetensors",
        key="model.encoder.embed_positions.weight",
        **common,
        notes="the same weight saved with safetensors.torch.save_file under its state-dict name",
    )

    # M2M100: tensor2tensor table, padding_idx row zeroed, offset 2.
    m2m = M2M100Model(M2M100Config(d_model=64, max_position_embeddings=512, vocab_size=100, **tiny))
    emb = m2m.encoder.embed_positions
    pad = m2m.config.pad_token_id
    src_m2m = where(
        modeling_m2m_100.M2M100SinusoidalPositionalEmbedding.get_embedding,
        "emb = exp(arange(half_dim) * -(log(10000)/(half_dim-1))) in float32; cat([sin, cos]);"
        " emb[padding_idx] = 0; __init__ builds num_positions + offset (2) rows",
    )
    add(
        "m2m100_table.npy",
        emb.weights,
        **lib,
        source=src_m2m,
        computed_in="float32",
        layout="concatenated",
        schedule="tensor2tensor",
        base=10000,
        zero_rows=[pad],
        padding=f"row {pad} (padding_idx = pad_token_id) is zero; a sequence's first real token"
        f" reads row padding_idx + 1 = {pad + 1} (create_position_ids_from_input_ids)",
        notes="M2M100Model(M2M100Config(d_model=64, max_position_embeddings=512)).encoder."
        "embed_positions.weights: 512 + offset 2 = 514 rows; row r holds angle r",
    )
    n_pad, n_tok = 44, 256
    ids = torch.full((1, n_pad + n_tok), pad, dtype=torch.long)
    ids[0, n_pad:] = 5
    out = emb(input_ids=ids)[0]
    pos_ids = emb.create_position_ids_from_input_ids(ids, pad)[0]
    assert int(pos_ids[n_pad]) == pad + 1
    add(
        "m2m100_left_padded.npy",
        out,
        **lib,
        source=where(
            modeling_m2m_100.M2M100SinusoidalPositionalEmbedding.create_position_ids_from_input_ids,
            "position ids = cumsum(mask) * mask + padding_idx; forward indexes the table",
        ),
        computed_in="float32",
        layout="concatenated",
        schedule="tensor2tensor",
        base=10000,
        position_of_row_0=pad + 1 - n_pad,
        zero_rows=list(range(n_pad)),
        padding=f"left padding: {n_pad} pad tokens (id {pad}) then {n_tok} tokens; pad rows read"
        f" the zero row padding_idx; token k (0-based, after the pads) reads angle {pad + 1} + k",
        notes="M2M100SinusoidalPositionalEmbedding.forward(input_ids) on one left-padded"
        " sequence; output[0]",
    )

    # Whisper encoder: sinusoids() copied into embed_positions.
    wm = WhisperModel(
        WhisperConfig(
            d_model=64,
            max_source_positions=1500,
            max_target_positions=448,
            num_mel_bins=80,
            vocab_size=100,
            pad_token_id=99,
            bos_token_id=98,
            eos_token_id=98,
            decoder_start_token_id=97,
            **tiny,
        )
    )
    add(
        "whisper_encoder_pos.npy",
        wm.encoder.embed_positions.weight,
        **lib,
        source=where(
            modeling_whisper.sinusoids,
            "inv_timescales = exp(-log(10000)/(channels//2 - 1) * arange(channels//2)) in"
            " float32; cat([sin, cos]); WhisperPreTrainedModel._init_weights copies it",
        ),
        computed_in="float32",
        layout="concatenated",
        schedule="tensor2tensor",
        base=10000,
        padding="none",
        notes="WhisperModel(WhisperConfig(d_model=64, max_source_positions=1500)).encoder."
        "embed_positions.weight",
    )
    add(
        "whisper_encoder_pos.safetensors",
        wm.encoder.embed_positions.weight.detach(),
        fmt="safetensors",
        key="model.encoder.embed_positions.weight",
        **lib,
        source=where(modeling_whisper.sinusoids),
        computed_in="float32",
        layout="concatenated",
        schedule="tensor2tensor",
        base=10000,
        padding="none",
        notes="same as whisper_encoder_pos.npy, saved via safetensors.torch.save_file",
    )

    # Speech2Text: like M2M100 (offset 2, padding_idx row zero).
    s2t = Speech2TextModel(
        Speech2TextConfig(
            d_model=64, max_source_positions=500, max_target_positions=100, vocab_size=100, **tiny
        )
    )
    sp = s2t.config.pad_token_id
    add(
        "speech2text_table.npy",
        s2t.encoder.embed_positions.weights,
        **lib,
        source=where(
            modeling_speech_to_text.Speech2TextSinusoidalPositionalEmbedding.get_embedding
        ),
        computed_in="float32",
        layout="concatenated",
        schedule="tensor2tensor",
        base=10000,
        zero_rows=[sp],
        padding=f"row {sp} (padding_idx) zero; first real frame reads row {sp + 1}",
        notes="Speech2TextModel(...max_source_positions=500).encoder.embed_positions.weights"
        " (500 + 2 rows)",
    )

    # XGLM: forward(position_ids) adds offset 2 before indexing; packed sequence.
    xg = XGLMModel(
        XGLMConfig(
            d_model=64,
            max_position_embeddings=512,
            num_layers=1,
            attention_heads=2,
            ffn_dim=32,
            vocab_size=100,
        )
    )
    lengths = [100, 150, 50]
    pids = torch.cat([torch.arange(n) for n in lengths])[None]
    restarts = [int(x) for x in np.cumsum(lengths)[:-1]]
    add(
        "xglm_packed.npy",
        xg.embed_positions(pids)[0],
        **lib,
        source=where(
            modeling_xglm.XGLMSinusoidalPositionalEmbedding.forward,
            "position_ids = position_ids + self.offset (2), then index_select on the table",
        ),
        computed_in="float32",
        layout="concatenated",
        schedule="tensor2tensor",
        base=10000,
        position_of_row_0=2,
        packed_restarts=restarts,
        padding=f"table row {xg.config.pad_token_id} (padding_idx) is zero but position id 0"
        " reads row 2, so no output row is zero",
        notes="XGLM embed_positions(position_ids) with position ids restarting at 0 for three"
        " packed documents of lengths 100, 150, 50: position id p reads angle p + 2",
    )

    # FSMT (fairseq port): nn.Embedding with max_position_embeddings + padding_idx + 1 rows.
    fsmt = FSMTModel(
        FSMTConfig(
            langs=["en", "de"],
            src_vocab_size=100,
            tgt_vocab_size=100,
            d_model=64,
            max_position_embeddings=512,
            **tiny,
        )
    )
    fp = fsmt.config.pad_token_id
    add(
        "fsmt_table.npy",
        fsmt.encoder.embed_positions.weight,
        **lib,
        source=where(modeling_fsmt.SinusoidalPositionalEmbedding.get_embedding),
        computed_in="float32",
        layout="concatenated",
        schedule="tensor2tensor",
        base=10000,
        zero_rows=[fp],
        padding=f"row {fp} (padding_idx) zero; make_positions starts real tokens at"
        f" padding_idx + 1 = {fp + 1}",
        notes="FSMTModel(FSMTConfig(d_model=64, max_position_embeddings=512)).encoder."
        "embed_positions.weight: 512 + padding_idx + 1 rows",
    )

    # Pegasus-X: computed in the dtype of inputs_embeds, so fp16 / bf16 tables are real.
    pgx = modeling_pegasus_x.PegasusXSinusoidalPositionalEmbedding(64)
    src_pgx = where(
        modeling_pegasus_x.PegasusXSinusoidalPositionalEmbedding.forward,
        "div_term = exp(arange(half).type_as(inputs_embeds) * -(log(10000)/(half-1))); all in"
        " inputs_embeds.dtype; pe[:, :half] = sin, pe[:, half:] = cos",
    )
    n = 4096
    for dt, name, fmt in (
        (torch.float32, "pegasus_x_fp32.npy", "npy"),
        (torch.float16, "pegasus_x_fp16.npy", "npy"),
        (torch.bfloat16, "pegasus_x_bf16.safetensors", "safetensors"),
    ):
        pe = pgx(torch.zeros(1, n, 64, dtype=dt))[0]
        dname = str(dt).replace("torch.", "")
        add(
            name,
            pe,
            fmt=fmt,
            key="pe" if fmt == "safetensors" else None,
            **lib,
            source=src_pgx,
            computed_in=dname,
            layout="concatenated",
            schedule="tensor2tensor",
            base=10000,
            padding="none",
            notes=f"PegasusXSinusoidalPositionalEmbedding(64)(inputs_embeds of dtype {dname},"
            f" {n} positions): exp, positions*div_term and sin/cos all run in {dname}"
            + (
                "; positions above 2048 are rounded to float16 in the product"
                if dt == torch.float16
                else "; positions above 256 are rounded to bfloat16 in the product"
                if dt == torch.bfloat16
                else ""
            ),
        )
    pp = torch.cat([torch.arange(k) for k in (300, 200, 12)])[:, None]
    add(
        "pegasus_x_packed.npy",
        pgx(torch.zeros(1, pp.shape[0], 64), position_ids=pp)[0],
        **lib,
        source=src_pgx,
        computed_in="float32",
        layout="concatenated",
        schedule="tensor2tensor",
        base=10000,
        packed_restarts=[300, 500],
        padding="none",
        notes="forward(inputs_embeds, position_ids=[0..299, 0..199, 0..11][:, None])",
    )

    # MusicGen: cos first.
    mg = modeling_musicgen.MusicgenSinusoidalPositionalEmbedding(1024, 64)
    add(
        "musicgen_table.npy",
        mg.weights,
        **lib,
        source=where(
            modeling_musicgen.MusicgenSinusoidalPositionalEmbedding.get_embedding,
            "torch.cat([torch.cos(emb), torch.sin(emb)], dim=1)",
        ),
        computed_in="float32",
        layout="concatenated_cos_first",
        schedule="tensor2tensor",
        base=10000,
        padding="none",
        notes="MusicgenSinusoidalPositionalEmbedding(1024, 64).weights",
    )

    # CTRL: positional_encoding(position, d_model_size, dtype) computes in `dtype`.
    src_ctrl = where(
        modeling_ctrl.positional_encoding,
        "angle_defn: pos * 1/torch.pow(10000, (2*(i//2))/d); sines of even i, cosines of odd i,"
        " torch.cat([sines, cosines]); all in `dtype`",
    )
    for dt, rows, name, fmt in (
        (torch.float32, 512, "ctrl_fp32.npy", "npy"),
        (torch.float64, 512, "ctrl_fp64.npy", "npy"),
        (torch.float16, 4096, "ctrl_fp16.npy", "npy"),
        (torch.bfloat16, 1024, "ctrl_bf16.safetensors", "safetensors"),
    ):
        dname = str(dt).replace("torch.", "")
        add(
            name,
            modeling_ctrl.positional_encoding(rows, 64, dt),
            fmt=fmt,
            key="pos_encoding" if fmt == "safetensors" else None,
            **lib,
            source=src_ctrl,
            computed_in=dname,
            layout="concatenated",
            schedule="paper",
            base=10000,
            padding="none",
            notes=f"positional_encoding({rows}, 64, torch.{dname}); CTRLModel calls it with"
            " torch.float" + ("" if dt != torch.float16 else "; positions > 2048 round in fp16"),
        )
    add(
        "ctrl_fp64_17g.csv",
        modeling_ctrl.positional_encoding(64, 32, torch.float64),
        fmt="csv",
        csv_fmt="%.17g",
        **lib,
        source=src_ctrl,
        computed_in="float64",
        layout="concatenated",
        schedule="paper",
        base=10000,
        padding="none",
        notes="positional_encoding(64, 32, torch.float64) written by np.savetxt(fmt='%.17g')",
    )

    # GPT-J: the sincos table its rotary embedding reads.
    add(
        "gptj_sincos.npy",
        modeling_gptj.create_sinusoidal_positions(2048, 64),
        **lib,
        source=where(
            modeling_gptj.create_sinusoidal_positions,
            "inv_freq = 1/(10000 ** (arange(0, dim, 2)/dim)); cat((sin, cos), dim=1)",
        ),
        computed_in="float32",
        layout="concatenated",
        schedule="paper",
        base=10000,
        padding="none",
        notes="create_sinusoidal_positions(2048, 64) (rotary_dim 64): a [sin | cos] table;"
        " GPTJ's apply_rotary_pos_emb repeat_interleaves each half, see real_rope/",
    )

    # wav2vec2-conformer relative positions: rows run from +(L-1) down to -(L-1).
    cfg = transformers.Wav2Vec2ConformerConfig(hidden_size=64, max_source_positions=300)
    rel = w2vc.Wav2Vec2ConformerRelPositionalEmbedding(cfg)
    add(
        "w2v2_conformer_relpos.npy",
        rel.pe[0],
        **lib,
        source=where(
            w2vc.Wav2Vec2ConformerRelPositionalEmbedding.extend_pe,
            "pe_positive[:, 0::2] = sin(position*div_term), [:, 1::2] = cos; pe_negative uses"
            " -position; pe = cat([flip(pe_positive), pe_negative[1:]])",
        ),
        computed_in="float32",
        layout="interleaved",
        schedule="paper",
        base=10000,
        position_of_row_0=cfg.max_source_positions - 1,
        position_step=-1,
        padding="none",
        notes="Wav2Vec2ConformerRelPositionalEmbedding(max_source_positions=300, hidden_size=64)"
        ".pe[0]: 599 rows, relative positions 299, 298, ..., 0, -1, ..., -299",
    )


# --------------------------------------------------------------------------- diffusers


def build_diffusers() -> None:
    import diffusers
    from diffusers.models import embeddings as emb_mod

    lib = dict(library="diffusers", version=diffusers.__version__)
    src_t = where(
        emb_mod.get_timestep_embedding,
        "exponent = -log(max_period)*arange(half, float32)/(half - downscale_freq_shift);"
        " emb = scale * t * exp(exponent); cat([sin, cos]); flip -> cat([cos, sin])",
    )

    def ts(name, t, dim, flip, shift, scale, max_period, step, notes, fmt="npy", csv_fmt=None):
        out = emb_mod.get_timestep_embedding(
            t,
            dim,
            flip_sin_to_cos=flip,
            downscale_freq_shift=shift,
            scale=scale,
            max_period=max_period,
        )
        add(
            name,
            out,
            fmt=fmt,
            csv_fmt=csv_fmt,
            **lib,
            source=src_t,
            computed_in="float32",
            layout="concatenated_cos_first" if flip else "concatenated",
            schedule=f"diffusers: angle = {scale} * t * exp(-ln({max_period}) * i /"
            f" (half_dim - {shift}))",
            base=max_period,
            downscale_freq_shift=shift,
            angle_scale=scale,
            position_step=step,
            padding="none",
            notes=notes,
        )

    t = torch.arange(1000)
    unet = emb_mod.Timesteps(256, flip_sin_to_cos=True, downscale_freq_shift=0)
    from diffusers.models.unets import unet_2d_condition as unet_mod

    u_src, u_start = inspect.getsourcelines(unet_mod.UNet2DConditionModel.__init__)
    flip_line = next(i for i, s in enumerate(u_src) if "flip_sin_to_cos: bool = True" in s)
    shift_line = next(i for i, s in enumerate(u_src) if "freq_shift: int = 0" in s)
    add(
        "diffusers_timesteps_unet.npy",
        unet(t),
        **lib,
        source=where(emb_mod.Timesteps.forward)
        + f"; {where(emb_mod.get_timestep_embedding)}; UNet2DConditionModel.__init__ defaults"
        f" flip_sin_to_cos=True (line {u_start + flip_line}), freq_shift=0"
        f" (line {u_start + shift_line})",
        computed_in="float32",
        layout="concatenated_cos_first",
        schedule="diffusers: angle = 1 * t * exp(-ln(10000) * i / (half_dim - 0))",
        base=10000,
        downscale_freq_shift=0,
        angle_scale=1,
        padding="none",
        notes="Timesteps(256, flip_sin_to_cos=True, downscale_freq_shift=0)(arange(1000)), the"
        " UNet2DConditionModel default; shift 0 is the paper schedule base^(-2i/d)",
    )
    ts(
        "diffusers_timestep_defaults.npy",
        t,
        128,
        False,
        1,
        1,
        10000,
        1,
        "get_timestep_embedding(arange(1000), 128) with its defaults (flip_sin_to_cos=False,"
        " downscale_freq_shift=1): the tensor2tensor schedule",
    )
    ts(
        "diffusers_timestep_scale1000.npy",
        torch.arange(500) / 1000,
        64,
        True,
        0,
        1000,
        10000,
        0.001,
        "get_timestep_embedding(arange(500)/1000, 64, flip_sin_to_cos=True,"
        " downscale_freq_shift=0, scale=1000): fractional t in [0, 0.5), angle multiplied by 1000"
        " after t*freq (as Flux-style callers with t in [0, 1])",
    )
    ts(
        "diffusers_timestep_maxperiod.npy",
        t[:512],
        96,
        False,
        0.5,
        1,
        1000,
        1,
        "get_timestep_embedding(arange(512), 96, downscale_freq_shift=0.5, max_period=1000)",
    )
    ts(
        "diffusers_timestep_g.csv",
        t[:200],
        32,
        True,
        0,
        1,
        10000,
        1,
        "Timesteps-style call get_timestep_embedding(arange(200), 32, True, 0) written by"
        " np.savetxt(fmt='%g') (6 significant digits)",
        fmt="csv",
        csv_fmt="%g",
    )

    src_1d = where(
        emb_mod.get_1d_sincos_pos_embed_from_grid,
        "omega = 1/10000**(arange(D/2)/(D/2)) in float64 (dtype=None on CPU); outer(pos, omega);"
        " cat([sin, cos])",
    )
    pos = torch.arange(512, dtype=torch.float64)
    add(
        "diffusers_1d_sincos_f64.npy",
        emb_mod.get_1d_sincos_pos_embed_from_grid(64, pos),
        **lib,
        source=src_1d,
        computed_in="float64",
        layout="concatenated",
        schedule="paper",
        base=10000,
        padding="none",
        notes="get_1d_sincos_pos_embed_from_grid(64, arange(512, float64)); this diffusers"
        " version computes in torch float64 (no NumPy variant left)",
    )
    add(
        "diffusers_1d_sincos_quarter.npy",
        emb_mod.get_1d_sincos_pos_embed_from_grid(64, pos / 4).float(),
        **lib,
        source=src_1d,
        computed_in="float64",
        layout="concatenated",
        schedule="paper",
        base=10000,
        position_step=0.25,
        padding="none",
        notes="get_1d_sincos_pos_embed_from_grid(64, arange(512, float64) / 4).float():"
        " fractional positions 0, 0.25, 0.5, ... stored as float32",
    )
    gs, bs, isc = 32, 16, 2
    pix = emb_mod.get_2d_sincos_pos_embed(64, gs, base_size=bs, interpolation_scale=isc).float()
    step = 1 / (gs / bs) / isc
    add(
        "diffusers_pixart_2d.npy",
        pix,
        **lib,
        source=where(
            emb_mod.get_2d_sincos_pos_embed,
            "grid = arange(n)/(n/base_size)/interpolation_scale; meshgrid(grid_w, grid_h,"
            " indexing='xy'): grid[0] is the w coordinate",
        )
        + "; "
        + where(
            emb_mod.get_2d_sincos_pos_embed_from_grid,
            "emb = cat([1d(D/2, grid[0]), 1d(D/2, grid[1])])",
        )
        + "; PatchEmbed stores pos_embed.float()",
        computed_in="float64",
        layout="2d",
        grid={
            "height": gs,
            "width": gs,
            "row": "h * width + w",
            "blocks": ["sin(w)", "cos(w)", "sin(h)", "cos(h)"],
            "block_width": 16,
            "frequency": "base^(-k/block_width), k = 0..block_width-1",
        },
        schedule="paper",
        base=10000,
        position_step=step,
        padding="none",
        notes=f"PixArt-style get_2d_sincos_pos_embed(64, {gs}, base_size={bs},"
        f" interpolation_scale={isc}).float(): coordinates k * {step} (fractional); within"
        " each D/2 half the 1-D layout is [sin | cos] over D/4 frequencies",
    )
    spe = emb_mod.SinusoidalPositionalEmbedding(64, max_seq_length=512)
    add(
        "diffusers_sinusoidal_module.npy",
        spe.pe[0],
        **lib,
        source=where(
            emb_mod.SinusoidalPositionalEmbedding.__init__,
            "div_term = exp(arange(0, D, 2) * (-log(10000)/D)); pe[:, 0::2] = sin, pe[:, 1::2] = cos",
        ),
        computed_in="float32",
        layout="interleaved",
        schedule="paper",
        base=10000,
        padding="none",
        notes="SinusoidalPositionalEmbedding(64, max_seq_length=512).pe[0]",
    )


# --------------------------------------------------------------------------- keras-hub


def build_keras() -> None:
    import keras
    import keras_hub
    from keras_hub.src.layers.modeling import sine_position_encoding as spe_mod

    lib = dict(library="keras-hub", version=keras_hub.__version__)
    src = where(
        spe_mod.SinePositionEncoding.call,
        "timescales = power(1/max_wavelength, 2*(arange(d)//2)/d) in compute_dtype; even"
        " columns sin, odd columns cos",
    )
    backend = keras.backend.backend()
    note = f"keras {keras.__version__}, backend {backend}"
    layer = keras_hub.layers.SinePositionEncoding()
    x = keras.ops.zeros((1, 1024, 64))
    add(
        "keras_hub_sine.npy",
        keras.ops.convert_to_numpy(layer(x))[0],
        **lib,
        source=src,
        computed_in="float32",
        layout="interleaved",
        schedule="paper",
        base=10000,
        padding="none",
        notes=f"SinePositionEncoding()(zeros((1, 1024, 64))); {note}; min_freq ="
        " float32(1/10000) is raised to 2i/d, so the effective base is 1/fl32(1e-4)",
    )
    layer16 = keras_hub.layers.SinePositionEncoding(dtype="float16")
    x16 = keras.ops.zeros((1, 4096, 32), dtype="float16")
    add(
        "keras_hub_sine_fp16.npy",
        keras.ops.convert_to_numpy(layer16(x16))[0],
        **lib,
        source=src,
        computed_in="float16",
        layout="interleaved",
        schedule="paper",
        base=10000,
        padding="none",
        notes=f"SinePositionEncoding(dtype='float16') on (1, 4096, 32); {note}; positions are"
        " cast to float16 (rounded above 2048) and every step runs in float16",
    )
    pos = np.concatenate([np.arange(k) for k in (128, 256, 64)]).astype("float32")
    add(
        "keras_hub_sine_packed.npy",
        keras.ops.convert_to_numpy(layer(keras.ops.zeros((1, 448, 64)), positions=pos))[0],
        **lib,
        source=src,
        computed_in="float32",
        layout="interleaved",
        schedule="paper",
        base=10000,
        packed_restarts=[128, 384],
        padding="none",
        notes=f"SinePositionEncoding()(x, positions=[0..127, 0..255, 0..63]); {note}",
    )


# --------------------------------------------------------------------------- timm


def build_timm() -> None:
    (P,) = load_namespace("timm.layers", "timm.layers.pos_embed_sincos")
    lib = dict(library="timm", version=VERSIONS["timm"])
    src = where(
        P.build_sincos2d_pos_embed,
        "bands = freq_bands(dim//4, step=1) = 1/temperature**(arange(dim//4)/(dim//4));"
        " stack([sin, cos], dim=1 or 2 if interleave_sin_cos).flatten(1)",
    )
    imp = "imported as timm.layers.pos_embed_sincos without running timm/__init__ (torchvision)"
    add(
        "timm_sincos_1d.npy",
        P.build_sincos2d_pos_embed([512], dim=128),
        **lib,
        source=src,
        computed_in="float32",
        layout="concatenated",
        schedule="paper",
        base=10000,
        padding="none",
        notes="build_sincos2d_pos_embed([512], dim=128): a 1-D grid gives a (512, 64) [sin | cos]"
        f" table with 32 frequencies 10000^(-k/32); {imp}",
    )
    add(
        "timm_sincos_2d_interleave_sin_cos.npy",
        P.build_sincos2d_pos_embed([12, 20], dim=64, interleave_sin_cos=True),
        **lib,
        source=src,
        computed_in="float32",
        layout="2d",
        grid={
            "height": 12,
            "width": 20,
            "row": "h * width + w",
            "blocks": ["sin(h)", "cos(h)", "sin(w)", "cos(w)"],
            "block_width": 16,
            "frequency": "base^(-k/block_width), k = 0..block_width-1",
        },
        schedule="paper",
        base=10000,
        padding="none",
        notes="build_sincos2d_pos_embed([12, 20], dim=64, interleave_sin_cos=True): the flag"
        " interleaves whole blocks per coordinate ([sin h | cos h | sin w | cos w]), not single"
        " columns, so on a 1-D grid it gives the same table as the default;"
        f" {imp}",
    )
    add(
        "timm_sincos_2d.npy",
        P.build_sincos2d_pos_embed([16, 24], dim=64),
        **lib,
        source=src,
        computed_in="float32",
        layout="2d",
        grid={
            "height": 16,
            "width": 24,
            "row": "h * width + w",
            "blocks": ["sin(h)", "sin(w)", "cos(h)", "cos(w)"],
            "block_width": 16,
            "frequency": "base^(-k/block_width), k = 0..block_width-1",
        },
        schedule="paper",
        base=10000,
        padding="none",
        notes=f"build_sincos2d_pos_embed([16, 24], dim=64) (feat_shape = [H, W]); {imp}",
    )


# --------------------------------------------------------------------------- speechbrain


def build_speechbrain() -> None:
    lib = dict(library="speechbrain", version=VERSIONS["speechbrain"])
    tr, tr_lines = exec_classes(
        "speechbrain/lobes/models/transformer/Transformer.py", ["PositionalEncoding"]
    )
    at, at_lines = exec_classes("speechbrain/nnet/attention.py", ["RelPosEncXL"])
    how = (
        "class text executed from the installed file (its package imports torchaudio, whose"
        " PyPI wheel is CUDA-linked)"
    )
    pe = tr["PositionalEncoding"](64, max_len=1000)
    add(
        "speechbrain_posenc.npy",
        pe.pe[0],
        **lib,
        source=tr_lines["PositionalEncoding"]
        + "; denominator = exp(arange(0, d, 2) * -(log(10000)/d)); pe[:, 0::2] = sin,"
        " pe[:, 1::2] = cos",
        computed_in="float32",
        layout="interleaved",
        schedule="paper",
        base=10000,
        padding="none",
        notes=f"PositionalEncoding(input_size=64, max_len=1000).pe[0]; {how}",
    )
    add(
        "speechbrain_posenc_17g.csv",
        pe.pe[0, :100, :32],
        fmt="csv",
        csv_fmt="%.17g",
        **lib,
        source=tr_lines["PositionalEncoding"],
        computed_in="float32",
        layout="interleaved",
        schedule="paper",
        base=10000,
        padding="none",
        columns_of_width=64,
        notes="first 100 rows and first 32 of 64 columns of speechbrain_posenc.npy, written by"
        " np.savetxt(fmt='%.17g'): the columns are the first 16 interleaved (sin, cos) pairs of"
        " the d=64 table (columns_of_width: the d the frequencies use)",
    )

    L = 300
    rel = at["RelPosEncXL"](64)
    src_rel = (
        at_lines["RelPosEncXL"]
        + "; make_pe: pe_past = flip(rows p = 0..L-1 of [sin(p w), cos(p w)]"
        " interleaved); pe_future[:, 0::2] = sinusoids (the same +p sines: 'same for past and"
        " future'), pe_future[:, 1::2] = cos(-p w); pe = cat([pe_past, pe_future[1:]])"
    )
    add(
        "speechbrain_relposxl.npy",
        rel.make_pe(L)[0],
        **lib,
        source=src_rel,
        computed_in="float32",
        layout="interleaved",
        schedule="paper",
        base=10000,
        position_of_row_0=L - 1,
        position_step=-1,
        position_transform="abs",
        padding="none",
        notes=f"RelPosEncXL(64).make_pe({L})[0]: rows 0..{L - 1} encode {L - 1}..0; rows"
        f" {L}..{2 * L - 2} encode +1..+{L - 1} again (sin not negated), i.e. row r encodes"
        f" |{L - 1} - r|, not the signed relative position; {how}",
    )
    rel16 = at["RelPosEncXL"](64).to(torch.float16)
    add(
        "speechbrain_relposxl_module_half.npy",
        rel16.make_pe(L)[0],
        **lib,
        source=src_rel + "; inv_freq is a buffer, so module.to(float16) rounds it",
        computed_in="float32",
        inv_freq_rounded_to="float16",
        layout="interleaved",
        schedule="paper",
        base=10000,
        position_of_row_0=L - 1,
        position_step=-1,
        position_transform="abs",
        padding="none",
        notes="RelPosEncXL(64).to(torch.float16).make_pe(300)[0]: the inv_freq buffer is rounded"
        " to float16, the product and sin/cos still run in float32 (tot_pe is float32) and"
        f" emb_dtype stays float32; {how}",
    )


# --------------------------------------------------------------------------- x-transformers


def build_x_transformers() -> None:
    import x_transformers.x_transformers as xt

    lib = dict(library="x-transformers", version=VERSIONS["x-transformers"])
    m = xt.ScaledSinusoidalEmbedding(64)
    add(
        "x_transformers_scaled_sin.npy",
        m(torch.zeros(1, 1024, 64)),
        **lib,
        source=where(
            xt.ScaledSinusoidalEmbedding,
            "scale = Parameter(ones(1) * dim**-0.5); inv_freq = theta ** -(arange(half)/half);"
            " cat((sin, cos)) * scale",
        ),
        computed_in="float32",
        layout="concatenated",
        schedule="paper",
        base=10000,
        scale=64**-0.5,
        padding="none",
        notes="ScaledSinusoidalEmbedding(64)(zeros(1, 1024, 64)) at its initial scale"
        " 64**-0.5 = 0.125 (a learned parameter)",
    )


# --------------------------------------------------------------------------- NeMo


def build_nemo() -> None:
    (mha,) = load_namespace(
        "nemo.collections.asr.parts.submodules",
        "nemo.collections.asr.parts.submodules.multi_head_attention",
    )
    lib = dict(library="nemo-toolkit", version=VERSIONS["nemo-toolkit"])
    how = (
        "installed with pip --no-deps; the module imported without running the nemo package"
        " __init__ files (they pull lightning, torchaudio, ...)"
    )
    src = where(
        mha.PositionalEncoding.create_pe,
        f"div_term = exp(arange(0, d, 2) * -(log(INF_VAL)/d)), INF_VAL = {mha.INF_VAL};"
        " pe[:, 0::2] = sin(positions * div_term), pe[:, 1::2] = cos",
    )
    pe = mha.PositionalEncoding(64, 0.0, max_len=1000)
    pe.extend_pe(1000, torch.device("cpu"), torch.float32)
    add(
        "nemo_posenc.npy",
        pe.pe[0],
        **lib,
        source=src + "; " + where(mha.PositionalEncoding.extend_pe),
        computed_in="float32",
        layout="interleaved",
        schedule="paper",
        base=mha.INF_VAL,
        padding="none",
        notes=f"PositionalEncoding(64, 0.0, max_len=1000).extend_pe(1000, cpu, float32); {how}",
    )
    rel = mha.RelPositionalEncoding(64, 0.0)
    rel.extend_pe(300, torch.device("cpu"), torch.float32)
    add(
        "nemo_relposenc.npy",
        rel.pe[0],
        **lib,
        source=src
        + "; "
        + where(
            mha.RelPositionalEncoding.extend_pe,
            "positions = arange(length - 1, -length, -1)",
        ),
        computed_in="float32",
        layout="interleaved",
        schedule="paper",
        base=mha.INF_VAL,
        position_of_row_0=299,
        position_step=-1,
        padding="none",
        notes=f"RelPositionalEncoding(64, 0.0).extend_pe(300, cpu, float32): 599 rows, relative"
        f" positions 299 down to -299 (signed, unlike speechbrain's RelPosEncXL); {how}",
    )


# --------------------------------------------------------------------------- fairseq


def build_fairseq() -> None:
    py = os.environ.get("FAIRSEQ_PYTHON", "/work/venvs/fairseq311/bin/python")
    if not Path(py).exists():
        raise SystemExit(f"fairseq venv python not found: {py} (set FAIRSEQ_PYTHON)")
    res = subprocess.run(
        [py, str(HERE / "make_real_tables_fairseq.py"), str(OUT)],
        check=True,
        capture_output=True,
        text=True,
    )
    ENTRIES.extend(entry(**e) for e in json.loads(res.stdout))


# --------------------------------------------------------------------------- large table


def large_entry() -> None:
    from transformers.models.marian import modeling_marian

    ENTRIES.append(
        entry(
            library="transformers",
            version=VERSIONS["transformers"],
            source=where(modeling_marian.MarianSinusoidalPositionalEmbedding.create_weight),
            file=None,
            shape=[100000, 1536],
            stored_dtype="float32",
            computed_in="float64",
            layout="concatenated",
            schedule="paper",
            base=10000,
            padding="none",
            regenerate="KERAS_BACKEND=torch /work/venvs/reallibs/bin/python"
            " tests/data/make_real_tables.py --large DIR  (writes DIR/marian_100000x1536.npy,"
            " 614 MB; not committed)",
            notes="MarianSinusoidalPositionalEmbedding(100000, 1536) weight after create_weight;"
            " too big to commit",
        )
    )


def write_large(outdir: Path) -> None:
    from transformers.models.marian import modeling_marian

    m = modeling_marian.MarianSinusoidalPositionalEmbedding(100000, 1536)
    with torch.no_grad():
        m.weight.copy_(m.create_weight())
    outdir.mkdir(parents=True, exist_ok=True)
    np.save(outdir / "marian_100000x1536.npy", m.weight.detach().numpy())


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--large":
        write_large(Path(sys.argv[2]))
        return
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.iterdir():
        old.unlink()
    with torch.no_grad():
        build_transformers()
        build_diffusers()
        build_keras()
        build_timm()
        build_speechbrain()
        build_x_transformers()
        build_nemo()
        build_fairseq()
        large_entry()
    ENTRIES.sort(key=lambda e: (e["file"] is None, e["file"] or ""))
    doc = {
        "description": textwrap.dedent(
            """\
            Sinusoidal positional tables made by real libraries' code (make_real_tables.py).
            Row r of a table encodes position p(r) = position_of_row_0 + position_step * r,
            restarting at position_of_row_0 at each row listed in packed_restarts;
            position_transform 'abs' means the row encodes |p(r)|. Column pairs: 'interleaved'
            puts (sin, cos) of frequency i at columns (2i, 2i+1); 'concatenated' puts sin at i
            and cos at d/2 + i; 'concatenated_cos_first' puts cos at i and sin at d/2 + i.
            Frequencies: 'paper' w_i = base^(-2i/d), 'tensor2tensor' w_i = base^(-i/(d/2-1)),
            'diffusers: ...' as written (downscale_freq_shift and angle_scale given). Every
            value is multiplied by scale. zero_rows are all zero. layout '2d' is described by
            the grid field. inv_freq_rounded_to names a dtype the frequencies were rounded to
            before use."""
        ),
        "versions": VERSIONS | {"fairseq": "0.12.2"},
        "entries": ENTRIES,
    }
    (OUT / "truth.json").write_text(json.dumps(doc, indent=1, sort_keys=False) + "\n")


if __name__ == "__main__":
    main()
