"""Check every truth entry of real_rope_nd/ against its cache, rebuilt in float64 NumPy from the
truth's fields alone (grid, columns per axis, frequencies, first positions, mrope_section and
its layout, xPos's ζ_i, γ and centre).

Needs only numpy and safetensors' NumPy API; imports no library that made the data. The caches
were computed in float32, so a value may be off by 8·2^-24·(|angle| + 1)·amplitude + 2^-24.
Exit status 1 if any cache is off, 0 if all agree.

Usage: ``python tests/data/check_truth_nd.py``
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
from safetensors.numpy import load_file

HERE = Path(__file__).resolve().parent / "real_rope_nd"
U32 = 2.0**-24


def _pair_of_column(layout: str, width: int) -> np.ndarray:
    """The pair each cache column holds."""
    j = np.arange(width)
    if layout == "freqs":
        return j
    if layout == "repeat_interleave":
        return j // 2
    return j % (width // 2)


def axial_angles(e: dict, rows: int, width: int) -> np.ndarray:
    """Each column's angle: x·θ or y·θ, the axis's k-th pair getting axis_frequencies[k]."""
    grid_width = e["grid"][1]
    r = np.arange(rows)
    x = (r % grid_width + e["origin"]["x"]).astype(float)
    y = (r // grid_width + e["origin"]["y"]).astype(float)
    pair = _pair_of_column(e["layout"], width)
    angles = np.zeros((rows, width))
    for name, pos in (("x", x), ("y", y)):
        axis_pairs = sorted({int(pair[c]) for c in e[f"{name}_columns"]})
        for c in e[f"{name}_columns"]:
            k = axis_pairs.index(int(pair[c]))
            angles[:, c] = pos * e["axis_frequencies"][k]
    for row in e["identity_rows"]:
        angles[row] = 0.0
    return angles


def mrope_angles(e: dict, rows: int, width: int) -> np.ndarray:
    """Text rows at t = h = w = row, then the image grid at t = text, h and w from text."""
    text = e["text_tokens"]
    grid_width = e["image_grid"][2]
    r = np.arange(rows)
    inside = np.maximum(r - text, 0)
    pos = np.stack(
        [
            np.where(r < text, r, text),
            np.where(r < text, r, text + inside // grid_width),
            np.where(r < text, r, text + inside % grid_width),
        ],
        axis=1,
    ).astype(float)
    s_t, s_h, s_w = e["mrope_section"]
    pairs = s_t + s_h + s_w
    if e["section_layout"] == "chunked":
        axes = np.repeat(np.arange(3), [s_t, s_h, s_w])
    else:
        i = np.arange(pairs)
        axes = np.zeros(pairs, dtype=int)
        axes[(i % 3 == 1) & (i < 3 * s_h)] = 1
        axes[(i % 3 == 2) & (i < 3 * s_w)] = 2
    theta = e["base"] ** (-2 * np.arange(pairs) / e["head_dim"])
    pair = _pair_of_column(e["layout"], width)
    return pos[:, axes[pair]] * theta[pair]


def xpos_values(e: dict, rows: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Angles t·θ_i and the scale ζ_i^((t − centre)/γ) per column."""
    t = np.arange(rows, dtype=float)[:, None]
    pair = _pair_of_column(e["layout"], width)
    theta = e["base"] ** (-2 * np.arange(e["head_dim"] // 2) / e["head_dim"])
    zeta = np.asarray(e["zeta"])
    return t * theta[pair], zeta[pair] ** ((t - e["center"]) / e["xpos_scale_base"])


def check(e: dict) -> bool:
    data = load_file(str(HERE / e["file"]))
    cos, sin = data["cos"].astype(float), data["sin"].astype(float)
    rows, width = cos.shape
    amp = np.ones_like(cos)
    if e["kind"] == "axial":
        angles = axial_angles(e, rows, width)
    elif e["kind"] == "mrope":
        angles = mrope_angles(e, rows, width)
    else:
        angles, amp = xpos_values(e, rows, width)
    allowed = 8 * U32 * (np.abs(angles) + 1) * amp + U32
    off = np.maximum(np.abs(cos - amp * np.cos(angles)), np.abs(sin - amp * np.sin(angles)))
    ok = bool(np.all(off <= allowed))
    print(
        f"{'ok ' if ok else 'OFF'} {e['name']}: worst {float(np.max(off / allowed)):.3f} of allowed"
    )
    return ok


def main() -> int:
    entries = json.loads((HERE / "truth.json").read_text())["entries"]
    return 0 if all([check(e) for e in entries]) else 1


if __name__ == "__main__":
    sys.exit(main())
