"""compare_rope: whether two RoPE caches implement the same rotation, and where and why they part.

Both are audited (numeric.audit_rope); their pairs are matched in order (pair i of each is its
i-th frequency, whatever the layout), and on the positions both hold every pair's cos and sin
are compared, a block of rows at a time, within the two caches' float32 caps (the accuracy of
ordinary float32 code, numeric.audit.grading). The first position where a pair differs,
and the lowest pair there, are reported with the reason the two audits give: the scaling
methods or their parameters, the base, the attention factor, a 16-bit rounding, the offset.
"""

from __future__ import annotations

import textwrap
from dataclasses import asdict, dataclass

import numpy as np

from numeric.audit.grading import cap
from numeric.audit.precision import rounding_bound
from numeric.audit.quiet import quiet
from numeric.audit.report import bullets, finite_json
from numeric.rope.methods import no_scaling
from numeric.rope_audit.config_check import method_name, speed_words, worst_pair
from numeric.rope_audit.identify import audit_rope
from numeric.rope_audit.result import RopeAudit, scaling_words
from numeric.rope_audit.source import CacheSource, cache_source

_ROWS = 8192
# Two fitted frequencies further apart than this (relative) are different frequencies; fits
# of float32 caches agree far closer (about 1e-7).
_SAME_FREQUENCY = 1e-5
_PARAMETERS = (
    "factor",
    "beta_fast",
    "beta_slow",
    "low_freq_factor",
    "high_freq_factor",
    "original_max_position_embeddings",
    "seq_len",
    "ramp",
    "base",
)


@dataclass(frozen=True)
class RopeComparison:
    """same: the two caches hold the same rotations on the positions they share (up to their
    layouts); first_pair, first_position: where the entries first differ; ratio: θ_B/θ_A at the
    pair whose frequencies differ most (the worst, which the finding names);
    max_difference: the largest |B − A| over shared entries; positions_compared; findings."""

    same: bool
    first_pair: int | None
    first_position: int | None
    ratio: float | None
    max_difference: float | None
    positions_compared: int
    a: dict
    b: dict
    findings: tuple[str, ...]

    def to_json(self) -> dict:
        """Every field as JSON-ready Python values."""
        return finite_json(asdict(self))  # type: ignore[return-value]

    def report_lines(self, width: int = 100) -> list[str]:
        head = "same RoPE" if self.same else "different RoPE"
        if self.max_difference is not None:
            head += (
                f" (max difference {self.max_difference:.1e} over {self.positions_compared} "
                "shared positions)"
            )
        lines = textwrap.wrap(head, width)
        for name, side in (("A", self.a), ("B", self.b)):
            lines += textwrap.wrap(
                f"{name}: {side['convention']} ({side['cache_layout']}), base "
                f"{'?' if side['base'] is None else format(side['base'], 'g')}, "
                f"scaling {scaling_words(side['scaling'])}, m {side['attention_factor']:.6g}, "
                f"{side['precision']['grade']}",
                width,
                subsequent_indent="   ",
            )
        return lines + bullets(self.findings, width)


def _summary(audit: RopeAudit) -> dict:
    return {
        "convention": audit.convention,
        "cache_layout": audit.cache_layout,
        "rotary_dim": audit.rotary_dim,
        "base": audit.base,
        "scaling": audit.scaling,
        "attention_factor": audit.attention_factor,
        "position_offset": audit.position_offset,
        "precision": audit.precision,
        "sound": audit.sound,
    }


def _first_columns(source: CacheSource, audit: RopeAudit) -> np.ndarray:
    """The cache column holding each pair's frequency (the first of its two columns)."""
    return np.array([p[0] for p in audit.pairs], dtype=np.int64)


def _unseen_pairs(a: RopeAudit, b: RopeAudit) -> tuple[RopeAudit, bool] | None:
    """(the wider audit, whether B is the narrower) when the narrower cache's still columns are
    exactly the wider's extra pairs, both read from cos alone in one layout; else None."""
    if a.cache_layout != b.cache_layout or a.shape != b.shape:
        return None
    wide, narrow = (a, b) if a.rotary_dim > b.rotary_dim else (b, a)
    in_wide = {c for pair in wide.pairs for c in pair}
    in_narrow = {c for pair in narrow.pairs for c in pair}
    if not in_narrow < in_wide or not (in_wide - in_narrow) <= set(narrow.unrotated):
        return None
    return wide, narrow is b


