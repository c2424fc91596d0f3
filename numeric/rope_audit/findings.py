"""The audit's sentences: what was identified, and each fault named with its bug class.

Bug classes (the names of tests/data/real_rope/truth.json where it has them), with the public
threads that reported them:
- fp16_cache: angles computed in 16 bits (gpt-neox #1003: cos off by 0.78);
- bf16_inv_freq, fp16_inv_freq: inv_freq rounded to 16 bits before the product
  (transformers #29496);
- fp16_positions, bf16_positions: positions rounded to 16 bits (Megatron-LM #535);
- interleaved_frequencies_with_rotate_half: a cache whose pairs do not match the consumer's
  pairing, or whose rotate_half pairs repeat the interleaved order's frequencies θ0, θ0, θ1,
  ... (the layouts that conversions mix up: llama.cpp #2376, TinyLlama #24);
- position_offset: rows shifted by a whole offset where the config or the caller says
  position 0 is the identity (offset_findings: the offset rule);
- not_identity_at_zero, amplitude, unrotated_not_identity, reversed: structure;
- no_rope_layers: a cache that rotates for a layer the config's no_rope_layers makes a NoPE
  layer, or the identity for one with RoPE (numeric.rope_audit.nope_layers).
The configuration's classes (scaling_mismatch, attention_factor, rotary_width, and each
scaling method's own, from its file in numeric/rope/methods) are named in
numeric.rope_audit.config_check.

One module over 400 lines because it is one decision: which sentences a cache's audit says and
which of them are faults (or leave the outcome undecided), read from the same fit; each sentence
is a short helper, and apart they would part a sentence from the bug class it carries.
"""

from __future__ import annotations

from enum import StrEnum

import numpy as np

from numeric.audit.findings import Finding
from numeric.audit.grading import Accuracy, growth_words, position_words
from numeric.rope.methods import by_name
from numeric.rope_audit.attention import AttentionReading
from numeric.rope_audit.columns import Columns
from numeric.rope_audit.config_check import method_name
from numeric.rope_audit.families import Scaling

_LISTED = 5
NOT_ROPE = "not a RoPE cache"
DECIDED_BY_CONFIG = "the model's config.json (--config)"
DECIDED_BY_SIN = "the sin array (a second file or --key)"  # the accuracy grade when no arithmetic explains the errors


class ConventionSource(StrEnum):
    """Where the consumer's pairing convention came from (its value is the JSON's word)."""

    STATED = "given"  # by the caller: --convention, or convention=
    CONFIG = "config (rope_interleave)"
    LAYOUT = "cache layout"
    MODEL = "config (model_type)"
    PROBED = "probed"

    @property
    def words(self) -> str:
        """How a finding names it."""
        return {
            ConventionSource.STATED: "as stated",
            ConventionSource.CONFIG: "the config's rope_interleave",
            ConventionSource.MODEL: "the code of the config's model_type",
        }.get(self, self.value)


def listed(items: list[int] | tuple[int, ...], most: int = _LISTED) -> str:
    """Up to most numbers (five by default), then how many more.

    >>> listed(range(7))
    '0, 1, 2, 3, 4 and 2 more'
    """
    items = list(items)
    shown = ", ".join(str(i) for i in items[:most])
    return shown + (f" and {len(items) - most} more" if len(items) > most else "")


