"""numeric.audit on exact tables: every convention is identified by fitting, its error measured
within 2x of mpmath, and the three verdicts given (tables computed the way libraries compute
them: tests/numeric/test_audit_computed.py; tables real libraries made:
tests/numeric/test_audit_real_tables.py)."""

from __future__ import annotations

import json
import math

import mpmath
import numpy as np
import pytest

from numeric import module_formula_rows, reference_pe, sinusoidal_pe
from numeric.table_audit import audit, compare
from numeric.tables import frequencies

RNG_SEED = 1013


def bfloat16(values: np.ndarray) -> np.ndarray:
    """values rounded to bfloat16 (round to nearest, ties to even), stored as float32."""
    bits = np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32)


def scale_value(name: str, d: int) -> float:
    return {"1": 1.0, "d^-1/2": d**-0.5, "sqrt(2/d)": math.sqrt(2 / d)}[name]


def build(
    n, d, layout="interleaved", schedule="paper", offset=0, scale="1", pad=None, store="float32"
):
    """A table of the convention, from exact values (sinusoidal_pe, float64, within 2e-15)
    arranged by the convention's formulas: row r is position r + offset, the layout places
    sin(pos·ω_i) and cos(pos·ω_i), every value times the scale, row `pad` zeroed."""
    pe = sinusoidal_pe(n, d, start=offset, schedule=schedule)
    sines, cosines = pe[:, 0::2], pe[:, 1::2]
    table = {
        "interleaved": pe,
        "concatenated": np.hstack([sines, cosines]),
        "concatenated_cos_first": np.hstack([cosines, sines]),
    }[layout] * scale_value(scale, d)
    if pad is not None:
        table[pad] = 0.0
    return bfloat16(table) if store == "bfloat16" else table.astype(store)


def interleaved_dim(col: int, d: int, layout: str) -> int:
    """The interleaved dim (2i for the sine of pair i, 2i+1 for its cosine) of a table column."""
    half = d // 2
    if layout == "interleaved":
        return col
    if layout == "concatenated":
        return 2 * col if col < half else 2 * (col - half) + 1
    return 2 * col + 1 if col < half else 2 * (col - half)


def true_row_errors(table, rows, layout, schedule, offset, scale, base=10000.0):
    """max |table[r] - exact| of each row, every column, against mpmath at 40 digits."""
    d = table.shape[1]
    dims = [interleaved_dim(c, d, layout) for c in range(d)]
    exact = reference_pe([int(r) + offset for r in rows], dims, d, base=base, schedule=schedule)
    with mpmath.workdps(40):
        s = {
            "1": mpmath.mpf(1),
            "d^-1/2": 1 / mpmath.sqrt(d),
            "sqrt(2/d)": mpmath.sqrt(2 / mpmath.mpf(d)),
        }[scale]
        return [
            float(
                max(
                    abs(mpmath.mpf(float(v)) - s * e)
                    for v, e in zip(table[r], exact[j], strict=True)
                )
            )
            for j, r in enumerate(rows)
        ]


def assert_error_within_factor_two(result, table, layout, schedule, offset, scale):
    """The reported max error is within 2x of mpmath's at the reported row, and no sampled row
    has more than twice the reported error."""
    worst_row = result.worst_row
    assert result.worst_position == worst_row + offset
    rng = np.random.default_rng(RNG_SEED)
    valid = np.flatnonzero(np.any(table != 0, axis=1))
    rows = [worst_row, *rng.choice(valid, size=12, replace=False)]
    truth = true_row_errors(table, rows, layout, schedule, offset, scale)
    assert 0.5 <= result.max_abs_error / truth[0] <= 2.0
    assert max(truth) <= 2.0 * result.max_abs_error


CONVENTIONS = [
    # (name, layout, schedule, offset, scale, pad, store)
    ("paper", "interleaved", "paper", 0, "1", None, "float32"),
    ("fairseq/whisper", "concatenated", "tensor2tensor", 0, "1", 1, "float32"),
    ("detr", "interleaved", "paper", 1, "1", None, "float32"),
    ("x-transformers", "concatenated", "paper", 0, "d^-1/2", None, "float32"),
    ("mlx", "concatenated", "tensor2tensor", 0, "sqrt(2/d)", None, "float32"),
    ("mlx cos_first", "concatenated_cos_first", "tensor2tensor", 0, "sqrt(2/d)", None, "float32"),
    ("paper float16", "interleaved", "paper", 0, "1", None, "float16"),
    ("t2t bfloat16", "concatenated", "tensor2tensor", 0, "1", None, "bfloat16"),
    ("offset float16", "concatenated_cos_first", "paper", 7, "1", None, "float16"),
    ("fairseq padding 0", "concatenated", "tensor2tensor", 0, "1", 0, "float64"),
]


