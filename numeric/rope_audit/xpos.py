"""xPos caches (rotary-embedding-torch's `use_xpos`): cos and sin times ζ_i^((p − c)/γ).

An xPos query cache is a RoPE cache whose pair i is scaled by ζ_i^((p − c)/γ) at position p
(keys get the inverse), so its amplitude is not 1 and changes along the positions. read_xpos
recognises it: log of each pair's amplitude is linear in p, zero at one centre c for every
pair; its slope is ln(ζ_i)/γ. rotary-embedding-torch takes ζ_i = (2i + 0.4·d)/(1.4·d), γ = 512
and c = L//2; the γ each pair implies with those ζ_i says whether the cache is theirs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numeric.rope.xpos import xpos_zeta

# float16's largest value: a key scale above it is infinite there.
FP16_MAX = 65504.0


@dataclass(frozen=True)
class XposReading:
    """slope: ln(ζ_i)/γ per pair; centre: the position where every amplitude is 1; gamma: the
    γ the library's ζ_i imply (median over the pairs) and gamma_spread their relative spread;
    residual: the largest misfit of log amplitude; key_scale_max: the largest 1/amplitude (the
    keys' scale) over the cache's positions."""

    slope: tuple[float, ...]
    centre: float
    gamma: float
    gamma_spread: float
    residual: float
    key_scale_max: float


def read_xpos(
    cos: np.ndarray, sin: np.ndarray, positions: np.ndarray, tol: float
) -> XposReading | None:
    """The xPos scale of a cache (rows, pairs: one column per pair), or None when its amplitude
    is 1 everywhere or does not change as xPos's does."""
    amp = np.hypot(np.asarray(cos, dtype=np.float64), np.asarray(sin, dtype=np.float64))
    p = np.asarray(positions, dtype=np.float64)
    if amp.shape[0] < 8 or np.max(np.abs(amp - 1)) <= tol or np.any(amp <= 0):
        return None
    logs = np.log(amp)
    design = np.stack([np.ones_like(p), p], axis=1)
    coef, *_ = np.linalg.lstsq(design, logs, rcond=None)
    residual = float(np.max(np.abs(design @ coef - logs)))
    intercept, slope = coef
    if residual > 64 * tol or np.any(np.abs(slope) < 1e-12):
        return None
    centres = -intercept / slope
    centre = float(np.median(centres))
    if np.max(np.abs(centres - centre)) > 0.5:
        return None
    gammas = np.log(xpos_zeta(2 * slope.size)) / slope
    gamma = float(np.median(gammas))
    return XposReading(
        slope=tuple(float(s) for s in slope),
        centre=centre,
        gamma=gamma,
        gamma_spread=float(np.max(np.abs(gammas / gamma - 1))),
        residual=residual,
        key_scale_max=float(np.max(1 / amp)),
    )


def xpos_findings(reading: XposReading, positions: np.ndarray) -> list[str]:
    """What the audit says of an xPos cache."""
    library = reading.gamma_spread < 1e-3
    if library:
        head = (
            f"xPos (rotary-embedding-torch use_xpos): pair i scaled by ζ_i^((p − {reading.centre:.6g})"
            f"/{reading.gamma:.6g}) with ζ_i = (2i + 0.4·d)/(1.4·d), the query side (keys get "
            "the inverse); the rotation itself is audited below"
        )
    else:
        head = (
            f"xPos-style scale: each pair's amplitude is e^(s_i·(p − {reading.centre:.6g})), "
            f"s_i from {min(reading.slope):.3g} to {max(reading.slope):.3g}, not "
            "rotary-embedding-torch's ζ_i with one γ; the rotation itself is audited below"
        )
    text = [head]
    span = float(np.max(positions) - reading.centre)
    worst = max(abs(s) for s in reading.slope)
    # The first integer p − c at which the largest key scale e^(|s|·(p − c)) passes 65504.
    first = int(np.floor(np.log(FP16_MAX) / worst)) + 1
    text.append(
        f"keys' scale here up to {reading.key_scale_max:.4g}; in float16 it overflows from "
        f"p − c = {first} on (theorem rope_xpos: 4533 for ζ_0 = 2/7, γ = 512), and this "
        f"cache reaches p − c = {span:.0f}"
        + (": its keys would be infinite in float16" if span >= first else "")
    )
    return text
