"""RopeAudit: what a RoPE cache or function is and whether it is sound, as JSON and as text."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from numeric.audit.outcome import Outcome
from numeric.audit.report import WIDTH, bullets, finite_json, line

_SHOWN = (
    "factor",
    "beta_fast",
    "beta_slow",
    "low_freq_factor",
    "high_freq_factor",
    "original_max_position_embeddings",
    "mscale",
    "mscale_all_dim",
    "seq_len",
    "factors_used",
)


def scaling_words(scaling: dict) -> str:
    """The scaling field in a few words: its type and the parameters a config names."""
    shown = ", ".join(
        f"{k} {scaling[k]:g}" if isinstance(scaling[k], float) else f"{k} {scaling[k]}"
        for k in _SHOWN
        if k in scaling
    )
    return f"{scaling.get('type')}" + (f" ({shown})" if shown else "")


@dataclass(frozen=True)
class RopeAudit:
    """The audit of a RoPE cache (numeric.audit_rope) or function (numeric.audit_rope_function).

    Identification: convention (how q/k components pair: "rotate_half", "interleaved" or
    None), convention_source, cache_layout, pairs (the two columns or components of each
    pair), rotary_dim, head_dim, unrotated (columns or components left alone), base,
    frequencies (fitted θ_i per pair) and frequency_bounds (how far each true θ_i can be from
    the fitted one, from the fit's largest residual), scaling ({"type": ..., parameters by their Hugging Face
    names}), scaling_source ("config" when the configuration's own method and parameters
    agree, else "cache"), assumed (parameters the cache does not fix, set to a default),
    attention_factor (m; logits scale by logit_factor = m²), attention (expected, verdict,
    rule), position_offset (row for position p holds p + offset; None when no integer fits),
    positions (rows, first, last, step).
    Measurement: precision (stored, computed_in, grade, the 16-bit roundings found, growth),
    max_abs_error and worst_position against the exact cache of the identified
    configuration, error_by_position.
    Verdicts: structure (sound or fault, with the faults), config (how the cache compares
    with the configuration given), bugs (the bug classes named), faults ({"bug", "text"} of
    each finding that fails the audit), findings (every sentence), sound (no fault and nothing
    undecided), outcome (numeric.audit.outcome.Outcome: sound, fault or undecided), decided_by
    (what would decide the undecided findings, when the outcome is undecided).
    """

    kind: str
    source: str
    shape: tuple[int, int] | None
    convention: str | None
    convention_source: str | None
    cache_layout: str | None
    pairs: tuple[tuple[int, int], ...]
    rotary_dim: int
    head_dim: int | None
    unrotated: tuple[int, ...]
    base: float | None
    frequencies: tuple[float, ...]
    frequency_bounds: tuple[float, ...]
    scaling: dict
    scaling_source: str
    assumed: tuple[str, ...]
    attention_factor: float | None
    logit_factor: float | None
    attention: dict
    position_offset: int | None
    positions: dict
    precision: dict
    max_abs_error: float | None
    worst_position: int | None
    error_by_position: tuple[dict, ...]
    structure: dict
    config: dict | None
    bugs: tuple[str, ...]
    faults: tuple[dict, ...]
    findings: tuple[str, ...]
    sound: bool
    outcome: Outcome
    decided_by: tuple[str, ...]

    def to_json(self) -> dict:
        """Every field as JSON-ready Python values (a bound that is infinite is null)."""
        return finite_json(asdict(self))  # type: ignore[return-value]

    def report_lines(self, width: int = WIDTH) -> list[str]:
        """A short human report, each line at most width columns."""
        what = "cache" if self.source == "cache" else "function"
        shape = f" ({self.shape[0]}, {self.shape[1]})" if self.shape else ""
        lines = [f"audit of a RoPE {what}{shape}: {self.outcome.headline}"]
        base = "?" if self.base is None else f"{self.base:g}"
        m = "?" if self.attention_factor is None else f"{self.attention_factor:.6g}"
        summary = (
            f"convention {self.convention or '?'}"
            + (f" (cache {self.cache_layout})" if self.cache_layout else "")
            + f", rotary dims {self.rotary_dim}"
            + (f" of {self.head_dim}" if self.head_dim else "")
            # Where nothing rotates there are no frequencies to read a scaling from.
            + f", base {base}, scaling {scaling_words(self.scaling) if self.pairs else '?'}"
            + f", m {m}, offset {self.position_offset}"
        )
        lines += line(summary, width)
        p = self.precision
        if self.max_abs_error is not None:
            lines += line(
                f"precision: values {p.get('stored')}, {p.get('grade')}; max error "
                f"{self.max_abs_error:.2e} at position {self.worst_position}",
                width,
            )
        if self.decided_by:
            lines += line(f"to decide: give {' or '.join(self.decided_by)}", width)
        lines.append("findings:")
        return lines + bullets(self.findings, width)