def identification(
    convention: str | None,
    layout: str | None,
    rotary_dim: int,
    head_dim: int | None,
    scaling: Scaling,
    attention: float | None,
    offset: int | None,
) -> Finding:
    """One sentence: the RoPE this is."""
    pairing = {
        "rotate_half": "rotate_half pairs (i, i + d/2)",
        "interleaved": "interleaved pairs (2i, 2i + 1)",
    }.get(convention or "", "an unnamed pairing")
    width = f"{rotary_dim} rotary components" + (f" of {head_dim}" if head_dim else "")
    kind = method_name(scaling.type)
    params = ", ".join(
        f"{k} {v:g}" if isinstance(v, float) else f"{k} {v}"
        for k, v in scaling.parameters.items()
        if k
        in (
            "factor",
            "beta_fast",
            "beta_slow",
            "low_freq_factor",
            "high_freq_factor",
            "original_max_position_embeddings",
            "seq_len",
            "factors_used",
        )
    )
    base = "" if scaling.base is None else f", base {scaling.base:g}"
    m = "" if attention is None else f", cos and sin scaled by m = {attention:.6g}"
    start = "" if offset in (None, 0) else f", row for position p holds position p + {offset}"
    held = f" (cache {layout})" if layout else ""
    if convention is None and layout == "freqs":
        pairing = "pairs the cache does not name"
        held = (
            " (cache freqs: one column per pair, which gpt-oss applies to halves (i, i + d/2) "
            "and a complex freqs_cis to neighbours (2i, 2i + 1); --convention or the config's "
            "model_type says which)"
        )
    return Finding(
        None,
        f"RoPE with {pairing}{held}, {width}{base}, {kind}"
        + (f" ({params})" if params else "")
        + m
        + (f" (logits × {attention * attention:.6g})" if attention not in (None, 1.0) else "")
        + start,
        False,
    )


def assumed_parameters(scaling: Scaling) -> list[Finding]:
    """The sentence of the identified method on what the cache does not fix, if it assumed any."""
    method = by_name(scaling.type)
    text = None if method is None or not scaling.assumed else method.assumed(scaling)
    return [] if text is None else [Finding(None, text, False)]


def structure_findings(
    still_bad: tuple[int, ...],
    offset: int | None,
    reversed_: bool,
    bad_pairs: list[int],
    amplitude: float | None,
    attention: float | None,
    what: str,
) -> list[Finding]:
    found = []
    if still_bad:
        found.append(
            Finding(
                "unrotated_not_identity",
                f"{what} {listed(still_bad)} do not rotate but are not the identity (cos ≠ 1): "
                "components past the rotary width must pass through unchanged",
                True,
            )
        )
    if offset is None:
        found.append(
            Finding(
                "not_identity_at_zero",
                "the rotation at position 0 is not the identity: no integer offset explains "
                "every pair's phase at position 0 (a phase added, or cos and sin swapped)",
                True,
            )
        )
    if reversed_:
        found.append(
            Finding(
                "reversed",
                "the angles decrease with position (sin negated): relative, but the opposite "
                "rotation to every library's convention, so trained weights see reversed offsets",
                True,
            )
        )
    if bad_pairs and amplitude is not None and attention is not None:
        found.append(
            Finding(
                "amplitude",
                f"cos² + sin² ≠ m² = {attention * attention:.6g} at pairs {listed(bad_pairs)} "
                f"(off by up to {amplitude:.2g}): not a rotation times one factor",
                True,
            )
        )
    return found


def offset_findings(offset: int | None, positions_given: bool, config_given: bool) -> list[Finding]:
    """The offset rule (both audits, docs/reference/exit-statuses.md): rows shifted by a whole
    offset are harmless when q and k share the cache (q·k depends on the difference alone), and
    a fault when the caller (positions stated with the rows) or a config says the row for
    position 0 is the identity.

    >>> [f.fault for f in offset_findings(1, False, False)]
    [False]
    >>> [f.bug for f in offset_findings(1, False, True)]
    ['position_offset']
    >>> offset_findings(0, True, True)
    []
    """
    if offset in (None, 0):
        return []
    shift = f"the row for position p is rotated as position p + {offset}"
    said_by = [
        who
        for who, said in (
            ("the positions stated with the rows", positions_given),
            ("the config", config_given),
        )
        if said
    ]
    if not said_by:
        return [
            Finding(
                None,
                f"{shift} (positions counted from {offset}, or a cache sliced from row {offset}): "
                "harmless when q and k share the cache, since q·k depends on the difference of "
                "positions alone; a fault where position 0 must be the identity (state the "
                "positions, or give the config)",
                False,
            )
        ]
    return [
        Finding(
            "position_offset",
            f"{shift}, but {' and '.join(said_by)} {'say' if len(said_by) > 1 else 'says'} "
            "position 0 is the identity: positions are "
            "shifted (counted from 1, or a cache sliced at the wrong start); relative only if q "
            "and k are shifted alike",
            True,
        )
    ]


