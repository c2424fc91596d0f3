"""The audit of an xPos cache: the rotation audited with the scale divided out, and what the
scale is (numeric.rope_audit.xpos) said first."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from numeric.audit.precision import rounding_bound
from numeric.rope_audit.columns import Columns
from numeric.rope_audit.result import RopeAudit
from numeric.rope_audit.source import CacheSource
from numeric.rope_audit.xpos import read_xpos, xpos_findings

# Caches up to this many rows are read whole.
MAX_XPOS_ROWS = 1 << 17


def xpos_audit(
    source: CacheSource,
    columns: Columns,
    precision: str,
    audit: Callable[..., RopeAudit],
    config: object,
    layer_type: str | None,
    convention: str | None,
) -> RopeAudit | None:
    """The audit of source as an xPos cache, or None when it is not one. audit: the 1-D audit
    (audit_rope), run on the cache with each entry divided by its pair's amplitude."""
    if source.cos is None or source.sin is None or columns.pairs < 2:
        return None
    if source.rows > MAX_XPOS_ROWS:
        return None
    cos, sin = source.take(np.arange(source.rows))
    first = columns.first
    tol = max(64 * rounding_bound(precision, 1.0), 1e-12)
    reading = read_xpos(cos[:, first], sin[:, first], source.positions, tol)
    if reading is None:
        return None
    amp = np.hypot(cos, sin)
    rotation = audit(
        cos / amp,
        sin / amp,
        positions=source.positions,
        config=config,
        layer_type=layer_type,
        convention=convention,
        what=source.what,
    )
    scaling = {
        **rotation.scaling,
        "xpos": {
            "centre": reading.centre,
            "scale_base": reading.gamma,
            "zeta": "(2i + 0.4·d)/(1.4·d)" if reading.gamma_spread < 1e-3 else "other",
            "slopes": list(reading.slope),
        },
    }
    said = xpos_findings(reading, source.positions)
    return dataclasses.replace(
        rotation,
        shape=(source.rows, source.width),
        scaling=scaling,
        # The rotation was audited in float64 (the scale divided out); the cache's own format:
        precision={**rotation.precision, "stored": precision},
        findings=(*said, *rotation.findings),
    )
