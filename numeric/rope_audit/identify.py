"""audit_rope: identify a cos/sin cache by fitting, check it against its configuration, measure it.

The steps, each in its own module:
1. columns: which columns rotate, and which repeat a frequency (the cache's layout);
2. phases and positions: each pair's frequency and phase fitted on a sample of rows, with the
   positions as given or rounded to 16 bits, whichever fits; aliases resolved (unalias);
3. the offset, and the attention factor m from the amplitudes;
4. families: the scaling method whose frequencies agree with the fit (the configuration's own
   method first when one is given);
5. measure: one pass over every row against the exact cache of what was identified; accuracy
   grades the arithmetic from that error and its growth;
6. config_check and findings: every difference and fault as a sentence naming its bug class.
The outcome (numeric.audit.outcome) is a fault when any finding is, undecided when none is but
one cannot be decided from the cache alone (it names what would decide it), else sound: exit
status 0, 1 or 3 on the command line.

One file because it is the audit's one sequence: each step is a call into its own module, and
what stays here is the order and the hand-over of results between them (what the cache alone
decides, what the config overrides, which findings follow).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from numeric.audit.errors import BadValueError
from numeric.audit.findings import Finding
from numeric.audit.grading import grade
from numeric.audit.outcome import Outcome
from numeric.audit.precision import EPS, rounding_bound
from numeric.audit.quiet import quiet
from numeric.rope.config import RopeConfig
from numeric.rope.floats import round_to
from numeric.rope.methods import scaling_methods
from numeric.rope_audit import findings as say
from numeric.rope_audit.attention import logit_factor, read_attention
from numeric.rope_audit.columns import Columns, find_columns
from numeric.rope_audit.config_check import compare_config
from numeric.rope_audit.config_file import ConfigFacts, read_config
from numeric.rope_audit.families import Scaling, identify_scaling
from numeric.rope_audit.grid_audit import grid_audit
from numeric.rope_audit.measure import measure
from numeric.rope_audit.model_pairing import freqs_pairing
from numeric.rope_audit.nope_layers import check_layer, nope_findings
from numeric.rope_audit.one_array import one_array_rotations, peak_slack, through_origin
from numeric.rope_audit.positions import fit_offset, read_positions
from numeric.rope_audit.result import RopeAudit
from numeric.rope_audit.source import CacheSource, cache_source
from numeric.rope_audit.xpos_audit import xpos_audit
from numeric.shown import shown

CONVENTIONS = ("rotate_half", "interleaved")
STRUCTURE_CLASSES = frozenset(
    {
        "unrotated_not_identity",
        "not_identity_at_zero",
        "reversed",
        "amplitude",
        "interleaved_frequencies_with_rotate_half",
        "not_rope",
        "layout_broken",
        "wrong_permutation",
    }
)
_SAMPLE_HEAD = 2048
_SAMPLE_SPREAD = 2048
# The pairing a layout implies; one column per pair ("freqs") implies none: gpt-oss applies it
# to halves, a complex freqs_cis to neighbours (numeric.rope_audit.model_pairing).
_LAYOUT_CONVENTION = {
    "cat(freqs,freqs)": "rotate_half",
    "repeat_interleave": "interleaved",
}


@dataclass(frozen=True)
class Consumer:
    """How the code that applies the cache pairs components: convention, and where that came
    from (numeric.rope_audit.findings.ConventionSource); head_dim when
    known; pairs: the two columns (or components) of each pair; unrotated: the others."""

    convention: str | None
    source: say.ConventionSource | None
    head_dim: int | None = None
    pairs: tuple[tuple[int, int], ...] = ()
    unrotated: tuple[int, ...] = field(default_factory=tuple)


def check_convention(value: object) -> str | None:
    if value is not None and value not in CONVENTIONS:
        raise ValueError(f"convention must be 'rotate_half' or 'interleaved', got {shown(value)}")
    return value  # type: ignore[return-value]


def layout_tolerance(sample: tuple[np.ndarray | None, ...], precision: str) -> float:
    """How far a pair's two columns may differ: a few roundings of the values' format."""
    values = [v for v in sample if v is not None]
    biggest = max(float(np.abs(v[np.isfinite(v)]).max(initial=0.0)) for v in values)
    return 4 * rounding_bound(precision, max(biggest, 1e-300))


def sample_rows(n: int) -> np.ndarray:
    """Rows read for the fit: the first ones, then spread evenly and geometrically to the end."""
    if n <= _SAMPLE_HEAD + 2 * _SAMPLE_SPREAD:
        return np.arange(n)
    head = np.arange(_SAMPLE_HEAD)
    even = np.linspace(_SAMPLE_HEAD, n - 1, _SAMPLE_SPREAD).round()
    spread = np.geomspace(_SAMPLE_HEAD, n - 1, _SAMPLE_SPREAD).round()
    return np.unique(np.concatenate([head, even, spread]).astype(np.int64))


def _fits_none(without_config: bool) -> str:
    """The sentence for frequencies no method fits, naming the methods tried."""
    tried = ", ".join(m.short for m in scaling_methods() if not m.needs_config)
    text = f"the frequencies fit none of the scaling methods ({tried})"
    for method in scaling_methods():
        if method.needs_config and without_config:
            text += f"; {method.needs_config}: give the config to read it"
    return text


def _bands(errors: np.ndarray, positions: np.ndarray) -> tuple[dict, ...]:
    """Largest error below each power of ten of the position."""
    top = max(int(np.abs(positions).max()), 1)
    out = []
    limit = 100
    while True:
        inside = np.abs(positions) < limit
        if inside.any():
            out.append({"below": limit, "max_error": float(errors[inside].max())})
        if limit > top:
            break
        limit *= 10
    return tuple(out)


def _held_amplitude(cos: np.ndarray | None, columns: Columns, m: float) -> float | None:
    """The one value the still columns' cos holds on the sampled rows when it is not 1 but the
    amplitude m as stored (the largest |cos| of the rotating columns, the format's rounding of
    m): pairs too slow to move a 16-bit cos scaled by m, else None."""
    if cos is None or not columns.still_not_identity:
        return None
    values = np.unique(cos[:, list(columns.still)])
    top = float(np.abs(cos[:, columns.first]).max(initial=0.0))
    if len(values) == 1 and float(values[0]) != 1.0 and float(values[0]) == top:
        return float(values[0])
    return None


def _choose_layer(
    facts: ConfigFacts, theta: np.ndarray, bound: np.ndarray, seq_len: int
) -> tuple[str | None, RopeConfig, Scaling]:
    """The layer type whose configuration the cache implements (or the first, if none does)."""
    tried = []
    for kind, layer in facts.layers.items():
        found = identify_scaling(theta, bound, config=layer, seq_len=seq_len)
        if found.source == "config" and found.rounded_to is None:
            return kind, layer, found
        tried.append((kind, layer, found))
    for kind, layer, found in tried:
        if found.base is not None and abs(found.base - layer.base) <= 1e-9 * layer.base:
            return kind, layer, found
    return tried[0]


def _consumer(columns: Columns, convention: str | None, facts: ConfigFacts | None) -> Consumer:
    head_dim = None
    if convention is not None:
        chosen, where = convention, say.ConventionSource.STATED
    elif facts is not None and facts.convention is not None:
        chosen, where = facts.convention, say.ConventionSource.CONFIG
    elif columns.layout in _LAYOUT_CONVENTION:
        chosen, where = _LAYOUT_CONVENTION[columns.layout], say.ConventionSource.LAYOUT
    elif facts is not None and freqs_pairing(facts.model_type) is not None:
        chosen, where = freqs_pairing(facts.model_type), say.ConventionSource.MODEL
    else:
        chosen, where = None, None
    pairs = tuple(zip(columns.first.tolist(), columns.second.tolist(), strict=True))
    if columns.still and not columns.still_not_identity:
        # Pass-through columns (cos 1, sin 0) are stored only by a cache as wide as the head.
        head_dim = columns.width
    return Consumer(chosen, where, head_dim, pairs, columns.still)


@quiet
def audit_rope(
    cos: object | None = None,
    sin: object | None = None,
    *,
    positions: object = None,
    config: object = None,
    layer_type: str | None = None,
    convention: str | None = None,
    what: str = "cache",
    layer: int | None = None,
) -> RopeAudit:
    """Identify a RoPE cos/sin cache by fitting, and check and measure it.

    cos, sin: (rows, columns) arrays (either may be None), any float dtype; positions: the
    position of each row (default 0, 1, 2, ...); config: a Hugging Face config (dict or path
    to config.json), read as data, to check the cache against; layer_type: the entry of a
    config nested by layer type (default: the one the cache matches); convention: how the code
    applying the cache pairs components ("rotate_half" or "interleaved"), when it is not what
    the cache's layout says; what: the cache's name in messages; layer: the layer index the
    cache is for, in a config whose no_rope_layers says which layers apply no RoPE
    (numeric.rope_audit.nope_layers; without it, the cache is checked against the layers it
    matches).

    >>> from numeric.rope import rope_cache, rope_frequencies
    >>> f = rope_frequencies({"head_dim": 64, "rope_theta": 10000.0})
    >>> c, s = rope_cache(f.inv_freq, 512)
    >>> result = audit_rope(c, s)
    >>> result.convention, result.base, result.scaling["type"], result.sound
    ('rotate_half', 10000.0, 'none', True)
    """
    source = cache_source(cos, sin, positions, what)
    facts = None if config is None else read_config(config, layer_type=layer_type)  # type: ignore[arg-type]
    if layer is not None and facts is None:
        raise BadValueError("layer applies with a config (its no_rope_layers); none was given")
    layer = check_layer(layer, None if facts is None else facts.rope_layers)
    convention = check_convention(convention)
    rows = sample_rows(source.rows)
    sample = source.take(rows)
    precision = source.precision(sample)
    columns = find_columns(source, layout_tolerance(sample, precision), rows, sample)
    consumer = _consumer(columns, convention, facts)
    # A grid of patches (2-D axial RoPE, M-RoPE) is read as one, not as a 1-D cache; an xPos
    # cache is audited as the rotation it scales.
    grid = grid_audit(source, columns, precision, consumer, config)
    if grid is not None:
        return grid
    scaled = xpos_audit(source, columns, precision, audit_rope, config, layer_type, convention)
    if scaled is not None:
        return scaled
    return audit_source(
        source,
        columns,
        consumer,
        facts,
        precision,
        kind="cache",
        positions_given=positions is not None,
        sample=(rows, *sample),
        layer_index=layer,
    )


def _no_rotation(
    source: CacheSource,
    columns: Columns,
    consumer: Consumer,
    kind: str,
    extra: tuple[Finding, ...],
    text: str | None = None,
    nope: tuple[Finding, ...] = (),
) -> RopeAudit:
    """The audit of what is not RoPE: text says why (default: nothing rotates); nope: what the
    config's no_rope_layers says of it (numeric.rope_audit.nope_layers): when that is no
    fault, the identity is a NoPE layer's (sound for one, undecided without the layer)."""
    identity = bool(nope) and not any(f.fault for f in nope)
    if identity:
        text = nope[0].text
    text = text or (
        "no column rotates: sin is 0 on every row (or cos is constant), so this is not a RoPE "
        "cache; the identity is what a layer without RoPE applies (Llama 4's NoPE layers): a "
        "config with no_rope_layers and --layer say whether this cache's layer is one"
        if kind == "cache"
        else "no pair of components rotates: the function does not apply RoPE"
    )
    said = (*nope, *extra) if identity else (Finding("not_rope", text, True), *nope, *extra)
    faults = [{"bug": f.bug or "fault", "text": f.text} for f in said if f.fault]
    outcome = Outcome.of(said)
    return RopeAudit(
        kind="rope",
        source=kind,
        shape=(source.rows, source.width) if kind == "cache" else None,
        convention=None,
        convention_source=None,
        cache_layout=None,
        pairs=(),
        rotary_dim=0,
        head_dim=consumer.head_dim,
        unrotated=columns.still,
        base=None,
        frequencies=(),
        frequency_bounds=(),
        scaling={"type": "custom"},
        scaling_source="cache",
        assumed=(),
        attention_factor=None,
        logit_factor=None,
        attention={},
        position_offset=None,
        positions={},
        precision={},
        max_abs_error=None,
        worst_position=None,
        error_by_position=(),
        structure={
            "verdict": "sound" if identity else "fault",
            "faults": [] if identity else ["not_rope"],
        },
        config=None,
        bugs=tuple(dict.fromkeys(f.bug for f in said if f.bug and (f.fault or f.undecided))),
        faults=tuple(faults),
        findings=tuple(f.text for f in said),
        sound=outcome is Outcome.SOUND,
        outcome=outcome,
        decided_by=outcome.decided_by(said),
    )