def layout_findings(
    layout: str,
    gap: float,
    row: int | None,
    moving: tuple[int, ...],
    positions: np.ndarray,
    what: str,
) -> list[Finding]:
    """Rows where the layout read from a sample does not hold."""
    found = []
    if row is not None:
        found.append(
            Finding(
                "layout_broken",
                f"each pair's two {what} ({layout}) are equal on the sampled rows but differ by "
                f"{gap:.2g} from position {positions[row]}: not one frequency per pair there",
                True,
            )
        )
    if moving:
        found.append(
            Finding(
                "unrotated_not_identity",
                f"{what} {listed(moving)} are still on the sampled rows but rotate elsewhere",
                True,
            )
        )
    return found


def pairing_findings(
    convention: str | None,
    given_by: ConventionSource | None,
    layout: str | None,
    kind: str = "cache",
) -> list[Finding]:
    """A consumer whose pairing the cache's columns do not match, or a function whose pair
    blocks are not rotations; given_by: where the convention came from."""
    if layout is None or convention is None or given_by is None:
        return []
    source = given_by.words
    if kind == "function":
        if layout == "cat(freqs,freqs)":
            return []
        return [
            Finding(
                "interleaved_frequencies_with_rotate_half",
                f"the function pairs components as {convention}, but the two sides of each "
                "pair turn at different frequencies (its cos and sin come from a cache laid out "
                "for the other pairing): not a rotation, so q·k is no longer a function of the "
                "distance (relative position is lost)",
                True,
            )
        ]
    if convention == "rotate_half" and layout == "repeat_interleave":
        return [
            Finding(
                "interleaved_frequencies_with_rotate_half",
                "the cache repeats each frequency in columns 2i and 2i + 1 (interleaved), but "
                f"the consumer ({source}) pairs components (i, i + d/2): each pair then gets cos "
                "and sin of two different frequencies, which is not a rotation, so q·k is no "
                "longer a function of the distance (relative position is lost); a rotate_half "
                "consumer needs cat(freqs, freqs) (the conversion mix-up of llama.cpp #2376, "
                "TinyLlama #24)",
                True,
            )
        ]
    if convention == "rotate_half" and layout == "freqs" and given_by is ConventionSource.STATED:
        # Not a fault: as it is, a cache half the head's width does not multiply the head (a
        # shape error, not a silent one); gpt-oss's _apply_rotary_emb applies column i to both
        # halves, which is rotate_half's rotation.
        return [
            Finding(
                None,
                f"the cache holds one column per pair and the consumer ({source}) pairs "
                "(i, i + d/2): column i turns components i and i + d/2, as gpt-oss's "
                "_apply_rotary_emb applies it; code that multiplies the head by the cache as it "
                "is needs cat(freqs, freqs)",
                False,
            )
        ]
    # A stated interleaved consumer reads a cat(freqs, freqs) cache as it is: wrong. A config's
    # rope_interleave means code that expands the cache itself (DeepSeek-V3), so no fault.
    if (
        convention == "interleaved"
        and layout == "cat(freqs,freqs)"
        and given_by is ConventionSource.STATED
    ):
        return [
            Finding(
                "interleaved_frequencies_with_rotate_half",
                "the cache is cat(freqs, freqs), but the consumer pairs (2i, 2i + 1): read "
                "directly, pair i gets cos of θ_2i and sin of θ_2i+1; it must expand "
                "cos[:, :d/2] itself, as DeepSeek-V3's apply_rotary_pos_emb_interleave does",
                True,
            )
        ]
    return []


