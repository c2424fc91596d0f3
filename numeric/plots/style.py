"""What every notes figure shares: a small matplotlib style and reproducible saving."""

from __future__ import annotations

import os

# Dates and the tool version would make two runs differ; the SVG hash salt fixes element ids.
METADATA = {
    ".pdf": {"CreationDate": None, "ModDate": None, "Producer": None, "Creator": None},
    ".svg": {"Date": None, "Creator": None},
    ".png": {"Software": None},
}
STYLE = {
    "font.size": 9,
    "axes.titlesize": 9,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "svg.hashsalt": "pe-proofs",
    "svg.fonttype": "path",
    "pdf.fonttype": 42,
}


def save(figure: object, path: str | os.PathLike[str]) -> None:
    """Save figure to path (format from its suffix) with the metadata that varies removed."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    figure.savefig(path, metadata=METADATA.get(suffix, {}), dpi=150)