def _spread(narrow: RopeAudit, wide: RopeAudit) -> np.ndarray:
    """The narrower audit's frequencies on the wider one's pairs (the wider's where the
    narrower saw no rotation)."""
    by_column = {pair[0]: f for pair, f in zip(narrow.pairs, narrow.frequencies, strict=True)}
    return np.array(
        [by_column.get(pair[0], f) for pair, f in zip(wide.pairs, wide.frequencies, strict=True)]
    )


def _differences(
    a: CacheSource, b: CacheSource, cols_a: np.ndarray, cols_b: np.ndarray, tolerance_at
) -> tuple[float, int | None, int | None, int]:
    """(max difference, first row of A beyond tolerance, its pair, rows compared);
    tolerance_at(positions): (rows, pairs), what each pair may differ by there."""
    shared, rows_a, rows_b = np.intersect1d(a.positions, b.positions, return_indices=True)
    worst, first_row, first_pair = 0.0, None, None
    for start in range(0, len(shared), _ROWS):
        ia, ib = rows_a[start : start + _ROWS], rows_b[start : start + _ROWS]
        gap = None
        for side in (0, 1):
            va, vb = a.take(ia)[side], b.take(ib)[side]
            if va is None or vb is None:
                continue
            d = np.abs(va[:, cols_a] - vb[:, cols_b])
            gap = d if gap is None else np.maximum(gap, d)
        if gap is None:
            break
        worst = max(worst, float(gap.max()))
        beyond = gap > tolerance_at(shared[start : start + _ROWS])
        if first_row is None and beyond.any():
            r = int(np.argmax(beyond.any(axis=1)))
            first_row, first_pair = int(shared[start + r]), int(np.argmax(beyond[r]))
    return worst, first_row, first_pair, len(shared)


def _why(a: RopeAudit, b: RopeAudit) -> list[str]:
    """The reasons the audits give for a difference, most specific first."""
    reasons = []
    sa, sb = a.scaling, b.scaling
    if sa.get("type") != sb.get("type") and sb.get("type") == no_scaling().name:
        reasons.append(f"{method_name(sa['type'])} dropped in B")
    elif sa.get("type") != sb.get("type"):
        reasons.append(f"{method_name(sa['type'])} read as {method_name(sb['type'])}")
    else:
        for key in _PARAMETERS:
            if key in sa and key in sb and sa[key] != sb[key]:
                reasons.append(f"{key} {sb[key]} in B, {sa[key]} in A")
    if a.base != b.base and a.base is not None and b.base is not None:
        reasons.append(f"base {b.base:g} in B, {a.base:g} in A")
    if a.attention_factor is not None and b.attention_factor is not None:
        ma, mb = a.attention_factor, b.attention_factor
        if abs(ma - mb) > 1e-6 * max(abs(ma), 1):
            reasons.append(
                f"B's cos and sin carry m = {mb:.6g}, A's {ma:.6g} (logits × {mb * mb:.6g} vs "
                f"{ma * ma:.6g})"
            )
    for key, words in (
        ("inv_freq_rounded_to", "B's inv_freq rounded to {}"),
        ("positions_rounded_to", "B's positions rounded to {}"),
    ):
        if b.precision.get(key) and b.precision.get(key) != a.precision.get(key):
            reasons.append(words.format(b.precision[key]))
        if a.precision.get(key) and a.precision.get(key) != b.precision.get(key):
            reasons.append(words.replace("B's", "A's").format(a.precision[key]))
    if b.precision.get("grade") != a.precision.get("grade") and "16 bits" in str(
        b.precision.get("grade")
    ) + str(a.precision.get("grade")):
        reasons.append(f"A {a.precision['grade']}, B {b.precision['grade']}")
    if a.position_offset != b.position_offset:
        reasons.append(f"offsets {a.position_offset} (A) and {b.position_offset} (B)")
    return reasons


