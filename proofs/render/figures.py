"""Figures for the notes: a theorem's figure function called, and its PNG made reproducible.

A theorem whose `figure` names a function ("package.module.function") gets a PNG, written by
calling that function as f(path, **theorem.twin_kwargs). The PNG is made reproducible (fixed
dpi; text and time chunks, which carry the matplotlib version, dropped), so reruns are
byte-identical. Without matplotlib the notes still build and say the figure was skipped.
"""

from __future__ import annotations

import importlib
import importlib.util
import struct
import tempfile
from collections.abc import Callable
from pathlib import Path


def figure_function(theorem: object) -> Callable[..., object] | None:
    """The theorem's figure function, if it names one."""
    dotted = getattr(theorem, "figure", "") or ""
    if not dotted:
        return None
    module, _, attr = dotted.rpartition(".")
    return getattr(importlib.import_module(module), attr)


# Figures are drawn at this resolution whatever the user's matplotlibrc says.
FIGURE_DPI = 100
SKIPPED = "matplotlib is not installed (pip install 'pe-proofs[plot]')"
# PNG chunks that vary between machines or runs without changing the picture.
_VARYING_CHUNKS = {b"tEXt", b"zTXt", b"iTXt", b"tIME"}


def plotting_available() -> bool:
    """Whether matplotlib can be imported (checked without importing it)."""
    return importlib.util.find_spec("matplotlib") is not None


def reproducible_png(png: bytes) -> bytes:
    """png without its text and time chunks (Software, dates): the same picture, same bytes."""
    signature = b"\x89PNG\r\n\x1a\n"
    if not png.startswith(signature):
        raise ValueError("a figure function must write a PNG file")
    out = [signature]
    j = len(signature)
    while j < len(png):
        (length,) = struct.unpack(">I", png[j : j + 4])
        end = j + 12 + length
        if png[j + 4 : j + 8] not in _VARYING_CHUNKS:
            out.append(png[j:end])
        j = end
    return b"".join(out)


def render_figure(theorem: object) -> bytes | None:
    """The theorem's figure as reproducible PNG bytes, or None when it has no figure function.

    Call only when plotting_available(); the figure function imports matplotlib.
    """
    draw = figure_function(theorem)
    if draw is None:
        return None
    from matplotlib import rc_context  # only here: the notes build without matplotlib

    with (
        tempfile.TemporaryDirectory() as tmp,
        rc_context({"savefig.dpi": FIGURE_DPI, "figure.dpi": FIGURE_DPI}),
    ):
        path = Path(tmp) / "figure.png"
        draw(path, **getattr(theorem, "twin_kwargs", {}))
        return reproducible_png(path.read_bytes())