def precision_findings(
    stored: str,
    accuracy: Accuracy,
    amplitude: float,
    inv_rounded: str | None,
    positions_rounded: str | None,
    repeats: tuple[int, int] | None,
    max_error: float,
) -> list[Finding]:
    """The precision faults and notes; max_error: the largest error against the intended cache."""
    found = []
    if positions_rounded is not None:
        where = f"; rows for positions {repeats[0]} and {repeats[1]} are equal" if repeats else ""
        limit = 2048 if positions_rounded == "float16" else 256
        found.append(
            Finding(
                f"{'fp16' if positions_rounded == 'float16' else 'bf16'}_positions",
                f"positions were rounded to {positions_rounded} before the product: past "
                f"{limit} each row is computed at the nearest {positions_rounded} number "
                f"(Megatron-LM #535){where}",
                True,
            )
        )
    if inv_rounded is not None:
        found.append(
            Finding(
                f"{'bf16' if inv_rounded == 'bfloat16' else 'fp16'}_inv_freq",
                f"inv_freq was rounded to {inv_rounded} before the product (transformers "
                f"#29496): each frequency off by up to {2.0 ** -(8 if inv_rounded == 'bfloat16' else 11):.1g} "
                f"relative, so angles drift by that fraction of p·θ (entries off by up to "
                f"{max_error:.2g} in this cache)",
                True,
            )
        )
    if accuracy.grade == "computed in 16 bits":
        found.append(
            Finding(
                "fp16_cache",
                f"the angles were computed in {accuracy.computed_in} (gpt-neox #1003: cos off by "
                f"0.78): error {accuracy.max_error:.2g} at position {position_words(accuracy.worst_position)}, "
                f"{growth_words(accuracy, amplitude)}",
                True,
            )
        )
    elif accuracy.grade == NOT_ROPE:
        found.append(
            Finding(
                "not_rope",
                f"entries are off by {accuracy.max_error:.2g} (at position "
                f"{position_words(accuracy.worst_position)}): more than any arithmetic format explains",
                True,
            )
        )
    elif accuracy.grade == "computed in float32":
        found.append(
            Finding(
                None,
                f"computed in float32 (the angle p·θ rounded to float32, as torch code does): "
                f"error {accuracy.max_error:.2g} at position {position_words(accuracy.worst_position)}, "
                f"{growth_words(accuracy, amplitude)}",
                False,
            )
        )
    if stored in ("float16", "bfloat16") and accuracy.grade != "computed in 16 bits":
        found.append(
            Finding(
                "fp16_stored" if stored == "float16" else "bf16_stored",
                f"the cache is stored in {stored}, computed in wider arithmetic and rounded once: "
                f"every entry within {2.0 ** -(11 if stored == 'float16' else 8) * amplitude:.2g}, "
                "the same at every position (transformers returns cos and sin in the "
                "activations' dtype); not the gpt-neox #1003 fault, where the angles themselves "
                "are computed in 16 bits",
                False,
            )
        )
    return found