@pytest.mark.parametrize(
    ("name", "layout", "schedule", "offset", "scale", "pad", "store"), CONVENTIONS
)
def test_every_field_of_each_convention(name, layout, schedule, offset, scale, pad, store):
    n, d = (300, 16) if store == "float64" else (1500, 64)
    table = build(n, d, layout, schedule, offset, scale, pad, store)
    result = audit(table)
    assert result.shape == (n, d)
    assert result.precision == store
    assert result.sinusoidal and result.clean
    assert result.structure == {"verdict": "sound", "reasons": []}
    assert result.convention["verdict"] == "named"
    assert result.accuracy["grade"] in ("rounded once", "computed in float64")
    assert result.pairs_share_frequency
    assert (result.layout, result.schedule, result.base) == (layout, schedule, 10000.0)
    assert result.position_offset == offset and result.position_step == 1
    assert result.scale_name == scale
    assert result.scale == pytest.approx(scale_value(scale, d), rel=1e-12)
    assert result.zero_rows == (() if pad is None else (pad,))
    assert result.distinct_rows == n
    exact = frequencies(d, schedule=schedule)
    assert np.allclose(result.frequencies, exact, rtol=1e-3 if store != "float64" else 1e-9)
    assert result.rotation["passed"]
    assert result.max_abs_error <= result.expected_error
    assert_error_within_factor_two(result, table, layout, schedule, offset, scale)


def test_fairseq_padding_row_is_named():
    result = audit(build(1200, 32, "concatenated", "tensor2tensor", pad=1))
    assert any(
        "row 1 is all zeros" in f and "tokens start at position 2" in f for f in result.findings
    )
    assert any("fairseq's, tensor2tensor's and Whisper's convention" in f for f in result.findings)


def test_float64_rounding_is_measured_with_mpmath_within_factor_two():
    table = build(200, 16, store="float64")
    result = audit(table)
    assert result.precision == "float64"
    assert "mpmath" in result.error_method
    assert result.max_abs_error < 2e-15
    assert_error_within_factor_two(result, table, "interleaved", "paper", 0, "1")


def test_exact_dps_measures_every_entry():
    table = build(60, 8, store="float32")
    result = audit(table, exact_dps=30)
    assert result.error_method == "mpmath (30 digits) on every entry"
    truth = max(true_row_errors(table, range(60), "interleaved", "paper", 0, "1"))
    assert result.max_abs_error == pytest.approx(truth, rel=1e-12)


def test_split_frequencies_are_a_structural_fault_and_are_named():
    n, d = 2000, 64
    i = np.arange(d // 2)
    p = np.arange(n)[:, None]
    table = np.empty((n, d))
    table[:, 0::2] = np.sin(p * 10000.0 ** (-4 * i / d))
    table[:, 1::2] = np.cos(p * 10000.0 ** (-(4 * i + 2) / d))
    result = audit(table.astype(np.float32))
    assert not result.pairs_share_frequency and not result.clean
    assert result.structure["verdict"] == "faulty"
    assert not result.rotation["passed"]
    assert result.schedule is None and result.max_abs_error is None
    assert any(
        "pairs do not share a frequency: sin uses 10000^(−4i/d) and cos 10000^(−(4i+2)/d)" in f
        for f in result.findings
    )


def test_random_vectors_are_not_sinusoidal():
    table = np.random.default_rng(RNG_SEED).standard_normal((500, 16))
    result = audit(table)
    assert not result.sinusoidal and not result.clean
    assert result.structure["verdict"] == "not sinusoidal"
    assert result.accuracy["grade"] == "not sinusoidal"
    assert not result.rotation["passed"]
    assert any("not sinusoids" in f for f in result.findings)


@pytest.mark.parametrize(
    "table",
    [np.outer(np.arange(100) / 100, np.ones(4)), np.ones((50, 4))],
    ids=["ramp", "constant"],
)
def test_ramps_and_constants_are_not_slow_sinusoids(table):
    result = audit(table)
    assert not result.sinusoidal and not result.pairs_share_frequency
    assert result.max_abs_error is None
    assert not any("padding row" in f for f in result.findings)


def test_d8_paper_schedule_is_also_tensor2tensor_base_1000():
    result = audit(build(3000, 8))
    assert (result.schedule, result.base) == ("paper", 10000.0)
    assert any("tensor2tensor schedule with base 1000" in f for f in result.findings)


def test_json_and_report_lines():
    for table in (build(800, 32, pad=3), np.random.default_rng(0).standard_normal((50, 6))):
        result = audit(table)
        text = json.dumps(result.to_json(), allow_nan=False)
        assert json.loads(text)["shape"] == list(table.shape)
        lines = result.report_lines()
        assert lines and all(len(line) <= 100 for line in lines)


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros(5),
        np.zeros((0, 4)),
        np.full((5, 4), np.nan),
        np.zeros((10, 4)),
        np.array([[1, 2]], dtype=object),
    ],
)
def test_bad_tables_raise_one_line_value_error(bad):
    with pytest.raises(ValueError) as error:
        audit(bad)
    assert "\n" not in str(error.value)


