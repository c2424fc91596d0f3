"""numeric.audit.load: every supported file type read, and a one-line ValueError naming the
file and what is wrong for each bad one, reader by reader (the size limits: test_audit_bounds.py).
"""

from __future__ import annotations

import json
import os
import struct
import zipfile

import numpy as np
import pytest

from numeric import sinusoidal_pe
from numeric.audit.limits import MAX_NPZ_MEMBER_BYTES, MAX_SAFETENSORS_TENSORS
from numeric.audit.load import open_table
from numeric.table_audit import audit, load_table


@pytest.fixture
def table() -> np.ndarray:
    return sinusoidal_pe(300, 16, dtype=np.float32)


def write_safetensors(path, tensors: dict[str, dict], data: bytes = b"") -> None:
    """A .safetensors file written by hand: 8-byte little-endian header length, JSON, raw bytes;
    each tensor's header entry as given (so it may be malformed on purpose)."""
    text = json.dumps(tensors).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + data)


def entry(dtype: str, shape, begin: int, end: int) -> dict:
    return {"dtype": dtype, "shape": shape, "data_offsets": [begin, end]}


def bf16_bytes(values: np.ndarray) -> bytes:
    """values rounded to bfloat16 (nearest, ties to even) as little-endian 2-byte words."""
    bits = np.asarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype("<u2").tobytes()


def one_line_error(path, **kwargs) -> str:
    """The message of the ValueError both readers raise (open_table and load_table)."""
    messages = []
    for read in (load_table, open_table):
        with pytest.raises(ValueError) as error:
            read(path, **kwargs)
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    assert "\n" not in messages[0] and len(messages[0]) < 400
    return messages[0]


# Every file type read.


def test_npy_is_memory_mapped_and_read_without_mapping(tmp_path, table):
    np.save(tmp_path / "t.npy", table)
    loaded = load_table(tmp_path / "t.npy")
    assert isinstance(loaded, np.memmap)
    assert np.array_equal(loaded, table)
    rows = open_table(tmp_path / "t.npy")
    assert np.array_equal(rows[0:300], table) and np.array_equal(rows[[5, 3, 4]], table[[5, 3, 4]])


def test_big_endian_and_fortran_ordered_npy_are_read(tmp_path, table):
    np.save(tmp_path / "big.npy", table.astype(">f8"))
    assert np.array_equal(load_table(tmp_path / "big.npy"), table)
    assert audit(open_table(tmp_path / "big.npy")).precision == "float32"
    np.save(tmp_path / "fortran.npy", np.asfortranarray(table))
    assert np.array_equal(open_table(tmp_path / "fortran.npy")[10:20], table[10:20])


def test_npz_with_and_without_key(tmp_path, table):
    np.savez(tmp_path / "one.npz", pe=table)
    assert np.array_equal(load_table(tmp_path / "one.npz"), table)
    np.savez_compressed(tmp_path / "two.npz", pe=table, other=table[:10])
    assert np.array_equal(load_table(tmp_path / "two.npz", key="other"), table[:10])
    assert "choose one with key=" in one_line_error(tmp_path / "two.npz")
    message = one_line_error(tmp_path / "two.npz", key="nope")
    assert "'nope'" in message and "'other'" in message and "'pe'" in message


@pytest.mark.parametrize(
    ("suffix", "delimiter"), [(".csv", ","), (".csv", ";"), (".txt", " "), (".txt", "\t")]
)
def test_text_tables(tmp_path, table, suffix, delimiter):
    np.savetxt(tmp_path / f"t{suffix}", table, delimiter=delimiter, fmt="%.9g")
    loaded = load_table(tmp_path / f"t{suffix}")
    # Nine significant digits identify a float32 exactly, read back as the nearest float64.
    assert loaded.dtype == np.float64
    assert np.array_equal(loaded.astype(np.float32), table)


def test_text_with_a_bom_comments_and_a_header_line(tmp_path, table):
    body = "\n".join(",".join(f"{v:.9g}" for v in row) for row in table)
    text = "\ufeff# made by numpy\n" + ",".join(f"c{j}" for j in range(16)) + "\n\n" + body
    (tmp_path / "t.csv").write_text(text + "  # the end\n", encoding="utf-8")
    assert np.array_equal(load_table(tmp_path / "t.csv").astype(np.float32), table)


