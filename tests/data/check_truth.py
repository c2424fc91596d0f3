"""Check every truth entry against its artifact, recomputing the values in float64 NumPy.

Needs only numpy (and safetensors' NumPy API for ``.safetensors``); imports no library that
made the data. For each artifact it rebuilds the table (real_tables/) or the cos/sin cache
(real_rope/) from the truth's fields alone, then compares. Every ``truth*.json`` of a folder is
read (``truth.json``, ``truth_round2.json``, ...), real_rope_nd/ is checked by
check_truth_nd.py's rules, and a file of a folder that no truth entry names is an error: every
committed artifact is checked.

The allowed error of one value is the error the truth's computation dtype can make:
``8 * u * (|angle| + 1) + u_stored`` for an angle ``angle``, with ``u`` the unit roundoff of
``computed_in`` (2^-53, 2^-24, 2^-11, 2^-8 for float64, float32, float16, bfloat16) and
``u_stored`` that of the stored dtype (or the CSV's printed digits). Values whose allowed error
exceeds 0.05 (a large angle in half precision) say nothing about the truth and are not compared;
the count compared is printed. Exit status 1 if any artifact is off, 0 if all agree.

Usage: ``python tests/data/check_truth.py [real_tables|real_rope|real_rope_nd ...]``
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
UNIT = {"float64": 2.0**-53, "float32": 2.0**-24, "float16": 2.0**-11, "bfloat16": 2.0**-8}
MEANINGFUL = 0.05


def stored_unit(dtype: str) -> float:
    if " as text " in dtype:
        source, fmt = dtype.split(" as text ")
        digits = {"%g": 6, "%.9g": 9, "%.17g": 17}[fmt]
        return UNIT[source] + 10.0 ** (1 - digits)
    return UNIT[dtype]


def load(folder: Path, e: dict) -> np.ndarray:
    path = folder / e["file"]
    if path.suffix == ".csv":
        return np.loadtxt(path, delimiter=",", ndmin=2)
    if path.suffix == ".safetensors":
        from safetensors.numpy import load_file

        try:
            return load_file(str(path))[e["key"]].astype(np.float64)
        except (TypeError, ValueError):
            return bf16_safetensors(path, e["key"])
    return np.load(path, allow_pickle=False).astype(np.float64)


def bf16_safetensors(path: Path, key: str) -> np.ndarray:
    """Read one bfloat16 tensor from a safetensors file (NumPy has no bfloat16)."""
    raw = path.read_bytes()
    n = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8 : 8 + n])
    info = header[key]
    if info["dtype"] != "BF16":
        raise ValueError(f"{path.name}:{key} has dtype {info['dtype']}")
    a, b = info["data_offsets"]
    bits = np.frombuffer(raw[8 + n + a : 8 + n + b], dtype="<u2").astype(np.uint32) << 16
    return bits.view(np.float32).astype(np.float64).reshape(info["shape"])


def round_to(x: np.ndarray, dtype: str) -> np.ndarray:
    """Round float64 values to ``dtype`` (round to nearest even) and back to float64."""
    if dtype == "float64":
        return x
    if dtype == "float32":
        return x.astype(np.float32).astype(np.float64)
    if dtype == "float16":
        return x.astype(np.float16).astype(np.float64)
    if dtype == "bfloat16":
        f = x.astype(np.float32)
        bits = f.view(np.uint32).astype(np.uint64)
        bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
        return bits.astype(np.uint32).view(np.float32).astype(np.float64)
    raise ValueError(dtype)


# ----------------------------------------------------------------------------- tables


def table_frequencies(e: dict, d: int) -> np.ndarray:
    n = d // 2
    i = np.arange(n, dtype=np.float64)
    base = float(e["base"])
    sched = e["schedule"]
    if sched == "paper":
        w = base ** (-2.0 * i / d)
    elif sched == "tensor2tensor":
        w = np.exp(-math.log(base) * i / (n - 1))
    elif sched.startswith("diffusers"):
        w = np.exp(-math.log(base) * i / (n - e["downscale_freq_shift"]))
        w = w * e["angle_scale"]
    else:
        raise ValueError(f"unknown schedule {sched!r}")
    if e.get("inv_freq_rounded_to"):
        w = round_to(w, e["inv_freq_rounded_to"])
    return w


def row_positions(e: dict, rows: int) -> np.ndarray:
    r = np.arange(rows, dtype=np.float64)
    starts = [0, *list(e.get("packed_restarts") or [])]
    k = np.zeros(rows)
    for s in starts:
        k[int(s) :] = r[int(s) :] - s
    p = e["position_of_row_0"] + e["position_step"] * k
    if e.get("position_transform") == "abs":
        p = np.abs(p)
    return p


def lay_out(layout: str, s: np.ndarray, c: np.ndarray) -> np.ndarray:
    if layout == "interleaved":
        out = np.empty((s.shape[0], 2 * s.shape[1]))
        out[:, 0::2], out[:, 1::2] = s, c
        return out
    if layout == "concatenated":
        return np.concatenate([s, c], axis=1)
    if layout == "concatenated_cos_first":
        return np.concatenate([c, s], axis=1)
    raise ValueError(layout)


def expected_table(e: dict, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Return (values, |angle|) for a table of ``shape`` from the truth entry alone."""
    rows, cols = shape
    if e["layout"] == "2d":
        g = e["grid"]
        bw = g["block_width"]
        k = np.arange(bw, dtype=np.float64)
        w = float(e["base"]) ** (-k / bw)
        r = np.arange(rows)
        coord = {
            "h": (r // g["width"]) * e["position_step"],
            "w": (r % g["width"]) * e["position_step"],
        }
        vals, angs = [], []
        for block in g["blocks"]:
            fn, axis = block[:3], block[4]
            a = np.outer(coord[axis], w)
            vals.append(np.sin(a) if fn == "sin" else np.cos(a))
            angs.append(np.abs(a))
        return np.concatenate(vals, 1) * e["scale"], np.concatenate(angs, 1)
    if e["schedule"] == "custom":  # the truth lists each row's position and each frequency
        a = np.outer(e["positions"], e["frequencies_per_unit"])
        vals = lay_out(e["layout"], np.sin(a), np.cos(a)) * e["scale"]
        return vals + e.get("constant_added", 0.0), lay_out(e["layout"], np.abs(a), np.abs(a))
    d = e.get("columns_of_width") or cols
    w = table_frequencies(e, d)
    p = row_positions(e, rows)
    a = np.outer(p, w)
    vals = lay_out(e["layout"], np.sin(a), np.cos(a)) * e["scale"] + e.get("constant_added", 0.0)
    angs = lay_out(e["layout"], np.abs(a), np.abs(a))
    if d % 2:
        vals = np.concatenate([vals, np.zeros((rows, 1))], 1)
        angs = np.concatenate([angs, np.zeros((rows, 1))], 1)
    vals, angs = vals[:, :cols], angs[:, :cols]
    for z in e.get("zero_rows") or []:
        vals[z] = 0.0
        angs[z] = 0.0
    return vals, angs


def check_tables(folder: Path, truth_file: str) -> bool:
    truth = json.loads((folder / truth_file).read_text())
    ok = True
    print(f"{folder.name}/{truth_file}: {len(truth['entries'])} entries")
    for e in truth["entries"]:
        if e["file"] is None:
            print(f"  {'(not committed) ' + str(e['shape']):45s} regenerate: see truth")
            continue
        got = load(folder, e)
        if got.ndim == 3:
            got = got[0]
        want, ang = expected_table(e, got.shape)
        u = UNIT[e["computed_in"]]
        big = max(1.0, abs(e["scale"]) + abs(e.get("constant_added", 0.0)))
        bound = 8 * u * (ang + 1) * big + stored_unit(e["stored_dtype"]) * big
        mask = bound <= MEANINGFUL
        diff = np.abs(got - want)
        bad = (diff > bound) & mask
        ok_e = not bad.any() and list(got.shape) == list(e["shape"])
        ok &= ok_e
        worst = float(diff[mask].max()) if mask.any() else float("nan")
        ratio = float((diff[mask] / bound[mask]).max()) if mask.any() else float("nan")
        print(
            f"  {e['file']:40s} max|diff| {worst:.3e}  worst diff/allowed {ratio:6.3f}"
            f"  compared {int(mask.sum())}/{mask.size}  {'ok' if ok_e else 'OFF'}"
        )
    return ok


# ----------------------------------------------------------------------------- rope


def rope_inv_freq(e: dict) -> np.ndarray:
    """The inverse frequencies the truth's scaling describes, in float64."""
    rd = e["rotary_dim"]
    base = float(e["base"])
    i = np.arange(0, rd, 2, dtype=np.float64)
    theta = base ** (-i / rd)
    sc = e["scaling"]
    t = sc["type"]
    if t == "none":
        return theta
    if t == "linear":
        return theta / sc["factor"]
    if t == "dynamic":
        s, L, n = sc["factor"], sc["original_max_position_embeddings"], sc["seq_len"]
        b2 = base * (s * max(n, L) / L - (s - 1)) ** (rd / (rd - 2))
        return b2 ** (-i / rd)
    if t == "yarn":
        s, L = sc["factor"], sc["original_max_position_embeddings"]
        bf, bs = sc.get("beta_fast") or 32, sc.get("beta_slow") or 1

        def corr(n_rot):
            return rd * math.log(L / (n_rot * 2 * math.pi)) / (2 * math.log(base))

        lo, hi = corr(bf), corr(bs)
        if sc.get("truncate", True):
            lo, hi = math.floor(lo), math.ceil(hi)
        lo, hi = max(lo, 0), min(hi, rd - 1)
        if lo == hi:
            hi += 0.001
        ramp = np.clip((np.arange(rd // 2) - lo) / (hi - lo), 0, 1)
        return theta / s * ramp + theta * (1 - ramp)
    if t == "llama3":
        s, L = sc["factor"], sc["original_max_position_embeddings"]
        lo, hi = sc["low_freq_factor"], sc["high_freq_factor"]
        lam = 2 * math.pi / theta
        out = np.where(lam > L / lo, theta / s, theta)
        smooth = (L / lam - lo) / (hi - lo)
        mid = ~(lam < L / hi) & ~(lam > L / lo)
        return np.where(mid, (1 - smooth) * theta / s + smooth * theta, out)
    if t == "longrope":
        which = sc["factors_used"]
        return theta / np.asarray(sc[which], dtype=np.float64)
    if t == "custom" and sc.get("frequency_order") == "repeat_interleave":
        # GPT-J's θ0, θ0, θ1, θ1, ... (its repeat_interleave order) given to rotate_half pairs
        return theta[np.arange(len(theta)) // 2]
    raise ValueError(f"unknown scaling {t!r}")


def expected_cache(e: dict, positions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(cos, sin, |angle|) with the columns laid out as the artifact's cache_layout; the
    identity (cos 1, sin 0, head_dim // 2 columns in freqs) for a NoPE layer's."""
    if e["scaling"]["type"] == "identity":
        width = e["head_dim"] // 2 if e["cache_layout"] == "freqs" else e["head_dim"]
        zero = np.zeros((len(positions), width))
        return zero + 1.0, zero, zero
    w = rope_inv_freq(e)
    if e.get("inv_freq_rounded_to"):
        w = round_to(w, e["inv_freq_rounded_to"])
    p = positions.astype(np.float64) + (e.get("position_offset") or 0)
    if e.get("positions_rounded_to"):
        p = round_to(p, e["positions_rounded_to"])
    a = np.outer(p, w)
    m = e["attention_factor"]
    lay = e["cache_layout"]
    if lay == "cat(freqs,freqs)":
        a = np.concatenate([a, a], 1)
    elif lay == "repeat_interleave":
        a = np.repeat(a, 2, axis=1)
    elif lay != "freqs":
        raise ValueError(lay)
    return m * np.cos(a), m * np.sin(a), np.abs(a)


def load_safetensors(path: Path) -> dict[str, np.ndarray]:
    from safetensors.numpy import load_file

    return load_file(str(path))


def as_built(e: dict) -> dict:
    """The entry with its as_built overrides applied: what the file really holds."""
    out = dict(e)
    for k, v in (e.get("as_built") or {}).items():
        out[k] = {**e[k], **v} if isinstance(v, dict) and isinstance(e.get(k), dict) else v
    return out


def load_cache(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """(cos, sin, positions, the stored dtype of cos) of a cache, bfloat16 read bit by bit."""
    try:
        z = load_safetensors(path)
        return (
            z["cos"].astype(np.float64),
            z["sin"].astype(np.float64),
            z["positions"],
            str(z["cos"].dtype),
        )
    except (TypeError, ValueError):
        raw = path.read_bytes()
        header = json.loads(raw[8 : 8 + int.from_bytes(raw[:8], "little")])
        positions = load_safetensors_key(path, header, "positions")
        stored = {"BF16": "bfloat16"}.get(header["cos"]["dtype"], header["cos"]["dtype"])
        return bf16_safetensors(path, "cos"), bf16_safetensors(path, "sin"), positions, stored


def load_safetensors_key(path: Path, header: dict, key: str) -> np.ndarray:
    """One integer or float tensor (not bfloat16) of a safetensors file, by its header."""
    kinds = {"I64": "<i8", "I32": "<i4", "F32": "<f4", "F64": "<f8", "F16": "<f2"}
    info = header[key]
    raw = path.read_bytes()
    start = 8 + int.from_bytes(raw[:8], "little")
    a, b = info["data_offsets"]
    return np.frombuffer(raw[start + a : start + b], dtype=kinds[info["dtype"]]).reshape(
        info["shape"]
    )


def with_pass_through(e: dict, wc: np.ndarray, ws: np.ndarray, ang: np.ndarray) -> tuple:
    """The cache as wide as the head when the truth's head_dim exceeds its rotary_dim and the
    file holds every component: the components past rotary_dim pass through (cos 1, sin 0)."""
    extra = e["head_dim"] - e["rotary_dim"]
    rows = wc.shape[0]
    return (
        np.hstack([wc, np.ones((rows, extra))]),
        np.hstack([ws, np.zeros((rows, extra))]),
        np.hstack([ang, np.zeros((rows, extra))]),
    )


def check_rope(folder: Path, truth_file: str) -> bool:
    truth = json.loads((folder / truth_file).read_text())
    ok = True
    print(f"{folder.name}/{truth_file}: {len(truth['entries'])} entries")
    for e in truth["entries"]:
        if e.get("kind") == "weights":
            ok &= check_weights(folder, e)
            continue
        cos, sin, pos, dtype = load_cache(folder / e["file"])
        built = as_built(e)
        wc, ws, ang = expected_cache(built, pos)
        if cos.shape[1] == e["head_dim"] > ang.shape[1]:
            wc, ws, ang = with_pass_through(e, wc, ws, ang)
        if cos.shape != wc.shape:
            print(f"  {e['file']:40s} shape {cos.shape}, the truth's {wc.shape}  OFF")
            ok = False
            continue
        rel_inv = 0.0
        if e["inv_freq"] is not None:  # the library's own, when it has one list
            inv = np.asarray(e["inv_freq"])
            rel_inv = float(np.max(np.abs(rope_inv_freq(built) - inv) / inv))
        u = UNIT[built["computed_in"]]
        m = abs(built["attention_factor"])
        bound = 8 * u * (ang + 1) * max(1.0, m) + UNIT[e["stored_dtype"]] * max(1.0, m)
        mask = bound <= MEANINGFUL
        d = np.maximum(np.abs(cos - wc), np.abs(sin - ws))
        bad = (d > bound) & mask
        ok_e = not bad.any() and rel_inv < 64 * UNIT["float32"]
        ok_e &= dtype == e["stored_dtype"]
        if "layer" in e:  # a layer's cache: RoPE where no_rope_layers[layer] is 1, else identity
            uses = bool(e["no_rope_layers"][e["layer"]])
            ok_e &= uses == e["use_rope"] == (e["scaling"]["type"] != "identity")
        extra = ""
        if e["bug"]:
            ic, is_, _ = expected_cache(e, pos)
            gap = float(np.max(np.maximum(np.abs(cos - ic), np.abs(sin - is_))))
            extra = f"  bug {e['bug']}: max|cache - intended| {gap:.3e}"
            if e["bug"] == "fp16_cache" and not e.get("as_built"):
                # the values are right to float16 rounding: the bug is the stored dtype
                ok_e &= e["stored_dtype"] == "float16" and dtype == "float16"
            else:
                ok_e &= gap > 4 * float(bound[mask].min())
        ok &= ok_e
        print(
            f"  {e['file']:40s} max|diff| {float(d[mask].max()):.3e}"
            f"  worst diff/allowed {float((d[mask] / bound[mask]).max()):6.3f}"
            f"  inv_freq rel {rel_inv:.1e}  compared {int(mask.sum())}/{mask.size}"
            f"  {'ok' if ok_e else 'OFF'}{extra}"
        )
    return ok


def permute(w: np.ndarray, n_heads: int) -> np.ndarray:
    """Meta -> HF row order (the convert script's permute), written with NumPy reshapes."""
    dim1, dim2 = w.shape
    return (
        w.reshape(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(0, 2, 1, 3).reshape(dim1, dim2)
    )


def check_weights(folder: Path, e: dict) -> bool:
    z = load_safetensors(folder / e["file"])
    h, kv = e["n_heads"], e["n_kv_heads"]
    checks = {
        "wq_hf == permute(wq_meta, n_heads)": np.array_equal(z["wq_hf"], permute(z["wq_meta"], h)),
        "wk_hf == permute(wk_meta, n_kv_heads)": np.array_equal(
            z["wk_hf"], permute(z["wk_meta"], kv)
        ),
        "wk_hf_wrong == permute(wk_meta, n_heads)": np.array_equal(
            z["wk_hf_wrong"], permute(z["wk_meta"], h)
        ),
        "wk_hf_wrong != wk_hf": not np.array_equal(z["wk_hf_wrong"], z["wk_hf"]),
    }
    ok = all(checks.values())
    print(
        f"  {e['file']:38s} {'; '.join(k for k, v in checks.items() if v)}  {'ok' if ok else 'OFF'}"
    )
    return ok


def truth_files(folder: Path) -> list[str]:
    """The folder's truth files: truth.json first, then truth_*.json."""
    return sorted(
        (p.name for p in folder.glob("truth*.json")), key=lambda n: (n != "truth.json", n)
    )


def named_files(folder: Path) -> set[str]:
    """Every file the folder's truth entries name (artifacts and the configs beside them)."""
    names = set()
    for truth in truth_files(folder):
        for e in json.loads((folder / truth).read_text())["entries"]:
            names.update(e.get(k) for k in ("file", "config_file"))
    return names - {None}


def unnamed(folder: Path) -> list[str]:
    """The folder's files that are neither a truth file nor named by a truth entry."""
    known = named_files(folder) | set(truth_files(folder))
    return sorted(p.name for p in folder.iterdir() if p.is_file() and p.name not in known)


def check_nd(folder: Path) -> bool:
    """real_rope_nd/, by check_truth_nd.py's rebuilding of each grid, M-RoPE and xPos cache."""
    sys.path.insert(0, str(HERE))
    import check_truth_nd

    entries = json.loads((folder / "truth.json").read_text())["entries"]
    print(f"{folder.name}/truth.json: {len(entries)} entries")
    return all([check_truth_nd.check(e) for e in entries])


def main(argv: list[str]) -> int:
    names = argv or ["real_tables", "real_rope", "real_rope_nd"]
    ok = True
    for name in names:
        folder = HERE / name
        if not (folder / "truth.json").exists():
            print(f"{name}: no truth.json", file=sys.stderr)
            return 2
        if name == "real_rope_nd":
            ok &= check_nd(folder)
        for truth in truth_files(folder) if name != "real_rope_nd" else []:
            ok &= (
                check_tables(folder, truth) if name == "real_tables" else check_rope(folder, truth)
            )
        stray = unnamed(folder)
        if stray:
            print(f"{name}: no truth entry names {', '.join(stray)}")
            ok = False
    print("all artifacts agree with their truth" if ok else "SOME ARTIFACTS DISAGREE")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