def test_compare_finds_permutation_scale_and_offset():
    n, d = 1200, 32
    a = build(n, d, "interleaved", offset=0)
    b = build(n, d, "concatenated", offset=3, scale="d^-1/2")
    result = compare(a, b)
    assert result.same
    assert result.scale == pytest.approx(d**-0.5)
    assert result.offset == 3
    # B = s·A·Pᵀ: B column j is s × A column permutation[j].
    perm = np.array(result.permutation)
    assert np.allclose(b[: n - 3], d**-0.5 * a[3:][:, perm], atol=1e-6)
    assert list(perm[: d // 2]) == list(range(0, d, 2))


def test_compare_reports_where_tables_differ():
    a = build(1000, 16)
    b = a.copy()
    b[700, 5] += 0.25
    result = compare(a, b)
    assert not result.same
    assert result.first_difference["row"] == 700
    assert result.first_difference["column"] == 5
    assert result.first_difference["magnitude"] == pytest.approx(0.25, rel=1e-6)


def test_compare_across_precisions_and_against_a_padding_row():
    plain = build(1000, 32, "concatenated", "tensor2tensor")
    same = compare(plain, build(1000, 32, "concatenated", "tensor2tensor", store="float16"))
    assert same.same and same.permutation == tuple(range(32)) and same.offset == 0
    padded = compare(plain, build(1000, 32, "concatenated", "tensor2tensor", pad=1))
    assert not padded.same
    assert padded.first_difference["row"] == 1
    assert padded.first_difference["b_value"] == 0.0
    for result in (same, padded):
        json.dumps(result.to_json(), allow_nan=False)
        assert all(len(line) <= 100 for line in result.report_lines())


@pytest.mark.slow
def test_large_float32_table_is_identified():
    table = sinusoidal_pe(100_000, 1024, dtype=np.float32)
    result = audit(table)
    assert (result.layout, result.schedule, result.base, result.position_offset) == (
        "interleaved",
        "paper",
        10000.0,
        0,
    )
    assert result.clean and result.rotation["passed"]
    assert result.accuracy["grade"] == "rounded once"
    assert result.cross_check["agrees"]
    assert_error_within_factor_two(result, table, "interleaved", "paper", 0, "1")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "layout", "schedule", "offset", "scale", "pad", "store"), CONVENTIONS
)
def test_error_within_factor_two_of_mpmath_on_every_row(
    name, layout, schedule, offset, scale, pad, store
):
    table = build(400, 16, layout, schedule, offset, scale, pad, store)
    result = audit(table)
    rows = np.flatnonzero(np.any(table != 0, axis=1))
    truth = max(true_row_errors(table, rows, layout, schedule, offset, scale))
    assert 0.5 <= result.max_abs_error / truth <= 2.0


@pytest.mark.slow
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_computed_table_error_within_factor_two_on_every_row(dtype):
    table = module_formula_rows(np.arange(2500), 16, dtype=dtype)
    result = audit(table)
    truth = max(true_row_errors(table, range(2500), "interleaved", "paper", 0, "1"))
    assert 0.5 <= result.max_abs_error / truth <= 2.0
    assert result.accuracy["grade"] == (
        "computed in float32" if dtype == np.float32 else "computed in 16 bits"
    )


@pytest.mark.parametrize("trial", range(36))
def test_any_table_gets_a_verdict_or_a_one_line_error(trial):
    """Random noise, rounded noise, tables at any start and dtype, scaled, with zero rows,
    reversed and shifted by a constant, columns shuffled: never a traceback."""
    rng = np.random.default_rng(trial)
    n = int(rng.integers(4, 300))
    d = int(rng.choice([2, 4, 6, 8, 16, 32]))
    kind = trial % 6
    if kind == 0:
        table = rng.standard_normal((n, d + int(rng.integers(0, 2))))
    elif kind == 1:
        dtype = rng.choice([np.float16, np.float32, np.float64])
        table = sinusoidal_pe(n, d, start=int(rng.integers(-500, 500)), dtype=dtype)
    elif kind == 2:
        table = sinusoidal_pe(n, d, layout="concatenated") * rng.uniform(1e-3, 1e3)
        table[rng.integers(0, n, 3)] = 0
    elif kind == 3:
        table = np.round(rng.standard_normal((n, d)), 2)
    elif kind == 4:
        table = sinusoidal_pe(n, d)[::-1] + rng.uniform(-2, 2)
    else:
        table = sinusoidal_pe(n, d)[:, rng.permutation(d)]
    try:
        result = audit(table)
    except ValueError as error:
        assert "\n" not in str(error)
        return
    json.dumps(result.to_json(), allow_nan=False)
    assert result.structure["verdict"] in ("sound", "faulty", "undecided", "not sinusoidal")
    assert all(len(line) <= 80 for line in result.report_lines(80))


def test_compare_holds_rounded_once_tables_to_one_rounding_each():
    # By hand: two float32 tables rounded once from the exact one differ from it by at most
    # half an ulp of values below 1, 2^-25 each, so B may differ from A by 2^-24 on any entry;
    # not by their measured largest errors added on top.
    table = sinusoidal_pe(300, 16, dtype=np.float32)
    result = compare(table, table[5:])
    assert result.same and result.offset == 5
    assert result.tolerance == pytest.approx(2.0**-24, rel=1e-6)
