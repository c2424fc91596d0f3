"""`pe-proofs audit`: the user's mistakes are one line and exit 2, our bugs exit 70 (issue 28.4).

Only the audits' typed input errors (numeric.audit.errors) are the user's: a ValueError or a
KeyError raised by the audit's own code is an internal error with its traceback. Also here:
the files the audit and the output folders refuse to read (issue 34: 9, 12, 13), NumPy's
warnings (34.14), the convention stated for a cache laid out for the other one (34.4), and
each RoPE array read once.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from numeric.audit.errors import MissingArrayError
from numeric.rope_audit import audit_rope
from numeric.rope_audit.files import open_rope
from numeric.tables import sinusoidal_pe
from proofs.cli.files import read_manifest
from proofs.cli.main import main
from proofs.cli.usage import UsageError

ROOT = Path(__file__).resolve().parents[2]
POSIX = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")


def _cache(base: float = 10000.0, rows: int = 256) -> tuple[np.ndarray, np.ndarray]:
    """cos and sin of p·θ_i, θ_i = base^(-2i/32), laid out cat(freqs, freqs), by the formula
    in float64 (rounded once)."""
    theta = base ** (-np.arange(0, 32, 2) / 32)
    angles = np.outer(np.arange(rows), np.concatenate([theta, theta]))
    return np.cos(angles), np.sin(angles)


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("errors")
    np.save(folder / "paper.npy", sinusoidal_pe(256, 16, dtype=np.float32))
    cos, sin = _cache()
    np.savez(folder / "rope.npz", cos=cos, sin=sin)
    (folder / "config.json").write_text(json.dumps({"head_dim": 32, "rope_theta": 10000.0}))
    return folder


def run(capsys, *argv: object) -> tuple[int, str, str]:
    status = main(["audit", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


def test_an_internal_error_in_the_table_audit_exits_70_not_2(files, capsys, monkeypatch):
    # A ValueError from the grading is a bug of ours, whatever its type.
    import numeric.table_audit.identify as identify

    def broken(*args, **kwargs):
        raise ValueError("a bug in the grading")

    monkeypatch.setattr(identify, "grade", broken)
    status, _, err = run(capsys, files / "paper.npy")
    assert status == 70
    assert "internal error, please report it" in err and "Traceback" in err
    assert "ValueError: a bug in the grading" in err


@pytest.mark.parametrize("error", [ValueError, KeyError, TypeError])
def test_an_internal_error_in_the_rope_audit_exits_70_not_2(files, capsys, monkeypatch, error):
    import numeric.rope_audit.identify as identify

    def broken(*args, **kwargs):
        raise error("a bug in the grading")

    monkeypatch.setattr(identify, "grade", broken)
    status, _, err = run(capsys, files / "rope.npz")
    assert status == 70
    assert "internal error, please report it" in err and "Traceback" in err


def test_an_input_error_is_still_one_line_and_exit_2(files, capsys):
    status, _, err = run(capsys, files / "rope.npz", "--key", "nope")
    assert status == 2
    assert err.strip() == (
        "pe-proofs: error: rope.npz has no array 'nope'; its keys are 'cos', 'sin'"
    )


def test_a_missing_array_is_a_typed_error_not_a_phrase(files):
    # The positions key asked for is absent: MissingArrayError, found by its type.
    with pytest.raises(MissingArrayError, match=r"rope\.npz has no array 'where'"):
        open_rope([str(files / "rope.npz")], positions_key="where")


def test_each_array_is_read_once(files, capsys, monkeypatch):
    # Deciding that the file is a RoPE cache and opening it read the zip directory only; the
    # arrays cos and sin are then decompressed once each.
    import numeric.audit.load as load

    reads = []
    real = load.read_npz

    def counted(path, key):
        reads.append(key)
        return real(path, key)

    monkeypatch.setattr(load, "read_npz", counted)
    status, _, _ = run(capsys, files / "rope.npz")
    assert status == 0
    assert sorted(reads) == ["cos", "sin"]


def test_a_cat_cache_stated_as_interleaved_is_a_fault(files, capsys):
    # By hand: a consumer that pairs (2i, 2i + 1) reads cos of θ_2i... with sin of θ_2i+1 from a
    # cat(freqs, freqs) cache (each pair's two columns hold different frequencies): no pair is
    # a rotation. The mirror case (an interleaved cache stated as rotate_half) is a fault too.
    cos, sin = _cache()
    result = audit_rope(cos, sin, convention="interleaved")
    assert not result.sound
    assert "interleaved_frequencies_with_rotate_half" in result.bugs
    status, out, _ = run(capsys, files / "rope.npz", "--convention", "interleaved")
    assert status == 1 and "cat(freqs, freqs)" in " ".join(out.split())


def test_a_cat_cache_read_as_rotate_half_is_sound(files, capsys):
    assert run(capsys, files / "rope.npz", "--convention", "rotate_half")[0] == 0


@POSIX
def test_a_config_that_is_not_a_file_says_what_it_is(files, capsys, tmp_path):
    fifo = tmp_path / "config.json"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.json"
    zero.symlink_to("/dev/zero")
    for config, kind in (
        (fifo, "a named pipe (FIFO)"),
        (zero, "a character device"),
        (tmp_path, "a directory"),
    ):
        status, _, err = run(capsys, files / "rope.npz", "--config", config)
        assert status == 2
        assert kind in err and "not a file; a config is read from a regular file" in err
        assert "no such config file" not in err
    status, _, err = run(capsys, files / "rope.npz", "--config", tmp_path / "absent.json")
    assert status == 2 and "absent.json: no such config file" in err


def _safetensors(path: Path, tensors: dict[str, dict], data: bytes) -> None:
    header = json.dumps(tensors).encode()
    path.write_bytes(struct.pack("<Q", len(header)) + header + data)


@pytest.mark.parametrize(
    "offsets", [5, [-16, 0], [0, "16"], [16, 0]], ids=["int", "negative", "text", "reversed"]
)
def test_bad_positions_data_offsets_name_the_file_and_the_field(capsys, tmp_path, offsets):
    cos, sin = _cache(rows=2)
    size = cos.nbytes
    tensors = {
        "cos": {"dtype": "F64", "shape": list(cos.shape), "data_offsets": [0, size]},
        "sin": {"dtype": "F64", "shape": list(sin.shape), "data_offsets": [size, 2 * size]},
        "positions": {"dtype": "I64", "shape": [2], "data_offsets": offsets},
    }
    path = tmp_path / "cache.safetensors"
    _safetensors(path, tensors, cos.tobytes() + sin.tobytes() + np.arange(2).tobytes())
    status, _, err = run(capsys, path)
    assert status == 2
    assert "cache.safetensors: tensor 'positions': data_offsets must be two integers" in err


@pytest.mark.parametrize("base", [1e300])
def test_no_numpy_warning_reaches_the_user(capsys, tmp_path, base):
    # A cache at base 1e300, computed here by the formula in float64: RoPE at that base,
    # rounded once (sound). A cache of 1e308 everywhere: cos = sin on every row is an angle of
    # π/4 that never turns, not RoPE (a fault). Any RuntimeWarning is turned into an error,
    # which the command line would report as an internal error (exit 70).
    cos, sin = _cache(base=base, rows=4096)
    np.savez(tmp_path / "slow.npz", cos=cos, sin=sin)
    big = np.full((256, 32), 1e308)
    np.savez(tmp_path / "big.npz", cos=big, sin=big)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert run(capsys, tmp_path / "slow.npz")[0] == 0
        status, out, err = run(capsys, tmp_path / "big.npz")
    assert status == 1 and "not a RoPE cache" in out and err == ""


@POSIX
@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_manifest_that_is_not_a_file_is_refused_not_read(tmp_path, kind):
    manifest = tmp_path / ".pe-proofs-manifest.json"
    if kind == "fifo":
        os.mkfifo(manifest)
    else:
        manifest.symlink_to("/dev/zero")
    with pytest.raises(
        UsageError, match="not a file; a pe-proofs manifest is read from a regular file"
    ):
        read_manifest(tmp_path)
    # The command that writes into the folder says so at once (the timeout only stops a hang).
    done = subprocess.run(
        [sys.executable, "-m", "proofs", "tables", "--format", "csv", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 2
    assert "refusing to write into" in done.stderr


def test_a_manifest_too_large_is_refused(tmp_path, monkeypatch):
    import proofs.cli.files as output

    monkeypatch.setattr(output, "MAX_MANIFEST_BYTES", 10)
    (tmp_path / ".pe-proofs-manifest.json").write_text('{"tool": "pe-proofs", "files": {}}')
    with pytest.raises(UsageError, match="is read up to 10 bytes"):
        read_manifest(tmp_path)


def test_a_cache_the_audit_refuses_is_named_in_the_message(capsys, tmp_path):
    np.savez(tmp_path / "one.npz", cos=np.ones((1, 4)), sin=np.zeros((1, 4)))
    status, _, err = run(capsys, tmp_path / "one.npz")
    assert status == 2
    assert err.strip() == (
        "pe-proofs: error: one.npz: cos must have at least 2 rows and 1 column, got shape (1, 4)"
    )
