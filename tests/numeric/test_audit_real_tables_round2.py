"""numeric.table_audit on the round-2 tables real libraries made (issue 31, points 11 to 14).

Each table was made by the library's own code (tests/data/make_real_tables_round2.py) and its
truth read from the library's source (truth_round2.json): NeMo's FixedPositionalEncoding (the
paper's table divided by sqrt(d)), transformers' PatchTST 'sincos' encoding (mean removed,
divided by 10·std), timm's build_fourier_pos_embed on a 1-D pixel grid (one pair turning more
than π a row) and speechbrain's RelPosEncXL at 1999 rows (relative positions ±r on one row).
No library is imported.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np
import pytest

from numeric.audit.load import load_table, open_table
from numeric.table_audit import audit

DATA = Path(__file__).resolve().parents[1] / "data" / "real_tables"
TRUTH = {
    e["file"]: e
    for e in json.loads((DATA / "truth_round2.json").read_text(encoding="utf-8"))["entries"]
}
LIBRARIES = ("NeMo", "x-transformers", "MLX", "ScaledSinusoidal", "FixedPositional", "DETR")


@functools.cache
def audited(name: str):
    return audit(open_table(DATA / name), what=name)


def paper_interleaved(positions: np.ndarray, d: int) -> np.ndarray:
    """The paper's interleaved table at these positions, in float64."""
    omega = 10000.0 ** (-np.arange(0, d, 2) / d)
    angle = np.outer(positions, omega)
    out = np.empty((len(positions), d))
    out[:, 0::2], out[:, 1::2] = np.sin(angle), np.cos(angle)
    return out


def test_the_truth_rebuilds_every_round2_table():
    """Each truth entry, in float64, gives its table to float32 computation's error."""
    for name, e in TRUTH.items():
        table = load_table(DATA / name).astype(np.float64)
        assert table.shape == tuple(e["shape"]), name
        if e["layout"] == "concatenated":  # timm: [sin | cos] of positions times bands
            angle = np.outer(e["positions"], e["frequencies_per_unit"])
            exact = np.hstack([np.sin(angle), np.cos(angle)])
            allowed = 1e-4
        else:
            rows = np.arange(e["shape"][0])
            positions = e["position_of_row_0"] + e["position_step"] * rows
            if e.get("position_transform") == "abs":
                positions = np.abs(positions)
            exact = e["scale"] * paper_interleaved(positions, e["shape"][1])
            exact += e.get("constant_added", 0.0)
            allowed = 1e-4 * e["scale"]
        assert np.abs(table - exact).max() < allowed, name


@pytest.mark.parametrize("name", ["nemo_fixed_posenc.npy", "x_transformers_scaled_sin.npy"])
def test_point_11_a_scale_is_named_never_a_library(name):
    """d^-1/2 is stated as what the table matches; no library is named from it."""
    result = audited(name)
    assert result.scale_name == "d^-1/2"
    assert not any(lib in f for f in result.findings for lib in LIBRARIES), result.findings
    assert any(f.startswith("every value is scaled by d^-1/2") for f in result.findings)
    assert result.outcome == "sound"


def test_point_11_nemo_fixed_posenc_fields():
    e, result = TRUTH["nemo_fixed_posenc.npy"], audited("nemo_fixed_posenc.npy")
    assert (result.layout, result.schedule, result.base) == ("interleaved", "paper", 10000.0)
    assert result.scale == pytest.approx(e["scale"], rel=1e-6)
    assert result.structure["verdict"] == "sound" and result.clean


def test_point_12_a_constant_added_keeps_the_shift_identity_off_the_table():
    """PatchTST: the identity holds for the table minus its constant, not for the table, and
    the report says so; whether that matters the table cannot say (undecided, exit 3)."""
    e, result = TRUTH["patchtst_sincos.npy"], audited("patchtst_sincos.npy")
    assert result.convention["constant"] == pytest.approx(e["constant_added"], rel=1e-5)
    assert result.scale == pytest.approx(e["scale"], rel=1e-5)
    assert (result.layout, result.schedule, result.base) == ("interleaved", "paper", 10000.0)
    rotation = result.rotation
    assert rotation["passed"] and not rotation["on_table"]["passed"]
    assert rotation["constant"] == result.convention["constant"]
    # The table's residual is the constant's: |c|·|R(kω) − I|, far above the tolerance.
    assert rotation["on_table"]["residual"] > 100 * rotation["on_table"]["tolerance"]
    line = next(x for x in result.report_lines(200) if x.startswith("rotation"))
    assert "(PE[p] − c) = PE[p+k] − c" in line and "on the table itself" in line
    assert "FAILED" in line.split("on the table itself")[1]
    assert result.structure["verdict"] == "undecided"
    assert result.outcome == "undecided" and not result.clean and not result.faults
    assert any("not for the table itself" in u for u in result.undecided)
    assert result.to_json()["outcome"] == "undecided"


def test_point_13_a_pixel_grid_fourier_table_is_not_sixteen_bits():
    """timm's pixel-grid table (float32, one pair above π a row): not 'computed in 16 bits',
    not faulty; the fitted frequencies are the truth's, folded into [0, π]."""
    e, result = TRUTH["timm_fourier_pixel_1d.npy"], audited("timm_fourier_pixel_1d.npy")
    per_row = np.array(e["frequencies_per_row"])
    assert (per_row > np.pi).sum() == 1
    folded = np.abs((per_row + np.pi) % (2 * np.pi) - np.pi)
    assert result.layout == "concatenated"
    assert np.allclose(sorted(result.frequencies), sorted(folded), rtol=1e-4)
    assert result.accuracy["grade"] != "computed in 16 bits"
    assert result.structure["verdict"] == "sound" and not result.faults
    assert result.rotation["passed"] and result.rotation["held_to"] == "its own error"
    assert result.outcome == "undecided"
    assert any("modulo 2π" in u for u in result.undecided)


def test_point_14_a_mirrored_relative_table_is_not_sound():
    """speechbrain's RelPosEncXL at 1999 rows: 1000 distinct, +r and −r on one row."""
    e, result = TRUTH["speechbrain_relposxl_1999.npy"], audited("speechbrain_relposxl_1999.npy")
    assert result.distinct_rows == 1000 and result.shape == (1999, 64)
    assert result.position_offset == e["position_of_row_0"]
    assert result.position_step == e["position_step"]
    assert result.convention["position_transform"] == "abs"
    assert result.structure["verdict"] == "undecided"
    assert any("+r and −r" in r for r in result.structure["reasons"])
    assert result.outcome == "undecided" and not result.clean
    assert any("+r and −r cannot be told apart" in u for u in result.undecided)


@pytest.mark.parametrize("name", ["nemo_relposenc.npy", "w2v2_conformer_relpos.npy"])
def test_a_signed_relative_table_stays_sound(name):
    """The signed tables (NeMo's, wav2vec2-conformer's) are not mirrored: sound."""
    result = audited(name)
    assert result.outcome == "sound" and not result.undecided


@pytest.mark.parametrize("name", sorted(TRUTH))
def test_the_report_and_json_of_a_round2_table(name):
    result = audited(name)
    report = json.loads(json.dumps(result.to_json(), allow_nan=False))
    assert report["outcome"] == result.outcome
    assert report["undecided"] == list(result.undecided)
    for width in (80, 100):
        assert all(len(line) <= width for line in result.report_lines(width))
