"""tests/data/check_truth.py: every committed artifact of real_tables/, real_rope/ and
real_rope_nd/ agrees with its truth (truth.json and the round-2 truth_round2.json alike), and
the check fails when a truth field is wrong or a file has no truth entry.

The mutations run the script on a copy of one folder (links to the artifacts, one truth file
rewritten), so the committed data is never touched.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("safetensors.numpy")

DATA = Path(__file__).parent.parent / "data"
SCRIPTS = ("check_truth.py", "check_truth_nd.py")


def run(folder: Path, *names: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(folder / "check_truth.py"), *names],
        capture_output=True,
        text=True,
        timeout=600,
    )


def entries(folder: Path) -> int:
    return sum(
        len(json.loads(p.read_text())["entries"]) for p in sorted(folder.glob("truth*.json"))
    )


def test_every_committed_artifact_agrees_with_its_truth():
    done = run(DATA)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.endswith("all artifacts agree with their truth\n")
    for name in ("real_tables", "real_rope", "real_rope_nd"):
        assert f"{name}/truth.json" in done.stdout
    assert "real_tables/truth_round2.json: 4 entries" in done.stdout
    assert "real_rope/truth_round2.json: 8 entries" in done.stdout
    assert "real_rope/truth_passthrough.json: 5 entries" in done.stdout
    # One verdict line per entry; the one real_tables entry too big to commit is named as such.
    checked = len(re.findall(r"^ok |\bok$|\bok  bug ", done.stdout, flags=re.MULTILINE))
    uncommitted = done.stdout.count("(not committed)")
    total = sum(entries(DATA / name) for name in ("real_tables", "real_rope", "real_rope_nd"))
    assert checked + uncommitted == total


def copy_with(tmp_path: Path, folder: str, truth: str, change) -> Path:
    """tmp_path holding the scripts and a copy of folder whose truth file truth is changed."""
    for script in SCRIPTS:
        shutil.copy(DATA / script, tmp_path / script)
    (tmp_path / folder).mkdir()
    for path in (DATA / folder).iterdir():
        (tmp_path / folder / path.name).symlink_to(path)
    doc = json.loads((DATA / folder / truth).read_text())
    change({e["file"]: e for e in doc["entries"]})
    (tmp_path / folder / truth).unlink()
    (tmp_path / folder / truth).write_text(json.dumps(doc))
    return tmp_path


def set_field(name: str, key: str, value, inner: str | None = None):
    def change(by_file: dict) -> None:
        entry = by_file[name]
        (entry[inner] if inner else entry)[key] = value

    return change


R2 = "truth_round2.json"


@pytest.mark.parametrize(
    ("folder", "truth", "change"),
    [
        (
            "real_rope",
            R2,
            set_field("round2_gpt_oss_yarn.safetensors", "truncate", True, "scaling"),
        ),
        (
            "real_rope",
            R2,
            set_field("round2_rotary_embedding_torch_partial.safetensors", "head_dim", 48),
        ),
        (
            "real_rope",
            R2,
            set_field("round2_llama_yarn_bf16.safetensors", "stored_dtype", "float32"),
        ),
        ("real_rope", R2, set_field("round2_gptj_freqs_in_cat.safetensors", "as_built", None)),
        (
            "real_rope",
            R2,
            set_field("round2_llama4_layer3.safetensors", "scaling", {"type": "none"}),
        ),
        ("real_rope", R2, set_field("round2_llama4_layer0.safetensors", "use_rope", False)),
        (
            "real_rope",
            "truth_passthrough.json",
            set_field("passthrough_litgpt.safetensors", "head_dim", 8),
        ),
        (
            "real_rope",
            "truth_passthrough.json",
            set_field(
                "passthrough_mlx_traditional.safetensors", "cache_layout", "cat(freqs,freqs)"
            ),
        ),
        ("real_tables", R2, set_field("patchtst_sincos.npy", "constant_added", 0.0)),
        ("real_tables", R2, set_field("timm_fourier_pixel_1d.npy", "layout", "interleaved")),
        ("real_tables", R2, set_field("speechbrain_relposxl_1999.npy", "position_transform", None)),
    ],
)
def test_a_wrong_round2_truth_field_fails_the_check(tmp_path, folder, truth, change):
    here = copy_with(tmp_path, folder, truth, change)
    done = run(here, folder)
    assert done.returncode == 1, done.stdout
    assert "OFF" in done.stdout and "SOME ARTIFACTS DISAGREE" in done.stdout


def test_a_file_no_truth_entry_names_fails_the_check(tmp_path):
    here = copy_with(tmp_path, "real_rope", "truth_round2.json", lambda by_file: None)
    (here / "real_rope" / "stray.safetensors").write_bytes(b"")
    done = run(here, "real_rope")
    assert done.returncode == 1
    assert "real_rope: no truth entry names stray.safetensors" in done.stdout
