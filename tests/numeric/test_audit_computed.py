"""numeric.audit on tables computed the way libraries compute them (NumPy, step by step in their
dtypes), at the sizes and in the shapes tests/data/real_tables does not hold: 512 pairs, 1568
rows in bfloat16, 100000 rows, aliasing, a constant added, CSV at any number of digits.

Each builder follows its library's source (named in its docstring); float32 and 16-bit steps are
rounded where the library's tensors are. The truth of each table is what the builder was asked
for; the error is checked against mpmath at that truth.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from numeric.table_audit import audit, load_table

f32 = np.float32


def bf16(x: np.ndarray) -> np.ndarray:
    """x rounded to bfloat16 (nearest, ties to even), held as float32: torch's bfloat16 ops."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32)


def gptj(n: int, d: int) -> np.ndarray:
    """transformers' GPT-J create_sinusoidal_positions: inv_freq = 1/10000^(arange(0, d, 2)/d)
    and the angles in float32, [sin | cos]."""
    inv = f32(1) / np.power(f32(10000), (np.arange(0, d, 2) / d).astype(f32))
    angle = np.arange(n, dtype=f32)[:, None] * inv.astype(f32)[None, :]
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)


def fairseq(n: int, d: int, padding_idx: int | None = None, cos_first: bool = False) -> np.ndarray:
    """fairseq's get_embedding (XGLM, M2M100; MusicGen puts cos first): exp(i·-log(10000)/(h-1))
    and the angles in float32, [sin | cos], the padding row zeroed."""
    h = d // 2
    inv = np.exp(np.arange(h, dtype=f32) * f32(-math.log(10000) / (h - 1)))
    angle = np.arange(n, dtype=f32)[:, None] * inv[None, :]
    parts = [np.cos(angle), np.sin(angle)] if cos_first else [np.sin(angle), np.cos(angle)]
    table = np.concatenate(parts, axis=1)
    if padding_idx is not None:
        table[padding_idx] = 0
    return table


def interleaved(positions: np.ndarray, d: int, scale: float = 1.0) -> np.ndarray:
    """speechbrain's / NeMo's PositionalEncoding: exp(arange(0, d, 2)·-log(10000)/d) and the
    angles in float32, sin at even columns, cos at odd; NeMo's FixedPositionalEncoding then
    divides by sqrt(d)."""
    div = np.exp(np.arange(0, d, 2, dtype=f32) * f32(-(math.log(10000.0) / d)))
    angle = np.asarray(positions, dtype=f32)[:, None] * div[None, :]
    table = np.zeros((len(positions), d), f32)
    table[:, 0::2], table[:, 1::2] = np.sin(angle), np.cos(angle)
    return (table / f32(1 / scale)).astype(f32) if scale != 1.0 else table


