"""numeric.audit on the tables real libraries' code produced (tests/data/real_tables): every field.

Each table was made by the library itself (tests/data/make_real_tables.py) and its truth read from
the library's source (truth.json). The audit must get every field right: layout, schedule and
base, scale, the position of row 0 and the step (or the grid), zero rows, packed restarts, the
precision the values carry, the error within a factor of two of the truth (measured here with
mpmath from the truth alone), and the three verdicts with the exit-status rule. No library is
imported: only the committed files and truth.json are read.
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import mpmath
import numpy as np
import pytest

from numeric.audit.load import load_table, open_table
from numeric.table_audit import audit, schedules

DATA = Path(__file__).resolve().parents[1] / "data" / "real_tables"
TRUTH = json.loads((DATA / "truth.json").read_text(encoding="utf-8"))
ENTRIES = [e for e in TRUTH["entries"] if e["file"] is not None]
SIXTEEN_BITS = ("float16", "bfloat16")
ORDINARY = ("rounded once", "computed in float64", "computed in float32")
SAMPLED_ROWS = 12
SEED = 2026


@functools.cache
def audited(name: str, key: str | None):
    return audit(open_table(DATA / name, key=key), what=name)


def result_of(entry: dict):
    return audited(entry["file"], entry["key"])


def shift_of(entry: dict) -> float:
    """The truth's schedule as numeric.table_audit.schedules' shift: ω_i = base^(-i/(d/2 - shift))."""
    if entry["schedule"] == "paper":
        return 0.0
    if entry["schedule"] == "tensor2tensor":
        return 1.0
    return float(entry["downscale_freq_shift"])


def angle_scale(entry: dict) -> float:
    return float(entry.get("angle_scale", 1))


def truth_frequencies(entry: dict, pairs: int) -> list[mpmath.mpf]:
    """ω_i of the first `pairs` pairs, exactly, from the truth (d is the frequencies' width)."""
    d = entry.get("columns_of_width") or entry["shape"][1]
    half = mpmath.mpf(d // 2) - mpmath.mpf(shift_of(entry))
    base = mpmath.mpf(entry["base"])
    return [mpmath.power(base, -mpmath.mpf(i) / half) for i in range(pairs)]


def truth_positions(entry: dict) -> np.ndarray:
    """The position each row holds, per the truth (restarts, |p|), before angle_scale."""
    rows = entry["shape"][0]
    r = np.arange(rows, dtype=np.float64)
    count = r.copy()
    for start in entry["packed_restarts"] or []:
        count[start:] = r[start:] - start
    position = entry["position_of_row_0"] + entry["position_step"] * count
    return np.abs(position) if entry.get("position_transform") == "abs" else position


def column_roles(layout: str, width: int) -> list[tuple[int, bool]]:
    """(pair, is cosine) of each column of a 1-D layout."""
    half = width // 2
    if layout == "interleaved":
        return [(j // 2, j % 2 == 1) for j in range(width)]
    if layout == "concatenated":
        return [(j % half, j >= half) for j in range(width)]
    return [(j % half, j < half) for j in range(width)]


def truth_row_errors(entry: dict, table: np.ndarray, rows: list[int]) -> list[float]:
    """max |table - exact| of each given row, the exact values from the truth with mpmath."""
    width = table.shape[1]
    roles = column_roles(entry["layout"], width)
    positions = truth_positions(entry)
    with mpmath.workdps(40):
        omega = truth_frequencies(entry, width // 2)
        scale = mpmath.mpf(entry["scale"])
        factor = mpmath.mpf(angle_scale(entry))
        errors = []
        for r in rows:
            p = mpmath.mpf(float(positions[r])) * factor
            exact = [
                scale * (mpmath.cos(p * omega[i]) if is_cos else mpmath.sin(p * omega[i]))
                for i, is_cos in roles
            ]
            errors.append(
                float(
                    max(abs(mpmath.mpf(float(v)) - e) for v, e in zip(table[r], exact, strict=True))
                )
            )
    return errors


def grid_truth_error(entry: dict, table: np.ndarray) -> float:
    """The largest error of a 2-D table over every entry, in float64 (its errors are float32's)."""
    grid = entry["grid"]
    n = table.shape[0]
    k = grid["block_width"]
    w_of = {"h": np.arange(n) // grid["width"], "w": np.arange(n) % grid["width"]}
    omega = float(entry["base"]) ** (-np.arange(k) / k)
    exact = np.empty_like(table)
    for b, name in enumerate(grid["blocks"]):
        fn, index = name[:3], name[4]
        angle = np.outer(w_of[index] * entry["position_step"], omega)
        exact[:, b * k : (b + 1) * k] = np.sin(angle) if fn == "sin" else np.cos(angle)
    return float(np.abs(table - entry["scale"] * exact).max())


def expected_precision(stored: str) -> str:
    if " as text " in stored:
        source, fmt = stored.split(" as text ")
        return "6 significant digits" if fmt == "%g" else source
    return stored


def expected_grades(entry: dict) -> set[str]:
    stored = entry["stored_dtype"].split(" as text ")[0]
    if entry["computed_in"] in SIXTEEN_BITS or entry.get("inv_freq_rounded_to"):
        return {"computed in 16 bits"}
    if entry["computed_in"] == "float64":
        return {"rounded once", "computed in float64"} if stored == "float64" else {"rounded once"}
    if stored in SIXTEEN_BITS:
        # A float32 computation then one 16-bit rounding: the rounding dominates, and the
        # float32 error may or may not show above it.
        return {"rounded once", "computed in float32"}
    return {"computed in float32"}


def expected_structure(entry: dict) -> str:
    """16 bits lose positions; rows of |c − r| leave +r and −r apart only if the model means
    distances, which the table alone cannot say (issue 31, point 14)."""
    if entry["computed_in"] in SIXTEEN_BITS:
        return "faulty"
    return "undecided" if entry.get("position_transform") == "abs" else "sound"


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_every_field_of_a_real_table(entry):
    result = result_of(entry)
    c = result.convention
    name = entry["file"]
    assert result.shape == tuple(entry["shape"]), name
    assert result.layout == entry["layout"], (name, result.layout)
    assert result.precision == expected_precision(entry["stored_dtype"]), (name, result.precision)
    assert result.scale == pytest.approx(entry["scale"], rel=1e-6), (name, result.scale)
    assert list(result.zero_rows) == entry["zero_rows"], name
    assert c["verdict"] == "named", (name, c)
    assert result.structure["verdict"] == expected_structure(entry), (name, result.structure)
    assert result.accuracy["grade"] in expected_grades(entry), (name, result.accuracy)
    ordinary = result.accuracy["grade"] in ORDINARY and result.structure["verdict"] == "sound"
    assert result.clean == ordinary, name
    step = entry["position_step"] * angle_scale(entry)
    if entry["layout"] == "2d":
        check_grid(entry, result, step)
        return
    assert result.position_step == pytest.approx(step, rel=1e-9), (name, result.position_step)
    row0 = entry["position_of_row_0"] * angle_scale(entry)
    assert result.position_offset == pytest.approx(row0, abs=1e-9), (name, result.position_offset)
    assert c["position_transform"] == entry.get("position_transform"), name
    restarts = [r["row"] for r in c["packed_restarts"]]
    assert restarts == (entry["packed_restarts"] or []), (name, restarts)
    check_frequencies(entry, result)


def check_frequencies(entry: dict, result) -> None:
    """The named schedule and base give the truth's frequencies (and, when the table keeps all
    its columns, the truth's own name and base)."""
    pairs = len(result.pairs)
    named = schedules.pieces(2 * pairs, result.base, result.convention["shift"]).approx
    with mpmath.workdps(30):
        truth = np.array([float(w) for w in truth_frequencies(entry, pairs)])
    assert np.allclose(named, truth, rtol=1e-12, atol=0), entry["file"]
    if not entry.get("columns_of_width"):
        assert result.base == entry["base"], entry["file"]
        assert result.convention["shift"] == shift_of(entry), entry["file"]
        assert result.schedule == schedules.name_of(shift_of(entry)), entry["file"]


def check_grid(entry: dict, result, step: float) -> None:
    grid, found = entry["grid"], result.convention["grid"]
    assert (found["height"], found["width"]) == (grid["height"], grid["width"]), entry["file"]
    assert found["blocks"] == grid["blocks"] and found["block_width"] == grid["block_width"]
    for index in ("h", "w"):
        sub = result.convention[index]
        assert (sub["schedule"], sub["base"]) == ("paper", entry["base"]), (entry["file"], sub)
        assert sub["position_step"] == pytest.approx(step), (entry["file"], sub)
        assert sub["position_of_row_0"] == entry["position_of_row_0"]


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_error_within_a_factor_of_two_of_the_truth(entry):
    """The reported max error is within 2x of mpmath's at the reported row, and no sampled row
    is more than twice the reported error (2-D: every entry, in float64)."""
    result = result_of(entry)
    table = load_table(DATA / entry["file"], key=entry["key"]).astype(np.float64)
    if entry["layout"] == "2d":
        truth = grid_truth_error(entry, table)
        assert 0.5 <= result.max_abs_error / truth <= 2.0, (
            entry["file"],
            result.max_abs_error,
            truth,
        )
        return
    valid = np.flatnonzero(np.any(table != 0, axis=1))
    rng = np.random.default_rng(SEED)
    rows = [result.worst_row, *rng.choice(valid, size=min(SAMPLED_ROWS, len(valid)), replace=False)]
    truth = truth_row_errors(entry, table, [int(r) for r in rows])
    assert 0.5 <= result.max_abs_error / truth[0] <= 2.0, (
        entry["file"],
        result.max_abs_error,
        truth[0],
    )
    assert max(truth) <= 2.0 * result.max_abs_error, (entry["file"], max(truth))


def test_the_set_covers_what_the_issue_names():
    """The real set holds every kind of table the audit must name (so the tests above mean it)."""
    kinds = {
        "descending rows": any(e["position_step"] < 0 for e in ENTRIES),
        "fractional positions": any(0 < abs(e["position_step"]) < 1 for e in ENTRIES),
        "packed sequences": any(e["packed_restarts"] for e in ENTRIES),
        "left padding": any(e["zero_rows"][:1] == [0] for e in ENTRIES),
        "right padding": any(
            e["zero_rows"] and e["zero_rows"][-1] == e["shape"][0] - 1 for e in ENTRIES
        ),
        "16-bit computation": any(e["computed_in"] in SIXTEEN_BITS for e in ENTRIES),
        "text with fewer digits": any("%g" in e["stored_dtype"] for e in ENTRIES),
        "2-D grids": any(e["layout"] == "2d" for e in ENTRIES),
        "tensor2tensor at 512 pairs or a scale": any(e["scale"] != 1 for e in ENTRIES),
    }
    assert all(kinds.values()), [k for k, v in kinds.items() if not v]
    assert math.isclose(len(ENTRIES), 46)


# Who uses a convention, as the findings say it: each claim was read in the library's source
# (numeric.table_audit.findings.who) and is checked here on the tables those libraries made.
ATTRIBUTIONS = {
    "gptj_sincos.npy": "GPT-J's and CTRL's order",
    "ctrl_fp32.npy": "GPT-J's and CTRL's order",
    "musicgen_table.npy": "MusicGen's order",
    "fairseq_table.npy": "fairseq's, tensor2tensor's and Whisper's convention",
    "whisper_encoder_pos.npy": "fairseq's, tensor2tensor's and Whisper's convention",
    "x_transformers_scaled_sin.npy": "GPT-J's and CTRL's order",
    "nemo_posenc.npy": "the paper's convention",
    "keras_hub_sine.npy": "the paper's convention",
}


@pytest.mark.parametrize(("name", "words"), sorted(ATTRIBUTIONS.items()))
def test_the_library_named_is_the_one_that_made_the_table(name, words):
    entry = next(e for e in ENTRIES if e["file"] == name)
    assert words in result_of(entry).findings[0]


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["file"] for e in ENTRIES])
def test_the_report_and_json_of_a_real_table(entry):
    result = result_of(entry)
    report = json.loads(json.dumps(result.to_json(), allow_nan=False))
    assert {"structure", "convention", "accuracy", "precision"} <= set(report)
    for width in (80, 100):
        assert all(len(line) <= width for line in result.report_lines(width))
