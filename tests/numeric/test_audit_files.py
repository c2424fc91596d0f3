"""numeric.table_audit.load_table: every supported file type, and a one-line ValueError for each bad file."""

from __future__ import annotations

import builtins
import json
import struct

import numpy as np
import pytest

from numeric import sinusoidal_pe
from numeric.table_audit import audit, load_table

safetensors_numpy = pytest.importorskip(
    "safetensors.numpy", reason="the safetensors package (pip install 'pe-proofs[safetensors]')"
)


@pytest.fixture
def table() -> np.ndarray:
    return sinusoidal_pe(300, 16, dtype=np.float32)


def write_safetensors(path, tensors: dict[str, tuple[str, tuple[int, ...], bytes]]) -> None:
    """A .safetensors file written by hand: 8-byte little-endian header length, JSON, raw bytes."""
    header, data, offset = {}, b"", 0
    for name, (dtype, shape, raw) in tensors.items():
        header[name] = {
            "dtype": dtype,
            "shape": list(shape),
            "data_offsets": [offset, offset + len(raw)],
        }
        data += raw
        offset += len(raw)
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + data)


def bf16_bytes(values: np.ndarray) -> bytes:
    """values rounded to bfloat16 (nearest, ties to even) as little-endian 2-byte words."""
    bits = np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype("<u2").tobytes()


def one_line_error(path, **kwargs) -> str:
    with pytest.raises(ValueError) as error:
        load_table(path, **kwargs)
    message = str(error.value)
    assert "\n" not in message
    return message


def test_npy_is_memory_mapped(tmp_path, table):
    np.save(tmp_path / "t.npy", table)
    loaded = load_table(tmp_path / "t.npy")
    assert isinstance(loaded, np.memmap)
    assert np.array_equal(loaded, table)


def test_npz_with_and_without_key(tmp_path, table):
    np.savez(tmp_path / "one.npz", pe=table)
    assert np.array_equal(load_table(tmp_path / "one.npz"), table)
    np.savez(tmp_path / "two.npz", pe=table, other=table[:10])
    assert np.array_equal(load_table(tmp_path / "two.npz", key="other"), table[:10])
    assert "choose one with key=" in one_line_error(tmp_path / "two.npz")
    message = one_line_error(tmp_path / "two.npz", key="nope")
    assert "'nope'" in message and "other" in message and "pe" in message


@pytest.mark.parametrize(("suffix", "delimiter"), [(".csv", ","), (".txt", " "), (".txt", "\t")])
def test_text_tables(tmp_path, table, suffix, delimiter):
    np.savetxt(tmp_path / f"t{suffix}", table, delimiter=delimiter, fmt="%.9g")
    loaded = load_table(tmp_path / f"t{suffix}")
    # Nine significant digits identify a float32 exactly, read back as the nearest float64.
    assert loaded.dtype == np.float64
    assert np.array_equal(loaded.astype(np.float32), table)


def test_safetensors_float_dtypes(tmp_path, table):
    safetensors_numpy.save_file(
        {"pe": table, "half": table.astype(np.float16)}, tmp_path / "t.safetensors"
    )
    assert np.array_equal(load_table(tmp_path / "t.safetensors", key="pe"), table)
    assert load_table(tmp_path / "t.safetensors", key="half").dtype == np.float16
    assert "'x'" in one_line_error(tmp_path / "t.safetensors", key="x")
    assert "choose one with key=" in one_line_error(tmp_path / "t.safetensors")


def test_safetensors_bfloat16_is_read_from_raw_bytes(tmp_path, table):
    write_safetensors(tmp_path / "b.safetensors", {"pe": ("BF16", table.shape, bf16_bytes(table))})
    loaded = load_table(tmp_path / "b.safetensors")
    assert loaded.dtype == np.float32
    assert np.max(np.abs(loaded - table)) <= 2.0**-9
    assert np.all((loaded.view(np.uint32) & 0xFFFF) == 0)
    result = audit(loaded)
    assert result.precision == "bfloat16"
    assert (result.layout, result.schedule, result.position_offset) == ("interleaved", "paper", 0)