def sincos_grid_1d(d: int, positions: np.ndarray) -> np.ndarray:
    """diffusers' get_1d_sincos_pos_embed_from_grid: float64 NumPy, omega = 1/10000^(i/(d/2))."""
    omega = 1.0 / 10000 ** (np.arange(d // 2, dtype=np.float64) / (d / 2.0))
    out = np.einsum("m,d->md", positions.astype(np.float64), omega)
    return np.concatenate([np.sin(out), np.cos(out)], axis=1)


def t2t_bf16(n: int, d: int) -> np.ndarray:
    """A tensor2tensor table computed in bfloat16 end to end (Pegasus-X with bfloat16 inputs):
    the index, the exponent, exp, the positions and the product all rounded to bfloat16."""
    h = d // 2
    step = bf16(np.float32(math.log(10000) / (h - 1)))
    inv = bf16(np.exp(bf16(bf16(np.arange(h, dtype=f32)) * -step)))
    angle = bf16(bf16(np.arange(n, dtype=f32))[:, None] * inv[None, :])
    return np.concatenate([bf16(np.sin(angle)), bf16(np.cos(angle))], axis=1)


def truth_errors(table, rows, positions, layout, shift=0.0, scale=1.0, base=10000.0):
    """max |table - exact| of the given rows, the exact rows (at the positions given) in mpmath."""
    d = table.shape[1]
    half = d // 2
    with mpmath.workdps(40):
        omega = [
            mpmath.power(base, -mpmath.mpf(i) / (half - mpmath.mpf(shift))) for i in range(half)
        ]
        out = []
        for r in rows:
            p = mpmath.mpf(float(positions[r]))
            sin = [mpmath.sin(p * w) * scale for w in omega]
            cos = [mpmath.cos(p * w) * scale for w in omega]
            if layout == "interleaved":
                exact = [v for pair in zip(sin, cos, strict=True) for v in pair]
            elif layout == "concatenated":
                exact = sin + cos
            else:
                exact = cos + sin
            out.append(
                float(
                    max(abs(mpmath.mpf(float(v)) - e) for v, e in zip(table[r], exact, strict=True))
                )
            )
    return out


def assert_error_within_two(result, table, positions, layout, **convention):
    """The reported error is within 2x of mpmath's at the reported row, and no sampled row has
    more than twice it."""
    rng = np.random.default_rng(7)
    valid = np.flatnonzero(np.any(table != 0, axis=1))
    rows = [result.worst_row, *rng.choice(valid, size=min(10, len(valid)), replace=False)]
    truth = truth_errors(table, rows, positions, layout, **convention)
    assert 0.5 <= result.max_abs_error / truth[0] <= 2.0
    assert max(truth) <= 2 * result.max_abs_error


FLOAT32_COMPUTED = [
    # (name, table, layout, schedule shift, scale name)
    ("gpt-j", lambda: gptj(2048, 256), "concatenated", 0.0, "1"),
    ("xglm 512 pairs", lambda: fairseq(2050, 1024, padding_idx=1), "concatenated", 1.0, "1"),
    (
        "musicgen 512 pairs",
        lambda: fairseq(2048, 1024, cos_first=True),
        "concatenated_cos_first",
        1.0,
        "1",
    ),
    ("speechbrain", lambda: interleaved(np.arange(2500), 512), "interleaved", 0.0, "1"),
    (
        "nemo fixed",
        lambda: interleaved(np.arange(1024), 512, 512**-0.5),
        "interleaved",
        0.0,
        "d^-1/2",
    ),
]


@pytest.mark.parametrize(
    ("name", "make", "layout", "shift", "scale"),
    FLOAT32_COMPUTED,
    ids=[c[0] for c in FLOAT32_COMPUTED],
)
def test_a_correct_table_computed_in_float32_is_sound_named_and_exits_0(
    name, make, layout, shift, scale
):
    table = make()
    result = audit(table)
    assert result.structure == {"verdict": "sound", "reasons": []}
    assert result.accuracy["grade"] == "computed in float32"
    assert result.clean and result.rotation["passed"]
    schedule = {0.0: "paper", 1.0: "tensor2tensor"}[shift]
    assert (result.layout, result.schedule, result.base) == (layout, schedule, 10000.0)
    assert (result.position_offset, result.position_step, result.scale_name) == (0, 1, scale)
    assert result.max_abs_error > 100 * result.expected_error
    sentence = next(f for f in result.findings if f.startswith("computed in float32"))
    assert "grows about linearly with position" in sentence and "harmless" in sentence
    positions = np.arange(table.shape[0])
    scale_value = {"1": 1.0, "d^-1/2": table.shape[1] ** -0.5}[scale]
    assert_error_within_two(result, table, positions, layout, shift=shift, scale=scale_value)


LIBRARIES = ("NeMo", "x-transformers", "MLX", "ScaledSinusoidal", "FixedPositional")


@pytest.mark.parametrize(
    "table",
    [
        interleaved(np.arange(1024), 512, 512**-0.5),
        gptj(1024, 512) * f32(512**-0.5),
    ],
    ids=["interleaved", "concatenated"],
)
def test_a_scale_names_what_the_table_matches_never_a_library(table):
    """Issue 31, point 11: d^-1/2 is NeMo's FixedPositionalEncoding's and x-transformers'
    initial learned scale alike; the scale is stated, no library is named from it."""
    findings = audit(table).findings
    assert not any(name in f for f in findings for name in LIBRARIES), findings
    assert any(f.startswith("every value is scaled by d^-1/2 (0.0441942") for f in findings)


@pytest.mark.parametrize("d", [1024, 1152])
def test_a_float64_paper_table_at_real_widths_is_the_paper_schedule(d):
    table = sincos_grid_1d(d, np.arange(128, dtype=np.float64))
    result = audit(table)
    assert (result.schedule, result.base, result.position_offset) == ("paper", 10000.0, 0)
    assert result.accuracy["grade"] in ("rounded once", "computed in float64") and result.clean


def test_a_tensor2tensor_table_computed_in_bfloat16_is_tensor2tensor_and_fails():
    table = t2t_bf16(1568, 768)
    result = audit(table)
    assert (result.layout, result.schedule, result.base) == ("concatenated", "tensor2tensor", 1e4)
    assert not any("also the" in f for f in result.findings)  # paper and t2t differ by 2.4% here
    assert result.precision == "bfloat16"
    assert result.accuracy["grade"] == "computed in 16 bits" and not result.clean
    assert result.structure["verdict"] == "faulty"
    assert any("positions collapse" in r for r in result.structure["reasons"])
    assert not result.rotation["passed"]
    sentence = next(f for f in result.findings if f.startswith("computed in"))
    assert sentence.startswith("computed in bfloat16: pos·ω in bfloat16 loses positions")
    assert " float16" not in sentence.replace("bfloat16", "")


def test_a_table_rounded_once_to_bfloat16_exits_0():
    result = audit(bf16(gptj(1500, 128)))
    assert result.precision == "bfloat16"
    assert result.accuracy["grade"] in ("rounded once", "computed in float32") and result.clean


def test_rows_running_backwards_are_named():
    nemo = interleaved(np.arange(999, -1000, -1), 256)
    result = audit(nemo)
    assert (result.layout, result.position_offset, result.position_step) == ("interleaved", 999, -1)
    assert result.convention["direction"] == "descending" and result.clean
    assert any("rows run backwards: row r holds position 999 − r" in f for f in result.findings)
    assert_error_within_two(result, nemo, np.arange(999, -1000, -1), "interleaved")


def test_scaled_and_fractional_positions_are_named():
    quarter = sincos_grid_1d(64, np.arange(256) / 4)
    result = audit(quarter)
    assert (result.schedule, result.base, result.position_step) == ("paper", 10000.0, 0.25)
    assert any("positions scaled by 0.25" in f for f in result.findings)
    every_tenth = audit(interleaved(np.arange(500) * 10.0, 64))
    assert every_tenth.position_step == 10 and every_tenth.schedule == "paper"
    assert every_tenth.clean


def test_packed_sequences_report_every_restart():
    lengths = [37, 120, 8, 64, 200, 9, 90, 33, 150, 41, 77]
    positions = np.concatenate([np.arange(k) for k in lengths])
    result = audit(interleaved(positions, 64))
    restarts = [r["row"] for r in result.convention["packed_restarts"]]
    assert restarts == list(np.cumsum(lengths)[:-1])
    assert all(r["position"] == 0 for r in result.convention["packed_restarts"])
    assert result.clean and result.position_offset == 0
    assert any("11 packed sequences" in f for f in result.findings)


def test_aliased_pairs_keep_the_layout_and_are_named():
    positions = np.arange(1000) * 4.0
    table = interleaved(positions, 64)
    result = audit(table)
    assert (result.layout, result.schedule, result.position_step) == ("interleaved", "paper", 4)
    assert result.convention["aliased_pairs"] == [0, 1]
    assert any("aliased" in f for f in result.findings) and result.clean
    assert_error_within_two(result, table, positions, "interleaved")


def test_a_constant_added_to_every_value_is_named_and_taken_off():
    table = (interleaved(np.arange(1000), 64) + f32(0.5)).astype(f32)
    result = audit(table)
    assert result.convention["constant"] == 0.5
    assert (result.layout, result.schedule, result.position_offset) == ("interleaved", "paper", 0)
    assert any("every value has 0.5 added" in f for f in result.findings)
    # Issue 31, point 12: the shift identity holds for the table minus 0.5, not for the table.
    assert result.rotation["passed"] and not result.rotation["on_table"]["passed"]
    assert result.outcome == "undecided" and not result.faults


def test_left_padding_is_described_by_the_rows_that_hold_positions():
    zeros = np.vstack([np.zeros((22, 64), f32), interleaved(np.arange(234), 64)])
    fixed = interleaved(np.concatenate([np.ones(22), np.arange(234)]), 64)
    for table in (zeros, fixed):
        result = audit(table)
        assert result.convention["first_row"] == {"row": 22, "position": 0.0}
        assert result.clean
        assert not any(
            "positions start at −22" in f or "start at -22" in f for f in result.findings
        )
        assert any(
            "the sequence starts at row 22, which holds position 0" in f for f in result.findings
        )
    assert any("rows 0–21 all zeros: left padding" in f for f in audit(zeros).findings)
    plateau = audit(fixed).convention["plateaus"]
    assert plateau == [{"rows": [0, 21], "position": 1.0}]


@pytest.mark.parametrize(
    ("fmt", "precision"),
    [("%.9g", "float32"), ("%.17g", "float32"), ("%g", "6 significant digits"), (None, "float32")],
    ids=["9g", "17g", "g", "str"],
)
def test_csv_at_any_number_of_digits(tmp_path, fmt, precision):
    table = gptj(600, 64)
    path = tmp_path / "gptj.csv"
    if fmt is None:  # str(np.float32): the shortest decimal that reads back as the float32
        path.write_text("\n".join(",".join(str(v) for v in row) for row in table) + "\n")
    else:
        np.savetxt(path, table, delimiter=",", fmt=fmt)
    result = audit(load_table(path))
    assert result.precision == precision
    assert (result.layout, result.schedule, result.base) == ("concatenated", "paper", 10000.0)
    assert result.accuracy["grade"] == "computed in float32" and result.clean
    assert not any("do not share a frequency" in f for f in result.findings)


@pytest.mark.slow
def test_a_large_float64_computed_table_keeps_its_offset():
    """Marian's 1536-wide table at 100000 positions (float64 NumPy, then float32)."""
    n, d = 100_000, 1536
    rate = 1.0 / np.power(10000, 2 * (np.arange(d) // 2) / d)
    table = np.empty((n, d), np.float32)
    for a in range(0, n, 8192):
        angle = np.arange(a, min(n, a + 8192), dtype=np.float64)[:, None] * rate[None, :]
        table[a : a + len(angle), : d // 2] = np.sin(angle[:, 0::2])
        table[a : a + len(angle), d // 2 :] = np.cos(angle[:, 1::2])
    result = audit(table)
    assert (result.layout, result.schedule, result.position_offset) == ("concatenated", "paper", 0)
    assert result.accuracy["grade"] == "rounded once" and result.clean
    assert_error_within_two(result, table, np.arange(n), "concatenated")


def test_a_custom_base_is_custom_with_its_fitted_base():
    """A geometric schedule from a base nobody names: not called 10000, and sound."""
    omega = (f32(10181.9) ** -(2 * np.arange(32) / 64).astype(f32)).astype(f32)
    angle = np.arange(2000, dtype=f32)[:, None] * omega
    table = np.empty((2000, 64), f32)
    table[:, 0::2], table[:, 1::2] = np.sin(angle), np.cos(angle)
    result = audit(table)
    assert result.schedule == "custom" and result.base is None
    assert result.convention["fitted_base"] == pytest.approx(10181.9, rel=1e-4)
    assert result.accuracy["against"] == "the fitted sinusoids"
    assert result.structure["verdict"] == "sound" and result.clean