def repeated_frequencies(theta: np.ndarray, bound: np.ndarray, layout: str | None) -> list[Finding]:
    """Pairs 2k and 2k + 1 sharing one frequency: a cache laid out for interleaved pairs
    (repeat_interleave: θ0, θ0, θ1, θ1, ...) whose columns were then duplicated for
    rotate_half, so each rotate_half pair gets θ_{i//2} (llama.cpp #2376). No scaling method
    repeats a frequency.

    >>> t = 10000.0 ** (-(np.arange(32) // 2) * 2 / 64)
    >>> [f.bug for f in repeated_frequencies(t, np.full(32, 1e-9), "cat(freqs,freqs)")]
    ['interleaved_frequencies_with_rotate_half']
    >>> repeated_frequencies(10000.0 ** (-np.arange(32) * 2 / 64), np.full(32, 1e-9), None)
    []
    """
    n = len(theta)
    if n < 4 or n % 2:
        return []
    even, odd = theta[0::2], theta[1::2]
    room = bound[0::2] + bound[1::2] + 1e-6 * np.abs(even)
    if not np.all(np.abs(even - odd) <= room) or np.allclose(even, even[0], rtol=1e-6):
        return []
    ratio = float(np.median(even[1:] / even[:-1]))
    base = ratio ** (-n) if 0 < ratio < 1 else None
    of_base = "" if base is None else f" (base {base:.6g} over {2 * n} components)"
    held = f"the cache ({layout}) " if layout else "the function "
    return [
        Finding(
            "interleaved_frequencies_with_rotate_half",
            f"{held}gives pairs 2k and 2k + 1 the same frequency θ_k: only {n // 2} distinct "
            f"frequencies{of_base} for {n} pairs, in the order of an interleaved "
            "(repeat_interleave) layout, duplicated for rotate_half pairs (i, i + d/2); each "
            "pair rotates, but pair i turns at θ_{i//2} where the model expects θ_i, so the "
            "slow half of the frequencies is lost (the layout mix-up of llama.cpp #2376)",
            True,
        )
    ]