def test_safetensors_float_dtypes_are_mapped_without_the_package(tmp_path, table):
    raw32, raw16 = table.tobytes(), table.astype(np.float16).tobytes()
    write_safetensors(
        tmp_path / "t.safetensors",
        {
            "__metadata__": {"format": "np"},
            "pe": entry("F32", [300, 16], 0, len(raw32)),
            "half": entry("F16", [300, 16], len(raw32), len(raw32) + len(raw16)),
        },
        raw32 + raw16,
    )
    assert np.array_equal(load_table(tmp_path / "t.safetensors", key="pe"), table)
    assert load_table(tmp_path / "t.safetensors", key="half").dtype == np.float16
    assert "'x'" in one_line_error(tmp_path / "t.safetensors", key="x")
    assert "choose one with key=" in one_line_error(tmp_path / "t.safetensors")


def test_safetensors_bfloat16_is_read_from_raw_bytes(tmp_path, table):
    raw = bf16_bytes(table)
    write_safetensors(
        tmp_path / "b.safetensors", {"pe": entry("BF16", [300, 16], 0, len(raw))}, raw
    )
    loaded = load_table(tmp_path / "b.safetensors")
    assert loaded.dtype == np.float32
    assert np.max(np.abs(loaded - table)) <= 2.0**-9
    assert np.all((loaded.view(np.uint32) & 0xFFFF) == 0)
    result = audit(open_table(tmp_path / "b.safetensors"))
    assert result.precision == "bfloat16" and result.dtype == "bfloat16"
    assert (result.layout, result.schedule, result.position_offset) == ("interleaved", "paper", 0)


def test_the_official_writer_s_files_are_read(tmp_path, table):
    numpy_api = pytest.importorskip(
        "safetensors.numpy", reason="pip install 'pe-proofs[safetensors]'"
    )
    numpy_api.save_file({"pe": table, "x": table[:3]}, tmp_path / "t.safetensors")
    assert np.array_equal(load_table(tmp_path / "t.safetensors", key="pe"), table)


# Bad files: kinds of file.


def test_missing_and_unsupported_files(tmp_path, table):
    assert "no such file" in one_line_error(tmp_path / "missing.npy")
    (tmp_path / "t.pkl").write_bytes(b"\x80\x04.")
    assert "unsupported file type" in one_line_error(tmp_path / "t.pkl")
    np.save(tmp_path / "k.npy", table)
    assert "key= (--key) applies" in one_line_error(tmp_path / "k.npy", key="pe")


def test_what_is_not_a_regular_file_is_named(tmp_path):
    (tmp_path / "dir.npy").mkdir()
    assert "a directory, not a file" in one_line_error(tmp_path / "dir.npy")
    os.mkfifo(tmp_path / "pipe.csv")
    assert "a named pipe (FIFO), not a file" in one_line_error(tmp_path / "pipe.csv")
    (tmp_path / "zero.npy").symlink_to("/dev/zero")
    message = one_line_error(tmp_path / "zero.npy")
    assert "a symbolic link to /dev/zero, a character device, not a file" in message
    (tmp_path / "dangling.npy").symlink_to(tmp_path / "nowhere.npy")
    assert "which does not exist" in one_line_error(tmp_path / "dangling.npy")


def test_a_file_that_is_not_npy_is_not_called_a_pickle(tmp_path):
    (tmp_path / "text.npy").write_text("0.1, 0.2\n0.3, 0.4\n")
    message = one_line_error(tmp_path / "text.npy")
    assert "is not a .npy file" in message and "pickle" not in message
    (tmp_path / "pickle.npy").write_bytes(b"\x80\x04\x95\x00")
    assert "is a Python pickle" in one_line_error(tmp_path / "pickle.npy")


# Bad files: headers and values.