@quiet
def compare_rope(
    cos_a: object | None,
    sin_a: object | None,
    cos_b: object | None,
    sin_b: object | None,
    *,
    positions_a: object = None,
    positions_b: object = None,
) -> RopeComparison:
    """Whether cache B holds the rotations of cache A, on the positions both hold.

    cos_a, sin_a, cos_b, sin_b: (rows, columns) arrays (one of each pair may be None);
    positions_a, positions_b: the position of each row (default 0, 1, 2, ...).
    """
    a = cache_source(cos_a, sin_a, positions_a, "A")
    b = cache_source(cos_b, sin_b, positions_b, "B")
    audit_a = audit_rope(cos_a, sin_a, positions=positions_a, what="A")
    audit_b = audit_rope(cos_b, sin_b, positions=positions_b, what="B")
    summary_a, summary_b = _summary(audit_a), _summary(audit_b)
    findings = []
    freqs_a = np.asarray(audit_a.frequencies, dtype=np.float64)
    freqs_b = np.asarray(audit_b.frequencies, dtype=np.float64)
    cols_a, cols_b = _first_columns(a, audit_a), _first_columns(b, audit_b)
    if audit_a.rotary_dim != audit_b.rotary_dim:
        unseen = _unseen_pairs(audit_a, audit_b)
        if unseen is None:
            findings.append(
                f"A rotates {audit_a.rotary_dim} components per head, B {audit_b.rotary_dim}: "
                "different RoPE"
            )
            return RopeComparison(
                False, None, None, None, None, 0, summary_a, summary_b, tuple(findings)
            )
        # The narrower side's still columns are the wider's slowest pairs, which turn too
        # little to move its stored cos: both are compared on the wider side's pairs.
        wide, narrow_is_b = unseen
        freqs_a, freqs_b = (
            (freqs_a, _spread(audit_b, audit_a))
            if narrow_is_b
            else (
                _spread(audit_a, audit_b),
                freqs_b,
            )
        )
        cols_a = cols_b = _first_columns(a, wide)
        findings.append(
            f"{'B' if narrow_is_b else 'A'} rotates {min(audit_a.rotary_dim, audit_b.rotary_dim)}"
            f" components, {'A' if narrow_is_b else 'B'} {wide.rotary_dim}: the other "
            "columns hold one cos on every row (1, or the amplitude m as stored), as the slowest "
            "pairs do in its format with cos alone; compared on all of them"
        )
    # Each pair is held to its own float32 cap: the faster of A's and B's frequency for it.
    theta = np.maximum(freqs_a, freqs_b)
    log_theta = np.log(np.maximum(theta, np.finfo(np.float64).tiny))
    m = max(audit_a.attention_factor or 1.0, audit_b.attention_factor or 1.0)
    rounding = rounding_bound(audit_a.precision["stored"], m) + rounding_bound(
        audit_b.precision["stored"], m
    )

    def tolerance_at(positions: np.ndarray) -> np.ndarray:
        """(rows, pairs): twice the float32 cap of each pair at each position, with two
        roundings of each stored format (cos or sin, then the product with m)."""
        angle = np.abs(positions.astype(np.float64))[:, None] * theta
        return 2 * cap("float32", 2 * rounding, m, angle, log_theta)

    worst, position, pair, count = _differences(a, b, cols_a, cols_b, tolerance_at)
    ratio = None
    if count == 0:
        findings.append("A and B share no positions")
        same = False
    elif position is None:
        same = True
        layouts = (
            ""
            if audit_a.cache_layout == audit_b.cache_layout
            else f"; A's layout is {audit_a.cache_layout}, B's {audit_b.cache_layout} (the "
            "same rotations laid out for different pairings)"
        )
        findings.append(
            f"the same rotations on all {count} shared positions (max difference {worst:.1e}, "
            f"within two float32 computations){layouts}"
        )
    else:
        same = False
        ratios = freqs_b / freqs_a
        apart = np.flatnonzero(np.abs(ratios - 1) > _SAME_FREQUENCY)
        reasons = _why(audit_a, audit_b)
        because = ": " + "; ".join(reasons) if reasons else ""
        if apart.size:
            off = np.zeros(len(ratios), dtype=bool)
            off[apart] = True
            worst_at = worst_pair(ratios, off)
            ratio = float(ratios[worst_at])
            first = "" if worst_at == apart[0] else f" (the first to differ is pair {apart[0]})"
            findings.append(f"B's pair {worst_at} is {speed_words(ratio)}{first}{because}")
        else:
            findings.append(f"the frequencies agree{because}")
        findings.append(f"the entries first differ at position {position}, pair {pair}")
    return RopeComparison(
        same,
        pair,
        position,
        ratio,
        worst if count else None,
        count,
        summary_a,
        summary_b,
        tuple(findings),
    )
