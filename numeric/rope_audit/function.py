"""audit_rope_function: identify a black-box apply_rope(x, positions) by probing it.

The probe (numeric.rope_audit.probe) reads every pair's 2×2 block at every position; the
pairing it finds names the convention (pairs (i, i + d/2): rotate_half; (2i, 2i + 1):
interleaved), and the blocks read as a cache that the cache audit identifies. What only a
function shows is checked here: components that mix with more than one other, entries outside
the pairs' blocks, components past the rotary width that are not left unchanged, and a
pairing other than the one expected (the model's weights permuted for the other convention).
"""

from __future__ import annotations

from collections.abc import Callable
from numbers import Integral

import numpy as np

from numeric.audit.findings import Finding
from numeric.audit.precision import rounding_bound
from numeric.audit.quiet import quiet
from numeric.rope.floats import unit_roundoff
from numeric.rope_audit.columns import Columns, find_columns
from numeric.rope_audit.config_file import read_config
from numeric.rope_audit.findings import ConventionSource, listed
from numeric.rope_audit.identify import Consumer, audit_source, check_convention, sample_rows
from numeric.rope_audit.probe import (
    MAX_ENTRIES,
    MAX_HEAD_DIM,
    MAX_POSITIONS,
    Probe,
    check_dtype,
    probe,
)
from numeric.rope_audit.result import RopeAudit
from numeric.rope_audit.source import CacheSource, check_positions

DEFAULT_POSITIONS = 4096


def pairing_name(pairs: tuple[tuple[int, int], ...]) -> str | None:
    """ "rotate_half" for pairs (i, i + n), "interleaved" for (2i, 2i + 1), over the first 2n
    components; None for any other pairing."""
    n = len(pairs)
    if n == 0:
        return None
    if list(pairs) == [(i, i + n) for i in range(n)]:
        return "rotate_half"
    if list(pairs) == [(2 * i, 2 * i + 1) for i in range(n)]:
        return "interleaved"
    return None


def _head_dim(value: object) -> int:
    if (
        not isinstance(value, Integral)
        or isinstance(value, bool)
        or not 2 <= value <= MAX_HEAD_DIM
        or value % 2
    ):
        raise ValueError(
            f"head_dim must be an even integer from 2 to {MAX_HEAD_DIM}, got {value!r}"
        )
    return int(value)


def _structure(found: Probe, dtype: str, expected: str | None, probed: str | None) -> list[Finding]:
    tolerance = 64 * unit_roundoff(dtype)
    out = []
    if found.mixing:
        out.append(
            Finding(
                "not_rope",
                f"components {listed(found.mixing)} mix with more than one other component: "
                "not a rotation by pairs",
                True,
            )
        )
    if found.leak > tolerance:
        out.append(
            Finding(
                "not_rope",
                f"entries outside the pairs' 2×2 blocks reach {found.leak:.2g}",
                True,
            )
        )
    moved = [k for k, off in found.still_off.items() if off > tolerance]
    if moved:
        out.append(
            Finding(
                "unrotated_not_identity",
                f"components {listed(moved)} do not rotate but are not left unchanged (off by "
                f"up to {max(found.still_off[k] for k in moved):.2g}): components past the rotary "
                "width must pass through",
                True,
            )
        )
    if expected is not None and probed is not None and expected != probed:
        out.append(
            Finding(
                "wrong_permutation",
                f"the function pairs components {_pairs_words(probed)}, but the model expects "
                f"{_pairs_words(expected)}: its q/k weights are laid out for the other convention "
                "(convert them with numeric.permute_heads per head, n_kv_heads for K: "
                "llama.cpp #2376, TinyLlama #24)",
                True,
            )
        )
    if probed is None and found.pairs:
        shown = ", ".join(f"({a}, {b})" for a, b in found.pairs[:4])
        out.append(
            Finding(
                None,
                f"the pairs are neither rotate_half's (i, i + d/2) nor interleaved's (2i, 2i + 1): "
                f"{shown}{' ...' if len(found.pairs) > 4 else ''}",
                False,
            )
        )
    return out


def _pairs_words(convention: str) -> str:
    return (
        "(i, i + d/2) (rotate_half)"
        if convention == "rotate_half"
        else "(2i, 2i + 1) (interleaved)"
    )


