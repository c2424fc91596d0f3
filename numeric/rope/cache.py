"""cos/sin caches as RoPE implementations build them, in either layout, in any format.

Layouts (the cache's columns for the rotary pairs i = 0 .. n − 1, n = rotary_dim/2):
- "rotate_half": cat(freqs, freqs), so columns j and j + n both hold pair j (transformers'
  LlamaRotaryEmbedding.forward, GPT-NeoX);
- "interleaved": each pair's column repeated twice in place, [θ0, θ0, θ1, θ1, ...] (GPT-J's
  repeat_interleave in models/gptj/modeling_gptj.py, apply_rotary_pos_emb).

Arithmetic (how the angles and their cos/sin are computed before the cast to dtype):
- "exact": m·θ_i for the given θ_i, reduced modulo 2π without error (numeric.angles), then
  cos and sin in float64: each entry within about 1e-16 of the exact value, rounded once;
- "float32": as LlamaRotaryEmbedding.forward: positions and inv_freq in float32, the product
  rounded to float32, cos and sin of it rounded to float32 (torch's float32 cos/sin were
  within one ulp of these on every angle compared), times the attention factor in float32;
- "float16", "bfloat16": every one of those steps rounded to that format instead (a cache
  computed in half precision: gpt-neox #1003).
inv_freq_format rounds the frequencies first (inv_freq left in bf16: transformers #29496), and
positions_format the positions (positions cast to half precision: Megatron-LM #535); a
position past the format's range becomes inf and its row NaN, as in torch.

>>> cos, sin = rope_cache([1.0, 0.01], 3, dtype="float64", arithmetic="exact")
>>> cos.shape, float(cos[1, 0]), float(cos[1, 2]), float(sin[2, 1])
((3, 4), 0.5403023058681398, 0.5403023058681398, 0.01999866669333308)
"""

from __future__ import annotations

from collections.abc import Iterator
from numbers import Integral

import numpy as np
from numpy.typing import ArrayLike

from numeric import validate
from numeric.angles import Frequencies, reduced_angles
from numeric.rope.floats import check_format, round_to, storage_dtype
from numeric.shown import shown

LAYOUTS = ("rotate_half", "interleaved")
CACHE_ARITHMETICS = ("exact", "float32", "float16", "bfloat16")
BLOCK = 256  # positions p = q·BLOCK + r: e^{ipθ} = e^{iqBLOCKθ}·e^{irθ}
_ROWS = 8192  # rows computed at a time, so temporaries stay a few MiB


def check_layout(value: object) -> str:
    """Return value if it is 'rotate_half' or 'interleaved', else raise ValueError."""
    if value not in LAYOUTS:
        raise ValueError(f"layout must be 'rotate_half' or 'interleaved', got {shown(value)}")
    return str(value)


def check_frequencies(inv_freq: ArrayLike) -> np.ndarray:
    """inv_freq as a 1-D float64 array of finite non-negative numbers (exact values kept)."""
    freqs = np.asarray(inv_freq)
    if freqs.dtype.kind not in "fiu" or freqs.ndim != 1 or freqs.size == 0:
        raise ValueError(
            f"inv_freq must be a non-empty 1-D array of numbers, got {freqs.dtype} {freqs.shape}"
        )
    freqs = freqs.astype(np.float64)
    if not np.all(np.isfinite(freqs)) or np.any(freqs < 0):
        raise ValueError("inv_freq must hold finite non-negative numbers")
    return freqs


def check_positions(positions: int | ArrayLike) -> np.ndarray:
    """positions as a 1-D int64 array: a count n means 0 .. n − 1; integers below 2**31 in size."""
    if isinstance(positions, Integral) and not isinstance(positions, bool):
        return np.arange(validate.max_len(positions, "positions"), dtype=np.int64)
    found = np.asarray(positions)
    if found.ndim != 1 or not (np.issubdtype(found.dtype, np.integer) or found.size == 0):
        raise ValueError(
            "positions must be a count or a 1-D array of integers, "
            f"got {found.dtype} of shape {found.shape}"
        )
    found = found.astype(np.int64)
    if found.size and int(np.abs(found).max()) >= validate.MAX_POSITION:
        raise ValueError("positions must stay below 2**31 in magnitude")
    return found


def _split(x: np.ndarray, bits: int) -> tuple[np.ndarray, np.ndarray]:
    """x as hi + rest, hi holding x's leading `bits` bits; both parts exact."""
    mantissa, exponent = np.frexp(x)
    hi = np.ldexp(np.rint(np.ldexp(mantissa, bits)), exponent - bits)
    return hi, x - hi


def frequency_pieces(freqs: np.ndarray) -> Frequencies:
    """Float64 frequencies split into three pieces with exact products by positions < 2**31."""
    w1, rest = _split(freqs, 22)
    w2, w3 = _split(rest, 22)
    return Frequencies(freqs, w1, w2, w3)