def test_missing_safetensors_package_names_the_extra(tmp_path, table, monkeypatch):
    safetensors_numpy.save_file({"pe": table}, tmp_path / "t.safetensors")
    real_import = builtins.__import__

    def refuse(name, *args, **kwargs):
        if name.startswith("safetensors"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse)
    assert "pip install 'pe-proofs[safetensors]'" in one_line_error(tmp_path / "t.safetensors")


def test_bad_files(tmp_path, table):
    np.save(tmp_path / "flat.npy", table[0])
    assert "2-D" in one_line_error(tmp_path / "flat.npy")
    np.save(tmp_path / "empty.npy", np.zeros((0, 4), dtype=np.float32))
    assert "empty" in one_line_error(tmp_path / "empty.npy")
    bad = table.copy()
    bad[7, 3] = np.nan
    np.save(tmp_path / "nan.npy", bad)
    assert "row 7, column 3" in one_line_error(tmp_path / "nan.npy")
    bad[7, 3] = np.inf
    np.savez(tmp_path / "inf.npz", pe=bad)
    assert "non-finite" in one_line_error(tmp_path / "inf.npz")
    np.save(tmp_path / "objects.npy", np.array([[1.0, None]], dtype=object), allow_pickle=True)
    assert "pickles) are refused" in one_line_error(tmp_path / "objects.npy")
    np.save(tmp_path / "ints.npy", np.arange(12).reshape(3, 4))
    assert "float16, float32 or float64" in one_line_error(tmp_path / "ints.npy")
    np.save(tmp_path / "cut.npy", table)
    data = (tmp_path / "cut.npy").read_bytes()
    (tmp_path / "cut.npy").write_bytes(data[: len(data) // 2])
    assert "cut.npy" in one_line_error(tmp_path / "cut.npy")
    (tmp_path / "cut.npz").write_bytes(b"PK\x03\x04 not really a zip")
    assert "cut.npz" in one_line_error(tmp_path / "cut.npz")
    (tmp_path / "t.pkl").write_bytes(b"\x80\x04.")
    assert "unsupported file type" in one_line_error(tmp_path / "t.pkl")
    assert "no such file" in one_line_error(tmp_path / "missing.npy")
    (tmp_path / "words.csv").write_text("a,b\nc,d\n")
    assert "words.csv" in one_line_error(tmp_path / "words.csv")
    np.save(tmp_path / "k.npy", table)
    assert "key= applies" in one_line_error(tmp_path / "k.npy", key="pe")


def test_truncated_and_malformed_safetensors(tmp_path, table):
    raw = table.tobytes()
    write_safetensors(tmp_path / "t.safetensors", {"pe": ("F32", table.shape, raw)})
    data = (tmp_path / "t.safetensors").read_bytes()
    (tmp_path / "cut.safetensors").write_bytes(data[:-100])
    assert "truncated" in one_line_error(tmp_path / "cut.safetensors")
    (tmp_path / "short.safetensors").write_bytes(b"\x01\x02")
    assert "truncated" in one_line_error(tmp_path / "short.safetensors")
    (tmp_path / "long.safetensors").write_bytes(struct.pack("<Q", 10**9) + b"{}")
    assert "truncated" in one_line_error(tmp_path / "long.safetensors")
    (tmp_path / "json.safetensors").write_bytes(struct.pack("<Q", 5) + b"{nope")
    assert "not valid JSON" in one_line_error(tmp_path / "json.safetensors")
    write_safetensors(tmp_path / "i.safetensors", {"pe": ("I32", (2, 2), b"\0" * 16)})
    assert "only F64, F32, F16 or BF16" in one_line_error(tmp_path / "i.safetensors")