def probe_function(
    apply_rope: Callable[[np.ndarray, np.ndarray], np.ndarray],
    *,
    head_dim: int,
    positions: object = None,
    dtype: str = "float32",
    config: object = None,
    layer_type: str | None = None,
    convention: str | None = None,
) -> tuple[Probe, np.ndarray, RopeAudit]:
    """(the probe, the positions probed, the audit): audit_rope_function with what it read."""
    if not callable(apply_rope):
        raise TypeError(
            f"apply_rope must be a callable apply_rope(x, positions) -> rotated x, got "
            f"{type(apply_rope).__name__}"
        )
    d = _head_dim(head_dim)
    dtype = check_dtype(dtype)
    expected = check_convention(convention)
    if positions is None:
        positions = DEFAULT_POSITIONS
    if isinstance(positions, Integral) and not isinstance(positions, bool):
        if not 2 <= positions <= MAX_POSITIONS:
            raise ValueError(
                f"positions must be a count from 2 to {MAX_POSITIONS}, got {positions}"
            )
        positions = np.arange(int(positions))
    at = check_positions(positions, len(np.asarray(positions)))
    if len(at) < 2 or len(at) > MAX_POSITIONS:
        raise ValueError(f"positions must hold 2 to {MAX_POSITIONS} positions, got {len(at)}")
    if len(at) * d > MAX_ENTRIES:
        raise ValueError(
            f"{len(at)} positions × head_dim {d} is more than the {MAX_ENTRIES} entries a probe "
            f"keeps; probe at most {MAX_ENTRIES // d} positions (spread them: positions=...)"
        )
    facts = None if config is None else read_config(config, layer_type=layer_type)  # type: ignore[arg-type]
    if expected is None and facts is not None and facts.convention is not None:
        expected = facts.convention
    found = probe(apply_rope, head_dim=d, positions=at, dtype=dtype)
    probed = pairing_name(found.pairs)
    extra = _structure(found, dtype, expected, probed)
    source = CacheSource(found.cos, found.sin, at, "apply_rope")
    precision = source.precision()
    if found.pairs:
        columns = find_columns(source, 4 * rounding_bound(precision, 1.0), sample_rows(len(at)))
    else:
        empty = np.zeros(0, dtype=np.int64)
        columns = Columns("freqs", empty, empty, found.unpaired, (), 0, 0.0)
    consumer = Consumer(probed, ConventionSource.PROBED, d, found.pairs, found.unpaired)
    result = audit_source(
        source, columns, consumer, facts, precision, kind="function", extra=tuple(extra)
    )
    return found, at, result


@quiet
def audit_rope_function(
    apply_rope: Callable[[np.ndarray, np.ndarray], np.ndarray],
    *,
    head_dim: int,
    positions: object = None,
    dtype: str = "float32",
    config: object = None,
    layer_type: str | None = None,
    convention: str | None = None,
) -> RopeAudit:
    """Probe apply_rope(x, positions) -> rotated x with basis vectors and identify it.

    apply_rope: any callable taking x of shape (..., len(positions), head_dim) and the
    positions (1-D int64), returning the rotated x (NumPy arrays in and out; wrap a torch or
    JAX function in a line); head_dim: the head's width; positions: where to probe (default
    0 .. 4095); dtype: the dtype of x ("float64", "float32", "float16", "bfloat16" sent as
    float32 values); config: a Hugging Face config (dict or path) to check against; convention:
    the pairing the model expects ("rotate_half" or "interleaved"; default: the config's
    rope_interleave, else none checked).

    >>> from numeric.rope import rope_function, rope_frequencies
    >>> f = rope_frequencies({"head_dim": 16, "rope_theta": 10000.0})
    >>> result = audit_rope_function(rope_function(f.inv_freq), head_dim=16, positions=64)
    >>> result.convention, result.base, result.sound
    ('rotate_half', 10000.0, True)
    """
    return probe_function(
        apply_rope,
        head_dim=head_dim,
        positions=positions,
        dtype=dtype,
        config=config,
        layer_type=layer_type,
        convention=convention,
    )[2]