def audit_source(
    source: CacheSource,
    columns: Columns,
    consumer: Consumer,
    facts: ConfigFacts | None,
    precision: str,
    *,
    kind: str,
    extra: tuple[Finding, ...] = (),
    positions_given: bool = True,
    sample: tuple | None = None,
    layer_index: int | None = None,
) -> RopeAudit:
    """The audit of a cache whose rotating columns are known (the steps of the module doc).

    kind: "cache", or "function" for the cache a probe read from a function; extra: findings
    the caller made (a probe's structure), added after the structure's own; positions_given:
    whether the rows' positions were stated (then, as with a config, an offset is a fault:
    findings.offset_findings); sample: (rows, cos, sin) of sample_rows, when
    already read; layer_index: the config's layer the cache is for (audit_rope's layer).
    """
    rope_layers = None if facts is None else facts.rope_layers
    if columns.pairs == 0:
        nope = nope_findings(layer_index, rope_layers, rotates=False)
        return _no_rotation(source, columns, consumer, kind, extra, nope=tuple(nope))
    if sample is None:
        rows = sample_rows(source.rows)
        cos, sin = source.take(rows)
    else:
        rows, cos, sin = sample
    first = columns.first
    both = cos is not None and sin is not None
    noise = 0.0
    if both:
        z = cos[:, first] + 1j * sin[:, first]
        m = float(np.median(np.abs(z)))
    else:
        z, m, noise = one_array_rotations(
            source.positions[rows],
            None if cos is None else cos[:, first],
            None if sin is None else sin[:, first],
            rounding_bound(precision, 1.0),
        )
    reading = read_positions(source.positions[rows], z, even=sin is None, noise=noise)
    oriented = reading.oriented
    theta, bound = oriented.theta, reading.fit.theta_bound
    sign = -1.0 if oriented.reversed else 1.0
    intercept = sign * reading.fit.intercept
    offset = fit_offset(theta, intercept, reading.fit.intercept_bound, bound)
    if not both and offset is not None and offset < 0:
        offset = -offset  # cos alone cannot tell o from −o
    seq_len = int(source.positions.max()) + 1 + (offset or 0)

    layer_kind, layer, scaling = None, None, None
    if facts is not None:
        layer_kind, layer, scaling = _choose_layer(facts, theta, bound, seq_len)
        if consumer.head_dim is None:
            consumer = Consumer(
                consumer.convention,
                consumer.source,
                layer.head_dim,
                consumer.pairs,
                consumer.unrotated,
            )
    else:
        scaling = identify_scaling(theta, bound, seq_len=seq_len)
    m_tolerance = 4 * rounding_bound(precision, max(m, 1e-300)) + 2.0**-23 * m
    slack = 0.0
    if not both:
        # One array's largest |value| is m only where a row falls on a peak: m may be higher.
        slack = peak_slack(
            reading.effective,
            reading.fit.theta,
            reading.fit.intercept,
            reading.fit.worst_residual,
            m,
            cos is not None,
        )
    read_m = m
    attention = read_attention(m, m_tolerance, scaling, layer, above=slack)
    # m is named as the value its rule gives when the amplitudes agree with it.
    if attention.expected is not None and attention.verdict == "as expected":
        m = attention.expected
    elif -m_tolerance - slack <= m - 1 <= m_tolerance:
        m = 1.0

    intended = scaling.theta if scaling.theta is not None else theta
    built = intended
    if scaling.rounded_to is not None:
        built = round_to(intended.astype(np.float32), scaling.rounded_to).astype(np.float64)

    def measured_with(intended_theta: np.ndarray, built_theta: np.ndarray, attention: float):
        """The cache measured against these frequencies and this amplitude."""
        return measure(
            source,
            columns,
            intended_theta=intended_theta,
            built_theta=built_theta,
            attention=attention,
            offset=offset or 0,
            positions_rounded_to=reading.rounded_to,
            sign=sign,
            tolerance=None,
            layout_tolerance=columns.tolerance,
            rounding=2 * rounding_bound(precision, max(m, 1e-300)),
        )

    measured = measured_with(intended, built, m)
    if np.isnan(measured.error_built).all():
        # No row is a rotation of the fitted frequencies (e.g. a sinusoidal table read as sin).
        text = "no row is explained by the fitted frequencies: this is not a RoPE cache"
        return _no_rotation(source, columns, consumer, kind, extra, text)
    held = source.positions[measured.rows].astype(np.float64) + (offset or 0)
    if reading.rounded_to is not None:
        held = round_to(held, reading.rounded_to).astype(np.float64)
    sixteen = (
        reading.rounded_to
        or scaling.rounded_to
        or (precision if precision in ("float16", "bfloat16") else "float16")
    )

    def graded(measured_here, fastest: float):
        """How accurately the arithmetic explains what measured_here leaves."""
        return grade(
            measured_here.error_built,
            measured_here.needed,
            held,
            fastest,
            rounding_bound(precision, max(m, 1e-300)),
            precision,
            sixteen,
            say.NOT_ROPE,
            slack=8 * EPS["float64"] * m,
        )

    accuracy = graded(measured, float(theta.max()))
    within_fit = False
    if not both and not accuracy.sound:
        # One array fits its frequencies loosely: what the pairs' best lines through the
        # origin leave is what the arithmetic must explain.
        refit, amplitude = through_origin(
            reading.effective + (offset or 0),
            cos[:, first] if sin is None else sign * sin[:, first],
            (min(m, read_m), max(m, read_m + slack)),
            theta,
            cos is not None,
        )
        within_fit = graded(measured_with(refit, refit, amplitude), float(refit.max())).sound
    in_sixteen = accuracy.grade == "computed in 16 bits"
    inv_rounded = accuracy.computed_in if in_sixteen else scaling.rounded_to
    positions_rounded = accuracy.computed_in if in_sixteen else reading.rounded_to
    repeats = None
    if reading.rounded_to is not None:
        same = np.flatnonzero(np.diff(held) == 0)
        if same.size:
            pair = measured.rows[same[0] : same[0] + 2]
            repeats = (int(source.positions[pair[0]]), int(source.positions[pair[1]]))

    found: list[Finding] = [
        say.identification(
            consumer.convention,
            columns.layout if kind == "cache" else None,
            columns.rotary_dim,
            consumer.head_dim,
            scaling,
            m,
            offset,
        )
    ]
    found += say.assumed_parameters(scaling)
    what = "columns" if kind == "cache" else "components"
    bad_pairs = say.bad_amplitude_pairs(measured.pair_amplitude, m_tolerance)
    found += say.structure_findings(
        columns.still_not_identity,
        offset,
        oriented.reversed,
        bad_pairs,
        measured.amplitude,
        m,
        what,
    )
    found += say.offset_findings(offset, positions_given, facts is not None)
    found += say.pairing_findings(consumer.convention, consumer.source, columns.layout, kind)
    found += nope_findings(layer_index, rope_layers, rotates=True)
    found += list(extra)
    found += say.precision_findings(
        precision,
        accuracy,
        m,
        None if in_sixteen else scaling.rounded_to,
        None if in_sixteen else reading.rounded_to,
        repeats,
        float(measured.error_intended.max()),
    )
    found += say.alias_finding(oriented.moved, reading.fit.step)
    repeated = say.repeated_frequencies(theta, bound, columns.layout if kind == "cache" else None)
    found += repeated
    comparison = None
    if layer is not None:
        comparison = compare_config(theta, bound, scaling, attention, layer, seq_len)
        found += list(comparison.findings)
    else:
        found += say.attention_undecided(attention)
        found += say.attention_unexpected(attention)
    if scaling.type == "custom" and not repeated:
        found.append(Finding(None, _fits_none(facts is None), False))
    if kind == "cache" and source.sin is None:
        found = say.unseen_slow_pairs(found, columns, precision, _held_amplitude(cos, columns, m))
    if kind == "cache" and (source.sin is None) != (source.cos is None):
        have = "cos" if source.sin is None else "sin"
        found = say.one_array_in_16_bits(found, have, precision)
        if within_fit:
            found = say.precision_within_fit(found, have)
    # The identification first, then the faults, then what is only described.
    found = found[:1] + [f for f in found[1:] if f.fault] + [f for f in found[1:] if not f.fault]
    faults = [f.bug or "fault" for f in found if f.fault]
    structure_classes = STRUCTURE_CLASSES
    outcome = Outcome.of(found)
    if not accuracy.sound and not within_fit and outcome is Outcome.SOUND:
        outcome = Outcome.FAULT
    scaling_json = scaling.to_json()
    return RopeAudit(
        kind="rope",
        source=kind,
        shape=(source.rows, source.width) if kind == "cache" else None,
        convention=consumer.convention,
        convention_source=consumer.source,
        cache_layout=columns.layout if kind == "cache" else None,
        pairs=consumer.pairs,
        rotary_dim=columns.rotary_dim,
        head_dim=consumer.head_dim,
        unrotated=consumer.unrotated,
        base=scaling.base,
        frequencies=tuple(float(t) for t in theta),
        frequency_bounds=tuple(float(t) for t in bound),
        scaling=scaling_json,
        scaling_source=scaling.source,
        assumed=scaling.assumed,
        attention_factor=m,
        logit_factor=logit_factor(m),
        attention={
            "expected": attention.expected,
            "verdict": attention.verdict,
            "rule": attention.rule,
        },
        position_offset=offset,
        positions={
            "rows": source.rows,
            "rows_measured": len(measured.rows),
            "first": int(source.positions[0]),
            "last": int(source.positions[-1]),
            "step": int(np.gcd.reduce(np.diff(source.positions))) if source.rows > 1 else 1,
        },
        precision={
            "stored": precision,
            "dtype": source.stored,
            "grade": accuracy.grade,
            "computed_in": accuracy.computed_in,
            "inv_freq_rounded_to": inv_rounded,
            "positions_rounded_to": positions_rounded,
            "error_per_1000_positions": accuracy.per_thousand(),
            "max_error_as_built": accuracy.max_error,
        },
        max_abs_error=float(measured.error_intended.max()),
        worst_position=int(
            source.positions[measured.rows[int(np.argmax(measured.error_intended))]]
        ),
        error_by_position=_bands(measured.error_intended, source.positions[measured.rows]),
        structure={
            "verdict": "fault" if any(b in structure_classes for b in faults) else "sound",
            "faults": [b for b in faults if b in structure_classes],
        },
        config=None if comparison is None else comparison.to_json(facts.where, layer_kind),  # type: ignore[union-attr]
        bugs=tuple(dict.fromkeys(f.bug for f in found if f.bug)),
        faults=tuple({"bug": f.bug or "fault", "text": f.text} for f in found if f.fault),
        findings=tuple(f.text for f in found),
        sound=outcome is Outcome.SOUND,
        outcome=outcome,
        decided_by=outcome.decided_by(found),
    )