def exact_rotations(positions: np.ndarray, freqs: np.ndarray) -> np.ndarray:
    """e^{i·p·θ_j} as complex128, shape (positions, pairs), each within ~1e-16 of the exact value.

    positions: float64 integers below 2**31 in size, or ±inf (giving NaN); freqs: float64 θ_j
    taken at their exact binary values, with max|p|·max θ below 2**31. Only the block starts
    q·BLOCK and the offsets r < BLOCK need sin and cos; each entry is then one complex multiply.
    """
    finite = np.isfinite(positions)
    whole = np.where(finite, positions, 0.0)
    biggest = float(np.abs(whole).max(initial=0.0)) * float(freqs.max(initial=0.0))
    if biggest >= 2.0**31:
        raise ValueError(f"position × frequency reaches {biggest:.3g}; it must stay below 2**31")
    pieces = frequency_pieces(freqs)
    offsets = np.exp(1j * reduced_angles(np.arange(BLOCK, dtype=np.float64)[:, None], pieces))
    n = whole.size
    if n > 1 and finite.all() and np.all(np.diff(whole) == 1):
        # A run of positions: whole blocks at once, by broadcasting, no gathers.
        first = np.floor(whole[0] / BLOCK)
        starts = np.arange(first, np.floor(whole[-1] / BLOCK) + 1) * BLOCK
        at_starts = np.exp(1j * reduced_angles(starts[:, None], pieces))
        grid = (at_starts[:, None, :] * offsets[None, :, :]).reshape(-1, freqs.size)
        skip = int(whole[0] - first * BLOCK)
        return grid[skip : skip + n]
    block = np.floor(whole / BLOCK)
    starts, which = np.unique(block, return_inverse=True)
    at_starts = np.exp(1j * reduced_angles(starts[:, None] * BLOCK, pieces))
    values = at_starts[which.reshape(-1)] * offsets[(whole - block * BLOCK).astype(np.int64)]
    values[~finite] = np.nan
    return values


def _emulated_half_cache(
    positions: np.ndarray, freqs: np.ndarray, fmt: str, attention_factor: float
) -> tuple[np.ndarray, np.ndarray]:
    """(cos, sin) per pair, every step rounded to fmt, as arrays of fmt's storage dtype."""
    if fmt == "float32":
        # float32 products are correctly rounded in NumPy as in torch; cos and sin are taken
        # in float64 of the float32 angle and rounded once.
        angles = positions.astype(np.float32)[:, None] * freqs.astype(np.float32)[None, :]
        wide = angles.astype(np.float64)
        with np.errstate(invalid="ignore"):
            cos, sin = np.cos(wide).astype(np.float32), np.sin(wide).astype(np.float32)
        if attention_factor != 1:
            m = np.float32(attention_factor)
            cos *= m
            sin *= m
        return cos, sin
    p = round_to(positions, fmt).astype(np.float64)
    f = round_to(freqs, fmt).astype(np.float64)
    # A product of two numbers of at most 24 bits is exact in float64: one rounding to fmt.
    with np.errstate(invalid="ignore"):
        angles = round_to(p[:, None] * f[None, :], fmt).astype(np.float64)
        cos = round_to(np.cos(angles), fmt)
        sin = round_to(np.sin(angles), fmt)
    m = float(round_to(attention_factor, fmt))
    if m != 1:
        cos = round_to(cos.astype(np.float64) * m, fmt)
        sin = round_to(sin.astype(np.float64) * m, fmt)
    return cos, sin


def _blocks(n: int) -> Iterator[slice]:
    for a in range(0, n, _ROWS):
        yield slice(a, min(a + _ROWS, n))


def rope_cache(
    inv_freq: ArrayLike,
    positions: int | ArrayLike,
    *,
    layout: str = "rotate_half",
    dtype: str = "float32",
    arithmetic: str = "float32",
    attention_factor: float = 1.0,
    inv_freq_format: str | None = None,
    positions_format: str | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The (cos, sin) cache, each of shape (len(positions), 2·len(inv_freq)).

    inv_freq: θ_i of the rotary pairs (e.g. rope_frequencies(config).inv_freq), taken at their
    exact values; positions: a count n (0 .. n − 1) or 1-D integers; layout: "rotate_half" or
    "interleaved"; dtype: the cache's format ("float64", "float32", "float16" or "bfloat16",
    the last held in float32); arithmetic: "exact", "float32", "float16" or "bfloat16" (see
    the module docstring); attention_factor: multiplies cos and sin; inv_freq_format,
    positions_format: a format to round the frequencies or positions to first, or None.
    """
    freqs = check_frequencies(inv_freq)
    pos = check_positions(positions)
    layout = check_layout(layout)
    out_dtype = storage_dtype(check_format(dtype, "dtype"))
    if arithmetic not in CACHE_ARITHMETICS:
        raise ValueError(
            f"arithmetic must be one of {', '.join(CACHE_ARITHMETICS)}, got {shown(arithmetic)}"
        )
    factor = validate.finite(attention_factor, "attention_factor")
    if inv_freq_format is not None:
        freqs = round_to(freqs, check_format(inv_freq_format, "inv_freq_format")).astype(np.float64)
    place = pos.astype(np.float64)
    if positions_format is not None:
        place = round_to(place, check_format(positions_format, "positions_format")).astype(
            np.float64
        )
    pairs = freqs.size
    validate.fits_in_memory(
        2 * pos.size * 2 * pairs * out_dtype.itemsize, f"a ({pos.size}, {2 * pairs}) cache"
    )
    cos = np.empty((pos.size, 2 * pairs), dtype=out_dtype)
    sin = np.empty((pos.size, 2 * pairs), dtype=out_dtype)
    # The interleaved columns 2i and 2i + 1, or the rotate_half columns i and i + n.
    first, second = (
        (slice(0, None, 2), slice(1, None, 2))
        if layout == "interleaved"
        else (slice(0, pairs), slice(pairs, None))
    )
    for rows in _blocks(pos.size):
        if arithmetic == "exact":
            values = exact_rotations(place[rows], freqs)
            if factor != 1:
                values = values * factor
            halves = (values.real, values.imag)
        else:
            halves = _emulated_half_cache(place[rows], freqs, arithmetic, factor)
        for out, half in zip((cos, sin), halves, strict=True):
            if dtype == "bfloat16":
                half = round_to(half, "bfloat16")
            # The cast rounds to nearest, as torch's .to(dtype) does.
            np.copyto(out[rows, first], half, casting="unsafe")
            np.copyto(out[rows, second], out[rows, first])
    return cos, sin
