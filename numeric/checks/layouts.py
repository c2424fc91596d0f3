"""Layouts, schedules and odd d_model in float64: the numeric twin of proofs/theorems/sinusoidal/layouts.py.

Rows, in the theorem's order: P is orthogonal; the concatenated table is P times the
interleaved one; P·M_k·Pᵀ shifts the concatenated table by k; tensor2tensor's schedule
rotates too; for odd d_model, zero padding has an exact linear shift diag(M_k, 1) while an
unpaired last sine has none: its best least-squares linear map misses by about |sin(k·ω_last)|.
The even tables are checked a block of rows at a time, P applied as the index permutation it is
and M_k by its 2×2 blocks: O(rows·d_model) work and memory a block, no d_model × d_model matrix.
The odd tables (small d_odd) are built whole and use dense maps.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

from numeric import validate
from numeric.blocks import block_rows, check_positions, row_blocks
from numeric.checks.rotation import rotation_residuals, rotation_tolerance
from numeric.linear_shift import best_linear_shift
from numeric.result_table import Table
from numeric.rotations import stacked_rotations
from numeric.table_audit import audit
from numeric.tables import accuracy_bound, frequencies, sinusoidal_pe

_U = 2.0**-53  # unit roundoff of float64
# The unpaired sine's best linear map must miss by more than this, relative to sin(k·ω_last),
# to count as "no map"; an exact map would miss by rounding only (about 1e-15).
NO_MAP_FLOOR = 1e-3


def concatenated_index(j: int, d_model: int) -> int:
    """Where interleaved column j (sin of pair j//2 if j is even, else its cos) sits in [sin | cos]."""
    return j // 2 if j % 2 == 0 else d_model // 2 + j // 2


def concatenated_permutation(d_model: int) -> np.ndarray:
    """P as the index array it is: entry j is concatenated_index(j, d_model), for every j at once."""
    d_model = validate.d_model(d_model)
    j = np.arange(d_model)
    return np.where(j % 2 == 0, j // 2, d_model // 2 + j // 2)


def permutation_matrix(d_model: int) -> np.ndarray:
    """P with P[concatenated_index(j), j] = 1, so that P·PE_interleaved = PE_concatenated."""
    d_model = validate.d_model(d_model)
    p = np.zeros((d_model, d_model))
    p[concatenated_permutation(d_model), np.arange(d_model)] = 1.0
    return p


def tensor2tensor_frequencies(d_model: int, *, base: float = 10000.0) -> np.ndarray:
    """ω_i = base^(−i/max(d_model/2 − 1, 1)), i = 0 .. d_model/2 − 1 (tensor2tensor's spacing)."""
    return frequencies(d_model, base=base, schedule="tensor2tensor")


def odd_tables(max_len: int, d_odd: int, *, base: float = 10000.0) -> tuple[np.ndarray, np.ndarray]:
    """(zero padded, unpaired last sine) tables for odd d_odd = 2n + 1, ω_j = base^(−2j/d_odd).

    Both come from sinusoidal_pe with the base rescaled so its frequencies are exactly these:
    base^((d_odd ± 1)/d_odd) raised to −2j/(d_odd ± 1) is base^(−2j/d_odd).
    """
    if not isinstance(d_odd, int) or isinstance(d_odd, bool) or d_odd < 3 or d_odd % 2 == 0:
        raise ValueError(f"d_odd must be an odd integer of at least 3, got {d_odd!r}")
    base = validate.base(base)
    pairs = sinusoidal_pe(max_len, d_odd - 1, base=base ** ((d_odd - 1) / d_odd))
    padded = np.hstack([pairs, np.zeros((max_len, 1))])
    unpaired = sinusoidal_pe(max_len, d_odd + 1, base=base ** ((d_odd + 1) / d_odd))[:, :-1]
    return padded, unpaired


Rows = Callable[[int, int], np.ndarray]


def _shift_residual(table: np.ndarray, matrix: np.ndarray, k: int) -> float:
    """max |matrix·row[pos] − row[pos + k]| over every pos with pos + k in the table."""
    worst = 0.0
    for a, b in row_blocks(max(0, -k), table.shape[0] - max(0, k), block_rows(matrix.shape[0])):
        worst = max(worst, float(np.abs(table[a:b] @ matrix.T - table[a + k : b + k]).max()))
    return worst


def _pair_shift_residuals(
    rows: Rows, shape: tuple[int, int], ks: tuple[int, ...], base: float, schedule: str
) -> list[float]:
    """For each k, max |M_k·row[pos] − row[pos + k]| over the interleaved float64 rows rows(a, b)
    yields: sinusoidal rows of the given shape (positions, d_model), base and schedule.

    M_k acts as its 2×2 blocks R(k·ω_i) on the pairs (the rotation twin's own check, one pass
    over the rows for all ks): O(rows·d_model) a block, never a d_model × d_model matrix.
    """
    omegas = frequencies(shape[1], base=base, schedule=schedule)
    found = rotation_residuals(
        rows, shape, np.dtype(np.float64), ks, omegas, base, "interleaved", schedule
    )
    return [worst for worst, _ in found]


def layout_table(
    *,
    d_model: int = 8,
    d_odd: int = 7,
    max_len: int = 512,
    base: float = 10000.0,
    ks: Iterable[int] = (1, 5, -3),
    odd_len: int = 20000,
    odd_ks: Iterable[int] = (1, 4000),
) -> Table:
    """One row per claim of the layouts theorem; see the module docstring.

    max_len: positions of the even-d_model tables; odd_len: positions of the odd tables, long
    enough to cover a period of the slowest frequency so the sine and cosine there are told apart.
    """
    d_model = validate.d_model(d_model)
    max_len = validate.max_len(max_len)
    odd_len = validate.max_len(odd_len, "odd_len")
    ks = tuple(validate.integer(k, "ks") for k in ks)
    odd_ks = tuple(validate.integer(k, "odd_ks") for k in odd_ks)
    for name, values, limit in (("ks", ks, max_len), ("odd_ks", odd_ks, odd_len)):
        if any(abs(k) >= limit for k in values):
            raise ValueError(f"{name} must satisfy |k| < {limit}, got {values}")
    check_positions(max_len)
    error = accuracy_bound(np.float64)
    rows = []

    # P is used as the permutation it is: column j of a row goes to column perm[j].
    perm = concatenated_permutation(d_model)
    # P·Pᵀ = diag(how many j land on each column), so P·Pᵀ = I is perm being a bijection.
    landed = np.bincount(perm, minlength=d_model)
    rows.append(("P·Pᵀ = I", "exact", float(np.abs(landed - 1).max()), 0.0))

    # The even tables are computed a block of rows at a time (start=), never whole.
    def table(layout: str = "interleaved", schedule: str = "paper") -> Rows:
        return lambda a, b: sinusoidal_pe(
            b - a, d_model, base=base, layout=layout, schedule=schedule, start=a
        )

    interleaved, concatenated = table(), table("concatenated")

    def unpermuted(a: int, b: int) -> np.ndarray:
        """Pᵀ·concat[pos] for pos = a .. b−1: the gather that undoes P."""
        return concatenated(a, b)[:, perm]

    # |P·interleaved − concat| has the entries of |interleaved − Pᵀ·concat|, permuted.
    permuted = max(
        (
            float(np.abs(interleaved(a, b) - unpermuted(a, b)).max())
            for a, b in row_blocks(0, max_len, block_rows(d_model))
        ),
        default=0.0,
    )
    rows.append(("concatenated = P·interleaved", "all rows", permuted, 2 * error))
    omegas = frequencies(d_model, base=base)
    # (P·M_k·Pᵀ)·concat[pos] − concat[pos+k] = P·(M_k·Pᵀ·concat[pos] − Pᵀ·concat[pos+k]), and
    # P only permutes entries: the residual is M_k's on the unpermuted rows.
    shape = (max_len, d_model)
    conjugated = _pair_shift_residuals(unpermuted, shape, ks, base, "paper")
    for k, residual in zip(ks, conjugated, strict=True):
        rows.append(
            (
                "(P·M_k·Pᵀ)·concat[pos] = concat[pos+k]",
                f"k = {k}",
                residual,
                rotation_tolerance(k, float(omegas.max()), error),
            )
        )

    t2t = tensor2tensor_frequencies(d_model, base=base)
    t2t_shifts = _pair_shift_residuals(
        table(schedule="tensor2tensor"), shape, ks, base, "tensor2tensor"
    )
    for k, residual in zip(ks, t2t_shifts, strict=True):
        rows.append(
            (
                "tensor2tensor ω_i: M_k·PE[pos] = PE[pos+k]",
                f"k = {k}",
                residual,
                rotation_tolerance(k, float(t2t.max()), error),
            )
        )

    padded, unpaired = odd_tables(odd_len, d_odd, base=base)
    odd_omegas = base ** (-2 * np.arange(d_odd // 2 + 1) / d_odd)
    for k in odd_ks:
        pad_map = np.eye(d_odd)
        pad_map[:-1, :-1] = stacked_rotations(k, odd_omegas[:-1])
        rows.append(
            (
                f"d_model = {d_odd}, zero padding: diag(M_k, 1)",
                f"k = {k}",
                _shift_residual(padded, pad_map, k),
                rotation_tolerance(k, float(odd_omegas.max()), error),
            )
        )
    rows = [(claim, case, value, tol, value <= tol) for claim, case, value, tol in rows]
    for k in odd_ks:
        _, fit = best_linear_shift(unpaired, k)
        relative = fit / abs(float(np.sin(k * odd_omegas[-1])))
        rows.append(
            (
                f"d_model = {d_odd}, unpaired sine: best map misses by",
                f"k = {k}",
                relative,
                NO_MAP_FLOOR,
                relative > NO_MAP_FLOOR,
            )
        )
    return Table(
        title=(
            f"layouts and schedules, d_model = {d_model} ({max_len} positions); "
            f"odd d_model = {d_odd} ({odd_len} positions)"
        ),
        headline="layouts, schedules and odd d_model",
        columns=("claim", "case", "max residual", "bound", "holds"),
        rows=tuple(rows),
        formats=("", "", ".2e", ".2e", ""),
        note=(
            "residuals must stay within their bound; the unpaired sine's best least-squares map "
            "must miss by more than its bound (residual / |sin(k·ω_last)|), which means no linear map"
        ),
        passed=all(r[-1] for r in rows),
    )


# The conventions real implementations use, each generated here from its own formula:
# (name, who uses it, where in their source, layout to build, schedule, first position, scale as
# a function of d_model). Checked against the libraries' source code (versions as in
# tests/data/real_tables/truth.json of the realdata branch: transformers 5.24.0, diffusers
# 0.42.1, fairseq 0.12.2, x-transformers 2.31.10; tensor2tensor 1.15.7).
CONVENTIONS: tuple[tuple[str, str, str, str, str, int, Callable[[int], float]], ...] = (
    (
        "paper",
        "the paper; the Annotated Transformer; NeMo; SpeechBrain; keras-hub",
        "paper section 3.5; PositionalEncoding in the Annotated Transformer, in nemo "
        "multi_head_attention.py and in speechbrain Transformer.py; keras_hub "
        "SinePositionEncoding",
        "interleaved",
        "paper",
        0,
        lambda d: 1.0,
    ),
    (
        "[sin | cos]",
        "Marian, CTRL (transformers)",
        "modeling_marian.py create_weight; modeling_ctrl.py positional_encoding",
        "concatenated",
        "paper",
        0,
        lambda d: 1.0,
    ),
    (
        "[sin | cos], tensor2tensor schedule",
        "tensor2tensor; Whisper (transformers)",
        "common_attention.py get_timing_signal_1d; modeling_whisper.py sinusoids",
        "concatenated",
        "tensor2tensor",
        0,
        lambda d: 1.0,
    ),
    (
        "[sin | cos], tensor2tensor schedule, from padding_idx + 1",
        "fairseq; M2M100, XGLM (transformers)",
        "fairseq sinusoidal_positional_embedding.py SinusoidalPositionalEmbedding: positions "
        "from padding_idx + 1 = 2",
        "concatenated",
        "tensor2tensor",
        2,
        lambda d: 1.0,
    ),
    (
        "[cos | sin], tensor2tensor schedule",
        "MusicGen (transformers)",
        "modeling_musicgen.py get_embedding",
        "cos_first",
        "tensor2tensor",
        0,
        lambda d: 1.0,
    ),
    (
        "[cos | sin]",
        "diffusers' UNet default",
        "diffusers embeddings.py Timesteps(flip_sin_to_cos=True, downscale_freq_shift=0), "
        "get_timestep_embedding",
        "cos_first",
        "paper",
        0,
        lambda d: 1.0,
    ),
    (
        "from 1",
        "DETR (transformers)",
        "modeling_detr.py DetrSinePositionEmbedding (normalize=False): positions 1, 2, …",
        "interleaved",
        "paper",
        1,
        lambda d: 1.0,
    ),
    (
        "[sin | cos], scaled by 1/√d_model",
        "x-transformers",
        "x_transformers.py ScaledSinusoidalEmbedding: a learned scale, initially dim^(−1/2)",
        "concatenated",
        "paper",
        0,
        lambda d: d**-0.5,
    ),
)
# How the conventions table names a layout the audit identified.
LAYOUT_WORDS = {
    "interleaved": "interleaved",
    "concatenated": "[sin | cos]",
    "concatenated_cos_first": "[cos | sin]",
}


def conventions_table(*, max_len: int = 512, d_model: int = 16) -> Table:
    """Each convention of CONVENTIONS built from its formula, then identified by numeric.audit
    from the numbers alone: layout, schedule, first position and scale.

    Passes when every identification matches the convention and the rotation check passes on
    every one: the shift property belongs to the (sin, cos) pairing, not to the layout,
    schedule, first position or scale.
    """
    d_model = validate.d_model(d_model)
    rows, ok = [], True
    for name, used_by, source, layout, schedule, start, scale in CONVENTIONS:
        table = sinusoidal_pe(
            max_len,
            d_model,
            layout="interleaved" if layout == "interleaved" else "concatenated",
            schedule=schedule,
            start=start,
        )
        if layout == "cos_first":
            half = d_model // 2
            table = np.hstack([table[:, half:], table[:, :half]])
        table = table * scale(d_model)
        found = audit(table)
        layout_found = {"cos_first": "concatenated_cos_first"}.get(layout, layout)
        same = (
            found.layout == layout_found
            and found.schedule == schedule
            and found.position_offset == start
            and found.scale is not None
            and abs(found.scale - scale(d_model)) <= 1e-9
        )
        passed = bool(found.rotation["passed"])
        ok &= same and passed
        rows.append(
            (
                name,
                used_by,
                source,
                LAYOUT_WORDS.get(found.layout or "", "?"),
                found.schedule or "?",
                found.position_offset if found.position_offset is not None else "?",
                float(found.scale) if found.scale is not None else float("nan"),
                passed,
            )
        )
    return Table(
        title=f"conventions of real implementations, ({max_len}, {d_model}) tables, identified by fitting",
        columns=(
            "convention",
            "used by",
            "source",
            "layout",
            "schedule",
            "first position",
            "scale",
            "shift by M_k",
        ),
        rows=tuple(rows),
        formats=("", "", "", "", "", "", ".4g", ""),
        note=(
            "each table built from its convention's formula, then identified from its numbers "
            "alone; the shift check passes on every one"
        ),
        passed=ok,
    )
