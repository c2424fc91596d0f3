"""Every reader with a size bomb: the audit refuses it with one line, or audits it, in bounded
memory (issue 20: at most 512 MB for any input).

Each file is audited in a fresh Python process that reports its own peak memory (VmHWM, reset
when it starts: a process inherits the peak of the one that forked it), so one test's
allocations cannot hide another's. Files that only claim a size are sparse: they cost no disk
and no time to write.
"""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from numeric.audit.limits import (
    MAX_NPZ_MEMBER_BYTES,
    MAX_NPZ_MEMBERS,
    MAX_SAFETENSORS_HEADER_BYTES,
    MAX_SAFETENSORS_TENSORS,
    MAX_TEXT_LINE_BYTES,
    MAX_TEXT_VALUES,
)

ROOT = Path(__file__).resolve().parents[2]
BOUND_MB = 512
_CHILD = """
import json, re, sys
with open("/proc/self/clear_refs", "w") as handle:
    handle.write("5")
from numeric.table_audit import audit
from numeric.audit.load import open_table
path, key = sys.argv[1], (sys.argv[2] or None)
try:
    result = audit(open_table(path, key=key))
    outcome = "audited: " + result.structure["verdict"]
except ValueError as error:
    outcome = str(error)
status = open("/proc/self/status").read()
peak = int(re.search(r"VmHWM:\\s+(\\d+)", status).group(1)) / 1024
print(json.dumps({"mb": peak, "outcome": outcome}))
"""


def audit_in_child(path: Path, key: str | None = None) -> tuple[float, str]:
    """(peak memory in MB, the one-line error or 'audited: <verdict>') of auditing path."""
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path), key or ""],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=True,
    )
    report = json.loads(done.stdout)
    return report["mb"], report["outcome"]


def sparse(path: Path, prefix: bytes, size: int) -> Path:
    """A file of `size` bytes starting with prefix, the rest a hole (zeros, no disk)."""
    with open(path, "wb") as handle:
        handle.write(prefix)
        handle.truncate(size)
    return path