def test_npy_headers(tmp_path, table):
    def npy(name: str, header: str, data: bytes = b"") -> str:
        text = header.encode("latin1")
        text += b" " * (-(len(text) + 11) % 64) + b"\n"
        path = tmp_path / name
        path.write_bytes(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(text)) + text + data)
        return one_line_error(path)

    assert "negative shape (-5, 16)" in npy(
        "neg.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (-5, 16), }"
    )
    assert "truncated .npy file" in npy(
        "huge.npy",
        "{'descr': '<f8', 'fortran_order': False, 'shape': (10**9, 10**9), }".replace(
            "10**9", str(10**9)
        ),
    )
    assert "pickles) are refused" in npy(
        "obj.npy", "{'descr': '|O', 'fortran_order': False, 'shape': (2, 2), }"
    )
    assert "no readable .npy header" in npy("junk.npy", "__import__('os')")
    np.save(tmp_path / "flat.npy", table[0])
    assert "2-D" in one_line_error(tmp_path / "flat.npy")
    np.save(tmp_path / "ints.npy", np.arange(12).reshape(3, 4))
    assert "float16, float32 or float64" in one_line_error(tmp_path / "ints.npy")
    np.save(tmp_path / "cut.npy", table)
    data = (tmp_path / "cut.npy").read_bytes()
    (tmp_path / "cut.npy").write_bytes(data[: len(data) // 2])
    assert "cut.npy: truncated" in one_line_error(tmp_path / "cut.npy")


def test_values_and_shapes(tmp_path, table):
    np.save(tmp_path / "empty.npy", np.zeros((0, 4), dtype=np.float32))
    assert "empty" in one_line_error(tmp_path / "empty.npy")
    bad = table.copy()
    bad[7, 3] = np.nan
    np.save(tmp_path / "nan.npy", bad)
    with pytest.raises(ValueError, match="row 7, column 3"):
        load_table(tmp_path / "nan.npy")
    with pytest.raises(ValueError, match="row 7, column 3"):
        audit(open_table(tmp_path / "nan.npy"))
    bad[7, 3] = np.inf
    np.savez(tmp_path / "inf.npz", pe=bad)
    with pytest.raises(ValueError, match="non-finite"):
        load_table(tmp_path / "inf.npz")
    (tmp_path / "words.csv").write_text("1,2\n3,x\n")
    assert "line 2, value 2: 'x' is not a number" in one_line_error(tmp_path / "words.csv")
    (tmp_path / "ragged.csv").write_text("1,2\n3\n")
    assert "line 2 has 1 values where the first row has 2" in one_line_error(
        tmp_path / "ragged.csv"
    )
    (tmp_path / "latin.csv").write_bytes(b"1,2\n\xff,3\n")
    assert "line 2 is not UTF-8" in one_line_error(tmp_path / "latin.csv")
    (tmp_path / "empty.csv").write_text("# nothing\n\n")
    assert "no rows of numbers" in one_line_error(tmp_path / "empty.csv")


def test_npz_files(tmp_path, table):
    (tmp_path / "cut.npz").write_bytes(b"PK\x03\x04 not really a zip")
    assert "cut.npz: not a readable .npz file" in one_line_error(tmp_path / "cut.npz")
    with zipfile.ZipFile(tmp_path / "text.npz", "w") as archive:
        archive.writestr("pe.npy", "not an array")
    assert "array 'pe' is not a .npy file" in one_line_error(tmp_path / "text.npz")
    with zipfile.ZipFile(tmp_path / "pickle.npz", "w") as archive:
        archive.writestr("pe.npy", b"\x80\x04\x95")
    assert "is a Python pickle" in one_line_error(tmp_path / "pickle.npz")


def test_safetensors_fields_are_named_when_wrong(tmp_path, table):
    raw = table.tobytes()
    cases = {
        "no_shape": (
            {"pe": {"dtype": "BF16", "data_offsets": [0, 4]}},
            "shape must be a list of non-negative integers, got nothing",
        ),
        "negative_shape": (
            {"pe": entry("BF16", [-1, 2], 4, 0)},
            "shape must be a list of non-negative integers, got [-1, 2]",
        ),
        "reversed_offsets": (
            {"pe": entry("BF16", [1, 2], 4, 0)},
            "data_offsets must be two integers [begin, end] with 0 <= begin <= end, got [4, 0]",
        ),
        "string_offsets": (
            {"pe": entry("F32", [1, 1], "a", 4)},
            "data_offsets must be two integers",
        ),
        "size_mismatch": (
            {"pe": entry("F32", [300, 16], 0, 8)},
            "takes 19200 bytes, but its data_offsets [0, 8] hold 8",
        ),
        "cut_off": (
            {"pe": entry("F32", [300, 16], 0, 19200)},
            "truncated .safetensors file (tensor 'pe' is cut off)",
        ),
        "int_dtype": (
            {"pe": entry("I32", [2, 2], 0, 16)},
            "has dtype 'I32'; only F64, F32, F16 or BF16",
        ),
        "no_dtype": ({"pe": {"shape": [2, 2], "data_offsets": [0, 16]}}, "has no dtype"),
        "not_an_object": ({"pe": [1, 2, 3]}, "is described by [1, 2, 3], not by an object"),
        "three_d": (
            {"pe": entry("F32", [2, 2, 2], 0, 32)},
            "must be 2-D (positions, dims), got shape [2, 2, 2]",
        ),
    }
    for name, (header, expected) in cases.items():
        data = raw[:100] if name == "cut_off" else raw[:64]
        write_safetensors(tmp_path / f"{name}.safetensors", header, data)
        message = one_line_error(tmp_path / f"{name}.safetensors")
        assert expected in message and f"{name}.safetensors" in message, (name, message)
        assert "operand" not in message and "KeyError" not in message


def test_safetensors_headers(tmp_path):
    (tmp_path / "short.safetensors").write_bytes(b"\x01\x02")
    assert "no 8-byte header length" in one_line_error(tmp_path / "short.safetensors")
    (tmp_path / "past.safetensors").write_bytes(struct.pack("<Q", 1000) + b"{}")
    assert "runs past the end" in one_line_error(tmp_path / "past.safetensors")
    (tmp_path / "json.safetensors").write_bytes(struct.pack("<Q", 5) + b"{nope")
    assert "not valid JSON" in one_line_error(tmp_path / "json.safetensors")
    deep = b"[" * 100_000 + b"]" * 100_000
    (tmp_path / "deep.safetensors").write_bytes(struct.pack("<Q", len(deep)) + deep)
    assert "not valid JSON" in one_line_error(tmp_path / "deep.safetensors")
    (tmp_path / "list.safetensors").write_bytes(struct.pack("<Q", 2) + b"[]")
    assert "not a JSON object" in one_line_error(tmp_path / "list.safetensors")


def test_many_keys_are_named_a_few_at_a_time(tmp_path, table):
    raw = table.tobytes()
    header = {f"layer.{i}.weight": entry("F32", [300, 16], 0, len(raw)) for i in range(40)}
    write_safetensors(tmp_path / "model.safetensors", header, raw)
    message = one_line_error(tmp_path / "model.safetensors")
    assert "holds 40 tensors" in message and "and 35 more" in message
    assert message.count("layer.") == 5
    np.savez(tmp_path / "many.npz", **{f"a{i}": table[:4] for i in range(30)})
    assert "and 25 more" in one_line_error(tmp_path / "many.npz", key="b")
    assert MAX_SAFETENSORS_TENSORS >= 10_000 and MAX_NPZ_MEMBER_BYTES >= 2**26


def test_tables_of_huge_and_tiny_values_are_audited(tmp_path):
    for scale in (1e300, 1e-300):
        values = sinusoidal_pe(400, 16) * scale
        np.save(tmp_path / "t.npy", values)
        np.savetxt(tmp_path / "t.csv", values, delimiter=",", fmt="%.17g")
        for name in ("t.npy", "t.csv"):
            result = audit(open_table(tmp_path / name))
            assert (result.layout, result.schedule, result.position_offset) == (
                "interleaved",
                "paper",
                0,
            )
            assert result.scale == pytest.approx(scale, rel=1e-12) and result.clean
            assert result.max_abs_error <= result.expected_error
            json.dumps(result.to_json(), allow_nan=False)
    constant = audit(np.full((10, 4), 1e308))
    assert constant.structure["verdict"] == "not sinusoidal" and not constant.clean
    json.dumps(constant.to_json(), allow_nan=False)


def test_rows_read_from_a_file_are_the_rows_of_the_array(tmp_path):
    """Any index array (unsorted, repeated, close or far apart) and any slice read the same rows
    as NumPy's own indexing, in both byte orders."""
    rng = np.random.default_rng(1)
    table = rng.standard_normal((5000, 37)).astype(np.float32)
    for dtype in ("<f4", ">f8"):
        np.save(tmp_path / "t.npy", table.astype(dtype))
        rows = open_table(tmp_path / "t.npy")
        for _ in range(100):
            index = rng.integers(0, 5000, rng.integers(0, 300))
            assert np.array_equal(rows.raw(index), table[index].astype(np.float64))
            start = int(rng.integers(0, 5000))
            stop = int(rng.integers(start, 5001))
            assert np.array_equal(rows.raw(slice(start, stop)), table[start:stop])