def _still_pairs_fit(columns: Columns) -> bool:
    """Whether the still columns pair among themselves in the layout read over every column:
    (j, j + w/2) for cat(freqs,freqs), (2i, 2i + 1) for repeat_interleave."""
    w, still = columns.width, set(columns.still)
    if w % 2 or not still:
        return False
    if columns.layout == "cat(freqs,freqs)":
        pairs = [(j, j + w // 2) for j in range(w // 2)]
    elif columns.layout == "repeat_interleave":
        pairs = [(2 * i, 2 * i + 1) for i in range(w // 2)]
    else:
        return False
    return all((a in still) == (b in still) for a, b in pairs)


def one_array_in_16_bits(found: list[Finding], have: str, precision: str) -> list[Finding]:
    """With cos or sin alone stored in 16 bits, each angle is read back through one rounded
    value (no cos² + sin² to hold it to), and the fits of phase, amplitude and arithmetic that
    would name a fault are not reliable (transformers' bfloat16 caches, read one array at a
    time, look computed in 16 bits): what would be a fault is undecided, and the other array
    decides it."""
    if precision not in ("float16", "bfloat16") or not any(f.fault for f in found):
        return found
    other = "sin" if have == "cos" else "cos"
    decided_by = f"the {other} array (a second file or --key)"
    text = (
        f"{have} alone, stored in {precision}: the phase, amplitude and arithmetic read from one "
        "rounded array cannot be told from a 16-bit computation or a scaled cache, so the "
        f"faults above are undecided; give the {other} array to decide"
    )
    undecided = [Finding(f.bug, f.text, False, decided_by) if f.fault else f for f in found]
    return [*undecided, Finding(None, text, False, decided_by)]


def precision_within_fit(found: list[Finding], have: str) -> list[Finding]:
    """With cos or sin alone, the frequencies are fitted from angles rebuilt from that one
    array, loosely for pairs whose values barely move (a slow pair's cos) or whose rows alias.
    Where each pair's θ refitted to the array's own values (one_array.through_origin) leaves
    errors a computation in float32 or finer explains, the precision grade was the fit's, not
    the cache's (transformers' Llama 3.1 cos, every 2nd row): the precision fault is
    undecided, and the other array decides it."""
    other = "sin" if have == "cos" else "cos"
    decided_by = f"the {other} array (a second file or --key)"
    note = (
        f" (undecided: {have} alone holds the frequencies loosely; with each pair's frequency "
        f"refitted to the {have} values, a computation in float32 or finer explains every entry)"
    )
    return [
        Finding(f.bug, f.text + note, False, decided_by)
        if f.fault and f.bug in ("fp16_cache", "not_rope")
        else f
        for f in found
    ]


def unseen_slow_pairs(
    found: list[Finding], columns: Columns, precision: str, held: float | None = None
) -> list[Finding]:
    """With cos alone, columns whose cos is the same on every row and that pair among
    themselves in the cache's layout may be pass-through components or pairs turning too
    slowly to move a cos stored in this precision (bfloat16 rounds cos x to 1 below x ≈ 0.06):
    the rotary width, the fitted base and scaling, and the grading read from the other pairs
    may then be wrong, so what they would fault is undecided, and the sin array decides it.
    held: the one value those columns hold, when it is the cache's amplitude m rounded rather
    than 1 (YaRN's m·cos x rounds to m: transformers' YaRN cache for a bfloat16 model); None
    when they hold 1."""
    if not _still_pairs_fit(columns) or (columns.still_not_identity and held is None):
        return found
    width = columns.rotary_dim
    value = "1" if held is None else f"{held:.6g} (the amplitude m, rounded)"
    text = (
        f"columns {listed(columns.still)} hold cos = {value} on every row and pair among "
        f"themselves ({columns.layout}): with cos alone they cannot be told from pairs turning "
        f"too slowly to move a {precision} cos, so the rotary width is {width} to "
        f"{columns.width}, and what was read from the other pairs (base, scaling, arithmetic) "
        "may be wrong; give the sin array to decide"
    )
    undecided = [Finding(f.bug, f.text, False, DECIDED_BY_SIN) if f.fault else f for f in found]
    return [*undecided, Finding(None, text, False, DECIDED_BY_SIN)]


def alias_finding(moved: tuple[int, ...], step: int) -> list[Finding]:
    if not moved or step <= 1:
        return []
    return [
        Finding(
            None,
            f"rows are {step} positions apart, so {'pairs' if len(moved) > 1 else 'pair'} "
            f"{listed(moved)} {'turn' if len(moved) > 1 else 'turns'} more than π between rows; "
            "their frequencies were read as the continuation of the slower pairs' progression",
            False,
        )
    ]


def attention_undecided(attention: AttentionReading) -> list[Finding]:
    if attention.verdict != "undecided":
        return []
    expected = (
        "" if attention.expected is None else f" ({attention.rule} gives {attention.expected:.6g})"
    )
    return [
        Finding(
            "attention_factor",
            f"cos and sin carry m = {attention.value:.6g}{expected}: without the config this "
            "cannot be told from the factor dropped (vllm #48623) or moved into the softmax "
            "scale (DeepSeek's mscale_all_dim); give the config to decide",
            False,
            DECIDED_BY_CONFIG,
        )
    ]


def attention_unexpected(attention: AttentionReading) -> list[Finding]:
    """Without a config: YaRN's factor squared, or m ≠ 1 where the method scales nothing."""
    m, e = attention.value, attention.expected
    if attention.verdict == "applied twice" and e is not None:
        return [
            Finding(
                "yarn_factor_twice",
                f"YaRN's attention factor is applied twice: cos and sin carry m = {m:.6g} = "
                f"{e:.6g}² ({attention.rule}), so logits scale by {m * m:.6g} instead of "
                f"{e * e:.6g} (sglang #33558: 1.4852 became 2.2058)",
                True,
            )
        ]
    if attention.verdict != "unexpected" or e is None:
        return []
    return [
        Finding(
            "attention_factor",
            f"cos and sin carry m = {m:.6g} (logits × {m * m:.6g}), but {attention.rule} gives "
            f"{attention.expected:.6g}",
            True,
        )
    ]


def bad_amplitude_pairs(pair_amplitude: np.ndarray | None, tolerance: float) -> list[int]:
    if pair_amplitude is None:
        return []
    return [int(j) for j in np.flatnonzero(pair_amplitude > tolerance)]