def npy_header(shape: tuple[int, ...], descr: str = "<f4") -> bytes:
    text = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}".encode()
    text += b" " * (-(len(text) + 11) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text


def safetensors_header(header: dict | bytes, claimed: int | None = None) -> bytes:
    text = header if isinstance(header, bytes) else json.dumps(header).encode()
    return struct.pack("<Q", claimed if claimed is not None else len(text)) + text


@pytest.mark.slow
def test_a_zip_bomb_npz_is_refused_from_its_directory(tmp_path):
    """256 MiB of zeros compressed into a few hundred KB: its size is read from the zip."""
    path = tmp_path / "bomb.npz"
    rows = MAX_NPZ_MEMBER_BYTES * 2 // (1024 * 4)
    with (
        zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open("pe.npy", "w", force_zip64=True) as member,
    ):
        member.write(npy_header((rows, 1024)))
        zeros = bytes(2**22)
        for _ in range(rows * 4096 // len(zeros)):
            member.write(zeros)
    assert path.stat().st_size < 2**21
    mb, outcome = audit_in_child(path)
    assert "decompresses to" in outcome and "save it with np.save as .npy" in outcome
    assert mb < 128


def test_an_npz_with_too_many_members_is_refused_before_its_directory_is_read(tmp_path):
    path = tmp_path / "many.npz"
    with zipfile.ZipFile(path, "w") as archive:
        for i in range(MAX_NPZ_MEMBERS + 1):
            archive.writestr(f"a{i}.npy", b"")
    mb, outcome = audit_in_child(path)
    assert f"lists {MAX_NPZ_MEMBERS + 1} arrays" in outcome and mb < 128


def test_a_csv_with_a_300_mb_line_is_refused_after_the_limit(tmp_path):
    path = sparse(tmp_path / "long.csv", b"0.5," * 16, 300 * 2**20)
    mb, outcome = audit_in_child(path)
    assert f"line 1 is longer than {MAX_TEXT_LINE_BYTES // 2**20:g} MiB" in outcome
    assert mb < 128


def test_a_csv_with_too_many_values_is_refused_before_it_is_parsed(tmp_path):
    path = tmp_path / "big.csv"
    line = ",".join(["0.5"] * 4096) + "\n"
    with open(path, "w") as handle:
        for _ in range(MAX_TEXT_VALUES // 4096 + 1):
            handle.write(line)
    mb, outcome = audit_in_child(path)
    assert f"holds more than {MAX_TEXT_VALUES} values" in outcome and mb < 128


@pytest.mark.parametrize("claimed", [900 * 2**20, 2**63], ids=["900MB", "2^63"])
def test_a_safetensors_header_claiming_more_than_the_limit_is_refused(tmp_path, claimed):
    path = sparse(tmp_path / "claim.safetensors", struct.pack("<Q", claimed) + b"{", 901 * 2**20)
    mb, outcome = audit_in_child(path)
    assert "headers of at most" in outcome and mb < 128


@pytest.mark.slow
def test_a_safetensors_header_listing_a_million_tensors_is_refused_in_one_short_line(tmp_path):
    entry = '{"dtype": "F32", "shape": [1, 1], "data_offsets": [0, 4]}'
    header = ("{" + ", ".join(f'"t{i}": {entry}' for i in range(10**6)) + "}").encode()
    path = tmp_path / "million.safetensors"
    path.write_bytes(safetensors_header(header) + bytes(4))
    mb, outcome = audit_in_child(path)
    assert len(outcome) < 200 and "headers of at most" in outcome and mb < 128
    few = ("{" + ", ".join(f'"t{i}": 0' for i in range(MAX_SAFETENSORS_TENSORS + 1)) + "}").encode()
    assert len(few) < MAX_SAFETENSORS_HEADER_BYTES
    path.write_bytes(safetensors_header(few))
    mb, outcome = audit_in_child(path)
    assert f"lists {MAX_SAFETENSORS_TENSORS + 1} entries" in outcome and len(outcome) < 200
    assert mb < 256


def test_a_safetensors_tensor_claiming_more_than_the_file_is_refused(tmp_path):
    header = {"pe": {"dtype": "BF16", "shape": [2**20, 2**12], "data_offsets": [0, 2**33]}}
    path = tmp_path / "claim.safetensors"
    path.write_bytes(safetensors_header(header) + bytes(64))
    mb, outcome = audit_in_child(path)
    assert "tensor 'pe' is cut off" in outcome and mb < 128


def test_an_npy_header_claiming_more_than_the_file_is_refused(tmp_path):
    path = tmp_path / "claim.npy"
    path.write_bytes(npy_header((2**40, 2**20)) + bytes(64))
    mb, outcome = audit_in_child(path)
    assert "truncated .npy file" in outcome and mb < 128


@pytest.mark.long(25)
@pytest.mark.slow
@pytest.mark.parametrize("kind", ["npy", "safetensors BF16", "npy big-endian float64"])
def test_a_valid_gigabyte_table_is_read_in_bounded_memory(tmp_path, kind):
    """A 1 GiB (sparse: all zero) table is scanned whole, a block at a time."""
    size = 2**30
    if kind == "npy":
        prefix = npy_header((size // 4096, 1024))
        path = sparse(tmp_path / "zeros.npy", prefix, len(prefix) + size)
    elif kind == "npy big-endian float64":
        prefix = npy_header((size // 8192, 1024), ">f8")
        path = sparse(tmp_path / "zeros.npy", prefix, len(prefix) + size)
    else:
        shape = [size // 4096, 2048]
        prefix = safetensors_header(
            {"pe": {"dtype": "BF16", "shape": shape, "data_offsets": [0, size]}}
        )
        path = sparse(tmp_path / "zeros.safetensors", prefix, len(prefix) + size)
    mb, outcome = audit_in_child(path)
    assert "needs at least 4 non-zero rows" in outcome
    assert mb < BOUND_MB


@pytest.mark.slow
def test_a_large_sinusoidal_table_is_audited_in_bounded_memory(tmp_path):
    """A (100000, 1536) float32 table, 614 MB, more than the bound itself."""
    from numeric import sinusoidal_pe

    path = tmp_path / "large.npy"
    table = np.lib.format.open_memmap(path, mode="w+", dtype=np.float32, shape=(100_000, 1536))
    for a in range(0, 100_000, 10_000):
        table[a : a + 10_000] = sinusoidal_pe(10_000, 1536, start=a, dtype=np.float32)
    table.flush()
    del table
    mb, outcome = audit_in_child(path)
    assert outcome == "audited: sound" and mb < BOUND_MB


@pytest.mark.slow
def test_wide_tables_are_read_a_few_rows_at_a_time(tmp_path):
    """Every sample of rows is bounded in bytes: a 65536-wide table costs what a narrow one does,
    and a wider one is refused from its header."""
    path = tmp_path / "wide.npy"
    prefix = npy_header((256, 2**16))
    sparse(path, prefix, len(prefix) + 256 * 2**16 * 4)
    mb, outcome = audit_in_child(path)
    assert "needs at least 4 non-zero rows" in outcome and mb < 256
    prefix = npy_header((4, 2**16 + 2))
    sparse(tmp_path / "wider.npy", prefix, len(prefix) + 4 * (2**16 + 2) * 4)
    mb, outcome = audit_in_child(tmp_path / "wider.npy")
    assert f"has {2**16 + 2} columns; tables of at most {2**16} are read" in outcome
